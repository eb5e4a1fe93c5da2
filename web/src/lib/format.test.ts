import { describe, expect, it } from 'vitest'
import { fmtPeriod, fmtRankMove, fmtSearchesChange, periodUnit, plural, searchesChange, searchesChangeFromLog2 } from './format'
import { closerRatio, concentration } from './measures'

describe('changes in a seller’s words', () => {
  it('shows a rank move as “rank then → now”', () => {
    expect(fmtRankMove(1210, 300)).toBe('rank 1,210 → 300')
    expect(fmtRankMove(null, 300)).toBe('rank 300')
  })
  it('turns a rank move into the change in estimated searches', () => {
    // (1210 / 300)^0.85 − 1 = 2.272…
    expect(searchesChange(1210, 300)).toBeCloseTo(2.272, 3)
    expect(fmtSearchesChange(searchesChange(1210, 300))).toBe('+227%')
    expect(fmtSearchesChange(searchesChange(300, 1210))).toBe('−69%')
    // log2(1210/300) is the API's change; both roads agree.
    expect(searchesChangeFromLog2(Math.log2(1210 / 300))).toBeCloseTo(searchesChange(1210, 300), 9)
  })
  it('says “no change” for zero, never “+0%”', () => {
    expect(fmtSearchesChange(0)).toBe('no change')
    expect(fmtSearchesChange(searchesChange(500, 500))).toBe('no change')
    expect(fmtSearchesChange(0.004)).toBe('no change')
  })
})

describe('plurals and periods', () => {
  it('gets plurals right', () => {
    expect(plural(1, 'term')).toBe('1 term')
    expect(plural(0, 'term')).toBe('0 terms')
    expect(plural(1234, 'row')).toBe('1,234 rows')
    expect(periodUnit('week', 1)).toBe('1 week')
    expect(periodUnit('week', 4)).toBe('4 weeks')
    expect(periodUnit('month', 13)).toBe('13 months')
    expect(periodUnit(undefined, 52)).toBe('52 weeks')
  })
  it('names a period in the dataset’s unit', () => {
    expect(fmtPeriod('week', '2025-11-30T00:00:00Z')).toBe('Nov 30 – Dec 6, 2025')
    expect(fmtPeriod('week', '2025-12-28')).toBe('Dec 28, 2025 – Jan 3, 2026')
    expect(fmtPeriod('week', Date.UTC(2025, 10, 30) / 1000)).toBe('Nov 30 – Dec 6, 2025')
    expect(fmtPeriod('month', '2025-12-01')).toBe('December 2025')
    expect(fmtPeriod('quarter', '2025-10-01')).toBe('Q4 2025')
    expect(fmtPeriod('week', 'not a date')).toBe('–')
  })
})

describe('measures', () => {
  it('computes the closer ratio, blank when a share is blank or the click share is 0', () => {
    expect(closerRatio(0.2, 0.3)).toBeCloseTo(1.5)
    expect(closerRatio(0.2, 0)).toBe(0)
    expect(closerRatio(0, 0.1)).toBeNull()
    expect(closerRatio(null, 0.1)).toBeNull()
    expect(closerRatio(0.2, null)).toBeNull()
  })
  it('keeps a concentration blank, not 0, when no share is known', () => {
    expect(concentration([null, null, undefined])).toBeNull()
    expect(concentration([0.25, null, 0.1])).toBeCloseTo(0.35)
  })
})
