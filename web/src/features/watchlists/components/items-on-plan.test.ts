import { describe, expect, it } from 'vitest'
import { itemsOnPlan } from './watchlist-page'

describe('itemsOnPlan', () => {
  it('names the plan limit', () => {
    expect(itemsOnPlan(1, 50)).toBe('1 item of 50 on your plan.')
    expect(itemsOnPlan(1200, 5000)).toBe('1,200 items of 5,000 on your plan.')
  })
  it('says a plan without a limit has none, not "of -1"', () => {
    expect(itemsOnPlan(3, -1)).toBe('3 items: no limit on your plan.')
  })
})
