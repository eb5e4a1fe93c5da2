import { TermLink } from './term-link'
import type { Page } from '../api/types'
import { fmtInt } from '../../../lib/format'
import { Badges, Change } from './change'
import { Empty } from '../../../components/ui/states'

// A short ranked list of terms for the overview cards; each links to the term page.
export function TermList({ page, window, empty }: { page: Page; window: number; empty: string }) {
  if (page.rows.length === 0) return <Empty title={empty} />
  const w = [1, 4, 13, 52].indexOf(window)
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
            <Change value={r.changes[w]} />
          </span>
        </li>
      ))}
    </ol>
  )
}
