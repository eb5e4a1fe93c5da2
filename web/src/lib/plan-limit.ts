import { toast } from 'sonner'
import { ApiError } from './api-client'

// A refusal because of the workspace's plan (403 PLAN_LIMIT_REACHED): its message names the plan
// that lifts the limit, and every screen offers the billing page beside it.
export const PLAN_LIMIT = 'PLAN_LIMIT_REACHED'
export const BILLING_PATH = '/dashboard/billing'

export function isPlanLimit(e: unknown): boolean {
  return e instanceof ApiError && e.code === PLAN_LIMIT
}

// toastError shows a failure; a plan limit gets a "See plans" action to the billing page.
export function toastError(message: string, planLimit = false) {
  if (!planLimit) return toast.error(message)
  return toast.error(message, { action: { label: 'See plans', onClick: () => window.location.assign(BILLING_PATH) } })
}

export function toastFailure(e: unknown) {
  return toastError(e instanceof Error ? e.message : 'Something went wrong', isPlanLimit(e))
}
