import type { ReactNode } from 'react'
import { TermLink } from './term-link'
import type { Page, TermRow } from '../../../lib/trends-types'
import { fmtInt } from '../../../lib/format'
import { Badges, Change, Growth } from '../../../components/trends/change'
import { Empty } from '../../../components/ui/states'

export const WINDOWS = [1, 4, 13, 52] as const

// A short ranked list of terms for the overview cards; each links to the term page. Each row
// shows the move over the window ("rank 1,210 → 300", change in estimated searches), or the
// coming-up growth on the card about it.
export function TermList({ page, window, empty, comingUp }: { page: Page; window: number; empty: { title: string; next?: ReactNode }; comingUp?: boolean }) {
  if (page.rows.length === 0) return <Empty title={empty.title}>{empty.next}</Empty>
  const w = Math.max(0, WINDOWS.indexOf(window as (typeof WINDOWS)[number]))
  // A term with no rank then (new, or back after a gap) shows where it entered instead of a dash.
  const value = (r: TermRow) =>
    comingUp ? <Growth log2={r.comingUp} suffix="last year" /> : r.ranksAgo[w] == null ? <span className="text-zinc-500">entered at #{fmtInt(r.rank)}</span> : <Change then={r.ranksAgo[w]} now={r.rank} />
  return (
    <ol className="divide-y divide-zinc-100 text-sm dark:divide-zinc-800">
      {page.rows.map((r) => (
        <li key={r.term} className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 py-1.5">
          <span className="min-w-0">
            <TermLink term={r.term}>{r.term}</TermLink>
            <Badges isNew={r.new} breakout={r.breakout} />
          </span>
          <span className="flex items-center gap-3 tabular-nums">
            {comingUp && <span className="text-zinc-500">#{fmtInt(r.rank)}</span>}
            {value(r)}
          </span>
        </li>
      ))}
    </ol>
  )
}
