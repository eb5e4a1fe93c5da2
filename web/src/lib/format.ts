// Numbers and periods formatted for the reader's locale and in a seller's words.
const int = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 })
const pct = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 })
const signedPct = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 0, signDisplay: 'exceptZero' })
const date = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' })
const dayMonth = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' })
const monthYear = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' })

export const fmtInt = (n: number | null | undefined) => (n == null ? '–' : int.format(n))
export const fmtPct = (n: number | null | undefined) => (n == null ? '–' : pct.format(n))
export const fmtDate = (iso: string) => date.format(new Date(iso))

// plural picks the word for a count: plural(1, 'term') → "1 term", plural(3, 'period') → "3 periods".
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${fmtInt(n)} ${n === 1 ? one : many}`
}

// The generic rank-volume curve the API states with every estimate (internal/trends: estimateNote).
export const estimateSearches = (rank: number) => Math.round(4_000_000 * rank ** -0.85)

// searchesChange is the relative change in estimated searches when a rank moves from then to now:
// (then / now)^0.85 − 1, so rank 1,210 → 300 is about +227%.
export function searchesChange(then: number, now: number): number {
  return (then / now) ** 0.85 - 1
}

// fmtSearchesChange writes a relative change as "+227%", "−45%", or "no change" when it rounds to 0.
export function fmtSearchesChange(change: number): string {
  if (Math.round(change * 100) === 0) return 'no change'
  return signedPct.format(change).replace('-', '−')
}

// fmtRankMove is "rank 1,210 → 300"; a term absent then has no rank to move from.
export function fmtRankMove(then: number | null | undefined, now: number): string {
  return then == null ? `rank ${fmtInt(now)}` : `rank ${fmtInt(then)} → ${fmtInt(now)}`
}

// periodUnit names a span of periods of a dataset's kind: ("week", 4) → "4 weeks".
export function periodUnit(kind: string | undefined, n: number): string {
  const unit = kind === 'month' || kind === 'quarter' ? kind : 'week'
  return plural(n, unit)
}

// fmtPeriod names one period in the dataset's unit: a week as "Nov 30 – Dec 6, 2025", a month as
// "December 2025", a quarter as "Q4 2025".
export function fmtPeriod(kind: string | undefined, start: string | number): string {
  const s = typeof start === 'number' ? new Date(start * 1000) : new Date(start)
  if (Number.isNaN(s.getTime())) return '–'
  if (kind === 'month') return monthYear.format(s)
  if (kind === 'quarter') return `Q${Math.floor(s.getUTCMonth() / 3) + 1} ${s.getUTCFullYear()}`
  const e = new Date(s.getTime() + 6 * 864e5)
  const y1 = s.getUTCFullYear(), y2 = e.getUTCFullYear()
  return y1 === y2 ? `${dayMonth.format(s)} – ${dayMonth.format(e)}, ${y2}` : `${dayMonth.format(s)}, ${y1} – ${dayMonth.format(e)}, ${y2}`
}

// searchesChangeFromLog2 turns a log2 rank ratio (the API's change) into the change in estimated
// searches: 2^(0.85 × log2) − 1.
export const searchesChangeFromLog2 = (log2: number) => 2 ** (0.85 * log2) - 1
