// What each measure means and how it is computed, in a seller's words (trends.md "Measures";
// internal/trends/warehouse/stats.go computes them). The (i) controls show these texts.
export const MEASURES = {
  change: {
    name: 'Change',
    text: 'How the search frequency rank moved over the window, shown as “rank then → now” (rank 1 is the most searched). The percent is the change in estimated searches: searches ≈ 4,000,000 × rank^-0.85, so rank 1,210 → 300 is about +227%. An estimate: Amazon publishes ranks, not search volumes.',
  },
  estimate: {
    name: 'Estimated searches',
    text: 'Weekly searches ≈ 4,000,000 × rank^-0.85, a generic rank-volume curve. Amazon publishes ranks, not volumes, so this is an estimate, not yet calibrated on your Search Query Performance data.',
  },
  new: {
    name: 'New',
    text: 'In the latest period and absent from every earlier period compared (the last 4, or as many as are loaded), and ranked above the deepest rank those periods covered, so a term is not “new” just because an older file held fewer terms.',
  },
  breakout: {
    name: 'Breakout',
    text: 'New this period, or its rank at least doubled over 4 periods (about 1.8× the estimated searches) and got better in each of the last 3 periods.',
  },
  comingUp: {
    name: 'Coming up',
    text: 'How much the term rose in the coming 4 to 8 weeks last year: its rank a year ago compared with its best rank 4–8 weeks after that. Terms that rose then are likely to rise again soon: prepare stock and ads now.',
  },
  seasonality: {
    name: 'Seasonality',
    text: 'How closely the term repeats last year’s pattern: the correlation of its (log) rank with the same period a year earlier, over the last year. Near 1 = strongly seasonal; near 0 = no yearly pattern. Needs 8 periods a year apart.',
  },
  clickConcentration: {
    name: 'Click concentration',
    text: 'The sum of the click shares of the top 3 clicked products. High (say above 60%) = a few products take most clicks; low = clicks are spread out, a door open for a new listing. Blank when the report gives no click shares.',
  },
  conversionConcentration: {
    name: 'Conversion concentration',
    text: 'The sum of the conversion shares of the top 3 clicked products: how much of the term’s purchases they win. Blank when the report gives no conversion shares.',
  },
  closerRatio: {
    name: 'Closer ratio',
    text: 'Conversion share ÷ click share of a product for a term. Above 1 = it converts better than its clicks suggest (a strong listing); below 1 = it gets clicks but loses the sale. Blank when either share is blank or the click share is 0.',
  },
} as const

export type Measure = keyof typeof MEASURES

// closerRatio is conversion share ÷ click share: null when either is blank or the click share is
// 0; 0 when nothing converted. Servers that send closerRatio are read first; this fills it for
// answers that lack it.
export function closerRatio(click: number | null | undefined, conversion: number | null | undefined): number | null {
  if (click == null || conversion == null || click === 0) return null
  return conversion / click
}

// concentration sums the top-3 shares; blank (null) when none of them has a share.
export function concentration(shares: (number | null | undefined)[]): number | null {
  const known = shares.filter((s): s is number => s != null)
  return known.length === 0 ? null : known.reduce((a, b) => a + b, 0)
}
