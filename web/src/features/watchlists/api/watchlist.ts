import { queryOptions } from '@tanstack/react-query'
import { api, qs } from '../../../lib/api-client'
import { authClient } from '../../../lib/auth-client'
import type { TermRow } from '../../../lib/trends-types'

export type WatchKind = 'term' | 'asin' | 'brand'

// ProductNow is where a watched product or brand stands in the latest period.
export interface ProductNow { terms: number; bestTerm?: string; bestRank?: number; slot?: number; clickShare?: number | null; title?: string }

export interface WatchItem { id: string; kind: WatchKind; value: string; createdAt: string; latest?: TermRow; presence?: ProductNow }

// On the demo workspace the list is the caller's own (a personal watchlist over the demo data);
// ds picks the dataset whose numbers the items show. team picks a team's own list inside an
// organization's workspace (its members, owners and admins only; its digests go to the team).
const path = (ws: string) => `/api/workspaces/${encodeURIComponent(ws)}/watchlist`

export const watchlistQuery = (ws: string, ds?: number, team?: string) =>
  queryOptions({ queryKey: ['watchlist', ws, ds, team], queryFn: () => api<{ items: WatchItem[]; limit: number }>(`${path(ws)}${qs({ ds, team })}`) })

export const addWatch = (ws: string, kind: WatchKind, value: string, team?: string) =>
  api<WatchItem>(`${path(ws)}${qs({ team })}`, { method: 'POST', body: JSON.stringify({ kind, value }) })

export const removeWatch = (ws: string, id: string, team?: string) => api<void>(`${path(ws)}/${id}${qs({ team })}`, { method: 'DELETE' })

export interface WatchTeam { id: string; name: string }

// The organization's teams, to switch between its list and a team's.
export const watchTeamsQuery = (organizationId: string) =>
  queryOptions({
    queryKey: ['organization', organizationId, 'teams'],
    queryFn: async () => {
      const res = await authClient.organization.listTeams({ query: { organizationId } })
      if (res.error) throw new Error(res.error.message ?? 'Could not list the teams')
      return (res.data ?? []) as WatchTeam[]
    },
  })
