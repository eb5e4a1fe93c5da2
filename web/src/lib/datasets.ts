import { queryOptions } from '@tanstack/react-query'
import { api } from './api-client'
import type { Dataset, Summary, Workspace } from './trends-types'

// The workspace and dataset queries every feature shares (the selection, imports, watchlists).
export const workspacesQuery = () =>
  queryOptions({ queryKey: ['workspaces'], queryFn: () => api<Workspace[]>('/api/workspaces'), staleTime: 60_000 })

export interface DatasetList {
  datasets: Dataset[]
  demo: boolean
  // building is present while the demo workspace is being generated (first start).
  building?: { week: number; weeks: number }
}

export const datasetsQuery = (ws: string) =>
  queryOptions({
    queryKey: ['datasets', ws],
    queryFn: () => api<DatasetList>(`/api/trends/${encodeURIComponent(ws)}/datasets`),
    staleTime: 30_000,
    // While the demo is being generated, ask again every 3 s so the screen moves on when it is ready.
    refetchInterval: (q) => (q.state.data?.building ? 3000 : false),
  })

export const datasetBase = (ws: string, ds: number) => `/api/trends/${encodeURIComponent(ws)}/datasets/${ds}`

export const summaryQuery = (ws: string, ds: number) =>
  queryOptions({ queryKey: ['summary', ws, ds], queryFn: () => api<Summary>(`${datasetBase(ws, ds)}/summary`) })
