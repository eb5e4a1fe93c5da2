// Numbers formatted for the reader's locale.
const int = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 })
const pct = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 })
const dec = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2, signDisplay: 'exceptZero' })
const date = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' })

export const fmtInt = (n: number | null | undefined) => (n == null ? '–' : int.format(n))
export const fmtPct = (n: number | null | undefined) => (n == null ? '–' : pct.format(n))
// A closer ratio (conversion share / click share): "1.25×"; '–' when unknown.
export const fmtRatio = (n: number | null | undefined) => (n == null ? '–' : `${n.toFixed(2)}×`)
export const fmtDate = (iso: string) => date.format(new Date(iso))
// A log2 change as "×2.0 ↑" style growth: positive = rising.
export const fmtChange = (log2: number | null | undefined) => (log2 == null ? '–' : `${dec.format(log2)}`)
export const changeFactor = (log2: number) => 2 ** Math.abs(log2)
