import { TermLink } from './term-link'
import type { Page, TermRow } from '../api/types'
import { fmtInt } from '../../../lib/format'
import { Badges, Change } from './change'
import { Empty } from '../../../components/ui/states'

// A short ranked list of terms for the overview cards; each links to the term page. The number
// shown is the change over the window, or another measure when the card is about one.
export function TermList({ page, window, empty, measure }: { page: Page; window: number; empty: string; measure?: (r: TermRow) => number | null }) {
  if (page.rows.length === 0) return <Empty title={empty} />
  const w = [1, 4, 13, 52].indexOf(window)
  const value = measure ?? ((r: TermRow) => r.changes[w])
  return (
    <ol className="divide-y divide-zinc-100 text-sm dark:divide-zinc-800">
      {page.rows.map((r) => (
        <li key={r.term} className="flex items-center justify-between py-1.5">
          <TermLink term={r.term}>
            {r.term}
            <Badges isNew={r.new} breakout={r.breakout} />
          </TermLink>
          <span className="flex gap-3 tabular-nums">
            <span className="text-zinc-500">#{fmtInt(r.rank)}</span>
            <Change value={value(r)} />
          </span>
        </li>
      ))}
    </ol>
  )
}
