import { queryOptions } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import type { TermRow } from '../../trends/api/types'

export interface WatchItem { id: string; kind: 'term' | 'asin' | 'brand'; value: string; createdAt: string; latest?: TermRow }

const path = (ws: string) => `/api/workspaces/${encodeURIComponent(ws)}/watchlist`

export const watchlistQuery = (ws: string) =>
  queryOptions({ queryKey: ['watchlist', ws], queryFn: () => api<{ items: WatchItem[]; limit: number }>(path(ws)) })

export const addWatch = (ws: string, kind: WatchItem['kind'], value: string) =>
  api<WatchItem>(path(ws), { method: 'POST', body: JSON.stringify({ kind, value }) })

export const removeWatch = (ws: string, id: string) => api<void>(`${path(ws)}/${id}`, { method: 'DELETE' })
