import { fmtRankMove, fmtSearchesChange, searchesChange, searchesChangeFromLog2 } from '../../lib/format'
import { MEASURES, type Measure } from '../../lib/measures'
import { InfoTip } from '../ui/info-tip'

const UP = 'text-emerald-700 dark:text-emerald-400'
const DOWN = 'text-rose-700 dark:text-rose-400'

// Change shows a rank move as a seller reads it: the change in estimated searches ("▲ +227%") and
// the ranks themselves ("rank 1,210 → 300"). Green up, red down; the arrow and sign carry the
// meaning too, for colour-blind readers. log2 stays the API's and the sort's business.
export function Change({ then, now }: { then: number | null | undefined; now: number | null | undefined }) {
  if (then == null || now == null) return <span className="text-zinc-400" title="Absent then, or not enough periods loaded yet">–</span>
  const change = searchesChange(then, now)
  const words = fmtSearchesChange(change)
  if (words === 'no change') {
    return (
      <span className="whitespace-nowrap">
        <span className="block text-zinc-600 dark:text-zinc-400">no change</span>
        <span className="block text-xs text-zinc-500">{fmtRankMove(then, now)}</span>
      </span>
    )
  }
  const up = change > 0
  return (
    <span className="whitespace-nowrap">
      <span className={`block ${up ? UP : DOWN}`}>
        {up ? '▲' : '▼'} {words} <span className="text-xs text-zinc-500">est. searches</span>
      </span>
      <span className="block text-xs text-zinc-500">{fmtRankMove(then, now)}</span>
    </span>
  )
}

// Growth shows a log2 measure that has no ranks beside it (coming up: how much a term rose in
// the coming weeks last year) as a change in estimated searches.
export function Growth({ log2, suffix = 'est. searches' }: { log2: number | null | undefined; suffix?: string }) {
  if (log2 == null) return <span className="text-zinc-400">–</span>
  const change = searchesChangeFromLog2(log2)
  const words = fmtSearchesChange(change)
  if (words === 'no change') return <span className="text-zinc-600 dark:text-zinc-400">no change</span>
  return (
    <span className={`whitespace-nowrap ${change > 0 ? UP : DOWN}`}>
      {change > 0 ? '▲' : '▼'} {words} <span className="text-xs text-zinc-500">{suffix}</span>
    </span>
  )
}

// MeasureInfo is the (i) beside a measure's name, with its meaning and computation.
export function MeasureInfo({ measure }: { measure: Measure }) {
  const m = MEASURES[measure]
  return <InfoTip label={m.name}>{m.text}</InfoTip>
}

export function Badges({ isNew, breakout }: { isNew: boolean; breakout: boolean }) {
  return (
    <>
      {isNew && <span title={MEASURES.new.text} className="ml-2 rounded bg-sky-100 px-1.5 text-xs text-sky-800 dark:bg-sky-900 dark:text-sky-100">New</span>}
      {breakout && (
        <span title={MEASURES.breakout.text} className="ml-2 rounded bg-amber-100 px-1.5 text-xs text-amber-900 dark:bg-amber-900 dark:text-amber-100">
          Breakout
        </span>
      )}
    </>
  )
}
