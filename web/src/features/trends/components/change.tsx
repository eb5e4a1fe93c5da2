import { fmtChange } from '../../../lib/format'

// A rank change (log2): green up for rising, red down for falling; blue/orange would also work
// for colour-blind readers, so the arrow and sign carry the meaning too.
export function Change({ value }: { value: number | null | undefined }) {
  if (value == null) return <span className="text-zinc-400" title="Needs more periods or the term was absent">–</span>
  const up = value > 0
  return (
    <span className={up ? 'text-emerald-700 dark:text-emerald-400' : value < 0 ? 'text-rose-700 dark:text-rose-400' : ''}>
      {up ? '▲' : value < 0 ? '▼' : ''} {fmtChange(value)}
    </span>
  )
}

export const BREAKOUT_RULE = 'Breakout: new this period (absent from the previous 4, ranked above what they covered), or rank at least doubled over 4 periods and better in each of the last 3.'

export function Badges({ isNew, breakout }: { isNew: boolean; breakout: boolean }) {
  return (
    <>
      {isNew && <span className="ml-2 rounded bg-sky-100 px-1.5 text-xs text-sky-800 dark:bg-sky-900 dark:text-sky-100">New</span>}
      {breakout && (
        <span title={BREAKOUT_RULE} className="ml-2 rounded bg-amber-100 px-1.5 text-xs text-amber-900 dark:bg-amber-900 dark:text-amber-100">
          Breakout
        </span>
      )}
    </>
  )
}
