import { useState } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { useSelection } from '../../../lib/selection'
import { useDocumentTitle } from '../../../lib/document-title'
import { Button } from '../../../components/ui/button'
import { billingQuery, limitText, openPortal, startCheckout, type BillingState, type Plan } from '../api/billing'
import { openEmbeddedCheckout } from './embedded-checkout'

// BillingPage: the workspace's plan, what it allows and uses, upgrades through Polar's embedded
// checkout, and the customer portal for invoices and cancelling.
export function BillingPage() {
  useDocumentTitle('Plan and billing')
  // The plan of the workspace the dashboard shows (an organization's is shared by its members);
  // the demo has none, so there it is the personal workspace's.
  const { own, workspace, isDemo } = useSelection()
  const target = workspace && !isDemo ? workspace : own
  const ws = target?.id ?? ''
  const q = useQuery(billingQuery(ws))
  if (q.isPending) return <p className="text-sm text-zinc-500">Loading your plan…</p>
  if (q.error) return <p role="alert" className="text-sm text-red-600">{q.error.message}</p>
  return <Billing state={q.data} ws={ws} name={target?.kind === 'organization' ? target.name : undefined} />
}

function Billing({ state, ws, name }: { state: BillingState; ws: string; name?: string }) {
  const qc = useQueryClient()
  const [busy, setBusy] = useState<string | null>(null)
  const limits = state.plan.limits
  async function upgrade(slug: string) {
    setBusy(slug)
    try {
      const { url } = await startCheckout(slug, ws)
      const theme = document.documentElement.classList.contains('dark') ? 'dark' : 'light'
      await openEmbeddedCheckout(url, theme, (successURL, redirect) => {
        toast.success('Payment received: your plan changes as soon as Polar confirms it.')
        qc.invalidateQueries({ queryKey: ['billing'] })
        if (redirect && successURL) window.location.assign(successURL)
      })
    } catch (e) {
      toast.error((e as Error).message)
    } finally {
      setBusy(null)
    }
  }
  async function manage() {
    try {
      const { url } = await openPortal()
      window.location.assign(url)
    } catch (e) {
      toast.error((e as Error).message)
    }
  }
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold break-words">Plan and billing{name ? `: ${name}` : ''}</h1>
      {!state.configured && (
        <p className="rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
          Billing is not configured on this server{state.enforced ? '.' : ': every feature is open to every workspace.'}
        </p>
      )}
      <section aria-labelledby="current" className="rounded-lg border border-zinc-200 p-4 dark:border-zinc-800">
        <h2 id="current" className="font-semibold">
          Your plan: <span data-testid="current-plan">{state.plan.title}</span>
        </h2>
        <ul className="mt-3 grid gap-2 text-sm sm:grid-cols-2">
          <Usage label="Watchlist items" used={state.usage.watchlistItems} limit={limits.watchlistItems} />
          <Usage label="Datasets" used={state.usage.datasets} limit={limits.datasets} />
          <Usage label="Seats (members and pending invitations)" used={state.usage.seats} limit={limits.seats} />
          <li>History: {limits.historyPeriods < 0 ? 'every period you import' : `the latest ${limits.historyPeriods} periods`}</li>
          <li>Email alerts: {limits.alerts ? 'included' : 'not included'}</li>
          <li>CSV exports: {limits.exports ? 'included' : 'not included'}</li>
          <li>API access: {limits.api ? 'included' : 'not included'}</li>
        </ul>
        {state.configured && state.subscriptions.length > 0 && state.canManage && (
          <Button variant="secondary" className="mt-4" onClick={manage}>
            Manage billing and invoices
          </Button>
        )}
      </section>
      <Pricing state={state} busy={busy} onUpgrade={upgrade} />
      {state.subscriptions.length > 0 && (
        <section aria-labelledby="history">
          <h2 id="history" className="font-semibold">
            Subscription history
          </h2>
          <ul className="mt-2 space-y-1 text-sm">
            {state.subscriptions.map((s) => (
              <li key={s.id}>
                {s.plan} — {s.status}
                {s.cancelAtPeriodEnd && s.currentPeriodEnd ? `, ends ${new Date(s.currentPeriodEnd).toLocaleDateString('en-US', { dateStyle: 'medium' })}` : ''}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  )
}

function Usage({ label, used, limit }: { label: string; used: number; limit: number }) {
  return (
    <li>
      {label}: {used.toLocaleString('en-US')} {limit < 0 ? '(unlimited)' : `of ${limit.toLocaleString('en-US')}`}
    </li>
  )
}

// Pricing lists the plans; on the billing page each one the server sells can be bought.
export function Pricing({ state, busy, onUpgrade }: { state?: BillingState; busy?: string | null; onUpgrade?: (slug: string) => void }) {
  const plans: (Plan & { purchasable?: boolean })[] = state?.plans ?? STATIC_PLANS
  return (
    <section aria-labelledby="pricing">
      <h2 id="pricing" className="text-xl font-semibold">
        Plans
      </h2>
      <div className="mt-3 grid gap-4 md:grid-cols-3">
        {plans.map((p) => (
          <div key={p.name} className="rounded-lg border border-zinc-200 p-4 dark:border-zinc-800">
            <h3 className="font-semibold">{p.title}</h3>
            <ul className="mt-2 space-y-1 text-sm text-zinc-600 dark:text-zinc-400">
              <li>{p.limits.historyPeriods < 0 ? 'All history' : `Latest ${p.limits.historyPeriods} periods`}</li>
              <li>{limitText(p.limits.watchlistItems, 'watchlist items')}</li>
              <li>{limitText(p.limits.datasets, p.limits.datasets === 1 ? 'dataset' : 'datasets')}</li>
              <li>{limitText(p.limits.seats, p.limits.seats === 1 ? 'seat' : 'seats')}</li>
              <li>{p.limits.alerts ? 'Email alerts' : 'No email alerts'}</li>
              <li>{p.limits.exports ? 'CSV exports' : 'No exports'}</li>
              {p.limits.api && <li>API access</li>}
            </ul>
            {state && onUpgrade && p.purchasable === true && state.plan.name !== p.name && state.canManage && (
              <Button className="mt-3" disabled={busy !== null} onClick={() => onUpgrade(p.name)}>
                {busy === p.name ? 'Opening checkout…' : `Upgrade to ${p.title}`}
              </Button>
            )}
          </div>
        ))}
      </div>
    </section>
  )
}

// The public page shows the plans before anyone signs in (the server's catalogue, internal/plan).
const STATIC_PLANS = [
  { name: 'free', title: 'Free', limits: { datasets: 1, historyPeriods: 13, watchlistItems: 10, seats: 1, alerts: false, exports: false, api: false } },
  { name: 'pro', title: 'Pro', limits: { datasets: 1, historyPeriods: -1, watchlistItems: 500, seats: 3, alerts: true, exports: true, api: false } },
  { name: 'team', title: 'Team', limits: { datasets: -1, historyPeriods: -1, watchlistItems: -1, seats: 10, alerts: true, exports: true, api: true } },
]
