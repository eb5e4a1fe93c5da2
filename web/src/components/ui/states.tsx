import type { ReactNode } from 'react'
import { Link } from '@tanstack/react-router'
import { Button } from './button'
import { BILLING_PATH, isPlanLimit } from '../../lib/plan-limit'
import { periodUnit } from '../../lib/format'

export function Skeleton({ rows = 5, label = 'Loading' }: { rows?: number; label?: string }) {
  return (
    <div role="status" aria-label={label} className="space-y-2">
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="h-6 animate-pulse rounded bg-zinc-200 dark:bg-zinc-800" />
      ))}
    </div>
  )
}

export function ErrorState({ error, retry }: { error: unknown; retry?: () => void }) {
  return (
    <div role="alert" className="rounded-md border border-red-300 bg-red-50 p-4 text-sm dark:border-red-800 dark:bg-red-950">
      <p>{error instanceof Error ? error.message : 'Something went wrong'}</p>
      {isPlanLimit(error) ? ( // asking again changes nothing: the plans do
        <Link to={BILLING_PATH} className="mt-2 inline-block font-medium text-indigo-700 underline dark:text-indigo-300">
          See plans
        </Link>
      ) : retry && (
        <Button variant="secondary" className="mt-2" onClick={retry}>
          Retry
        </Button>
      )}
    </div>
  )
}

// HiddenHistory says how many older periods the workspace's plan leaves out, offering the plans.
export function HiddenHistory({ count, kind }: { count?: number; kind?: string }) {
  if (!count) return null
  return (
    <p className="text-sm text-zinc-600 dark:text-zinc-400">
      The {periodUnit(kind, count)} before these are not shown on your plan.{' '}
      <Link to={BILLING_PATH} className="font-medium text-indigo-700 underline dark:text-indigo-300">See plans</Link>
    </p>
  )
}

export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="rounded-md border border-dashed border-zinc-300 p-6 text-center text-sm dark:border-zinc-700">
      <p className="font-medium">{title}</p>
      {children && <div className="mt-2 text-zinc-600 dark:text-zinc-400">{children}</div>}
    </div>
  )
}

// Card is a titled region; info is the (i) beside the title when the card is about a measure.
// min-w-0 lets a wide table scroll inside the card instead of widening the page on a phone.
export function Card({ title, children, action, info }: { title: string; children: ReactNode; action?: ReactNode; info?: ReactNode }) {
  return (
    <section aria-label={title} className="min-w-0 rounded-lg border border-zinc-200 p-4 dark:border-zinc-800">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 className="font-semibold">{title}{info}</h2>
        {action}
      </div>
      {children}
    </section>
  )
}
