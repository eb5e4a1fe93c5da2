import { queryOptions } from '@tanstack/react-query'
import { api, qs } from '../../../lib/api-client'
import type { TermRow } from '../../../lib/trends-types'

export type WatchKind = 'term' | 'asin' | 'brand'

// ProductNow is where a watched product or brand stands in the latest period.
export interface ProductNow { terms: number; bestTerm?: string; bestRank?: number; slot?: number; clickShare?: number | null; title?: string }

export interface WatchItem { id: string; kind: WatchKind; value: string; createdAt: string; latest?: TermRow; presence?: ProductNow }

// On the demo workspace the list is the caller's own (a personal watchlist over the demo data);
// ds picks the dataset whose numbers the items show.
const path = (ws: string) => `/api/workspaces/${encodeURIComponent(ws)}/watchlist`

export const watchlistQuery = (ws: string, ds?: number) =>
  queryOptions({ queryKey: ['watchlist', ws, ds], queryFn: () => api<{ items: WatchItem[]; limit: number }>(`${path(ws)}${qs({ ds })}`) })

export const addWatch = (ws: string, kind: WatchKind, value: string) =>
  api<WatchItem>(path(ws), { method: 'POST', body: JSON.stringify({ kind, value }) })

export const removeWatch = (ws: string, id: string) => api<void>(`${path(ws)}/${id}`, { method: 'DELETE' })
