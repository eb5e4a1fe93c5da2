import { describe, expect, it } from 'vitest'
import { nextSort, validateExploreSearch } from './explore'

describe('explore sorting', () => {
  it('toggles the direction when the sorted column is clicked again, for every column', () => {
    for (const key of ['term', 'rank', 'change1', 'change4', 'change13', 'change52', 'clickConcentration', 'seasonality']) {
      const first = nextSort({}, key)
      const second = nextSort(first, key)
      const third = nextSort(second, key)
      expect(second.order).not.toBe(first.order)
      expect(third.order).toBe(first.order)
    }
  })
  it('starts rank and term ascending, measures largest first', () => {
    expect(nextSort({ sort: 'change4' }, 'term')).toEqual({ sort: 'term', order: 'asc' })
    expect(nextSort({}, 'change4')).toEqual({ sort: 'change4', order: 'desc' })
    // The default sort is rank ascending: clicking Rank first turns it around.
    expect(nextSort({}, 'rank')).toEqual({ sort: 'rank', order: 'desc' })
  })
  it('keeps only valid filters from the URL', () => {
    const s = validateExploreSearch({ list: 'hot', window: '3', minRank: '0', brand: 'Juniper & Jade', order: 'up' })
    expect(s.list).toBeUndefined()
    expect(s.window).toBeUndefined()
    expect(s.minRank).toBeUndefined()
    expect(s.brand).toBe('Juniper & Jade')
    expect(s.order).toBeUndefined()
    expect(validateExploreSearch({ list: 'coming-up' }).list).toBe('coming-up')
  })
})
