import { queryOptions } from '@tanstack/react-query'
import { api, qs } from '../../../lib/api-client'
import { datasetBase as base } from '../../../lib/datasets'
import type { Overview, Page, Presence, TermHistory, Estimate } from '../../../lib/trends-types'

// One place for the trends query keys, so loaders, screens and invalidations agree.
export const overviewQuery = (ws: string, ds: number) =>
  queryOptions({ queryKey: ['overview', ws, ds], queryFn: () => api<Overview>(`${base(ws, ds)}/overview`), staleTime: 60_000 })

export interface ExploreParams {
  q?: string; match?: 'substring' | 'prefix'; list?: string; window?: number; minRank?: number; maxRank?: number
  brand?: string; category?: string; minPeriods?: number; sort?: string; order?: 'asc' | 'desc'; limit?: number; offset?: number
}

export const exploreUrl = (ws: string, ds: number, p: ExploreParams, csv = false) =>
  `${base(ws, ds)}/terms${csv ? '.csv' : ''}${qs({ ...p } as Record<string, string | number | undefined>)}`

export const exploreQuery = (ws: string, ds: number, p: ExploreParams) =>
  queryOptions({ queryKey: ['explore', ws, ds, p], queryFn: () => api<Page>(exploreUrl(ws, ds, p)), staleTime: 60_000, placeholderData: (prev) => prev })

export const historyQuery = (ws: string, ds: number, terms: string[]) =>
  queryOptions({
    queryKey: ['history', ws, ds, terms],
    queryFn: () => api<{ terms: TermHistory[]; estimate: Estimate }>(`${base(ws, ds)}/history${qs({ term: terms })}`),
    staleTime: 5 * 60_000,
  })

export const productQuery = (ws: string, ds: number, asin: string) =>
  queryOptions({ queryKey: ['product', ws, ds, asin], queryFn: () => api<Presence>(`${base(ws, ds)}/products/${encodeURIComponent(asin)}`) })

export const brandQuery = (ws: string, ds: number, brand: string) =>
  queryOptions({ queryKey: ['brand', ws, ds, brand], queryFn: () => api<Presence>(`${base(ws, ds)}/brands/${encodeURIComponent(brand)}`) })

// namesQuery suggests brand or category names of the dataset's latest period as the user types.
export const namesQuery = (ws: string, ds: number, kind: 'brand' | 'category', prefix: string) =>
  queryOptions({
    queryKey: ['names', ws, ds, kind, prefix],
    queryFn: () => api<{ names: string[] }>(`${base(ws, ds)}/names${qs({ kind, q: prefix })}`),
    staleTime: 5 * 60_000,
    placeholderData: (prev) => prev,
  })

// termExists asks whether a term is in the dataset, so a comparison refuses one that is not.
export async function termExists(ws: string, ds: number, term: string): Promise<boolean> {
  const h = await api<{ terms: TermHistory[] }>(`${base(ws, ds)}/history${qs({ term: [term] })}`)
  return h.terms[0]?.found ?? false
}
