import { queryOptions } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'

export interface Limits {
  datasets: number // -1: unlimited
  historyPeriods: number
  watchlistItems: number
  seats: number
  alerts: boolean
  exports: boolean
  api: boolean
}

export interface Plan {
  name: string
  title: string
  limits: Limits
}

export interface BillingState {
  configured: boolean
  enforced: boolean
  plan: Plan
  usage: { datasets: number; watchlistItems: number; seats: number }
  plans: (Plan & { purchasable: boolean })[]
  subscriptions: { id: string; plan: string; status: string; cancelAtPeriodEnd: boolean; currentPeriodEnd: string | null }[]
  canManage: boolean
}

export const billingQuery = (ws: string) =>
  queryOptions({ queryKey: ['billing', ws], queryFn: () => api<BillingState>(`/api/billing/${encodeURIComponent(ws)}`), enabled: !!ws })

// Billing calls show the server's own message, even for Polar's failures (502) and an
// unconfigured server (503): a seller must know why the checkout did not open.
async function billingCall<T>(path: string, body: unknown): Promise<T> {
  let res: Response
  try {
    res = await fetch(path, { method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) })
  } catch {
    throw new Error('Could not reach sellertrends: check your connection, then try again.')
  }
  const data = await res.json().catch(() => null)
  if (!res.ok) throw new Error(typeof data?.message === 'string' && data.message ? data.message : `The checkout could not be opened (${res.status}).`)
  return data as T
}

// startCheckout asks our server (Polar's Better Auth plugin protocol) for an embedded checkout.
export function startCheckout(slug: string, workspace: string) {
  return billingCall<{ url: string; redirect: boolean }>('/api/auth/checkout', {
    slug,
    referenceId: workspace,
    redirect: false,
    embedOrigin: window.location.origin,
    successUrl: `/dashboard/billing?checkout=done`,
  })
}

export function openPortal() {
  return billingCall<{ url: string; redirect: boolean }>('/api/auth/customer/portal', { redirect: false })
}

export function limitText(n: number, unit: string): string {
  return n < 0 ? `Unlimited ${unit}` : `${n.toLocaleString('en-US')} ${unit}`
}
