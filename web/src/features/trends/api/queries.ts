import { queryOptions } from '@tanstack/react-query'
import { api, qs } from '../../../lib/api-client'
import type { Dataset, Overview, Page, Presence, Summary, TermHistory, Estimate, Workspace } from './types'

// One place for the trends query keys, so loaders, screens and invalidations agree.
const base = (ws: string, ds: number) => `/api/trends/${encodeURIComponent(ws)}/datasets/${ds}`

export const workspacesQuery = () =>
  queryOptions({ queryKey: ['workspaces'], queryFn: () => api<Workspace[]>('/api/workspaces'), staleTime: 60_000 })

export const datasetsQuery = (ws: string) =>
  queryOptions({
    queryKey: ['datasets', ws],
    queryFn: () => api<{ datasets: Dataset[]; demo: boolean }>(`/api/trends/${encodeURIComponent(ws)}/datasets`),
    staleTime: 30_000,
  })

export const overviewQuery = (ws: string, ds: number) =>
  queryOptions({ queryKey: ['overview', ws, ds], queryFn: () => api<Overview>(`${base(ws, ds)}/overview`), staleTime: 60_000 })

export const summaryQuery = (ws: string, ds: number) =>
  queryOptions({ queryKey: ['summary', ws, ds], queryFn: () => api<Summary>(`${base(ws, ds)}/summary`) })

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

export const deletePeriod = (ws: string, ds: number, start: string) => api<void>(`${base(ws, ds)}/periods/${start.slice(0, 10)}`, { method: 'DELETE' })
