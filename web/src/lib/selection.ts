import { useQuery } from '@tanstack/react-query'
import { useSearch } from '@tanstack/react-router'
import { datasetsQuery, workspacesQuery } from './datasets'

export interface DashboardSearch {
  ws?: string
  ds?: number
}

export function validateDashboardSearch(s: Record<string, unknown>): DashboardSearch {
  const ds = Number(s.ds)
  return {
    ws: typeof s.ws === 'string' && s.ws.length < 200 ? s.ws : undefined,
    ds: Number.isInteger(ds) && ds > 0 ? ds : undefined,
  }
}

// The dashboard's shared state: which workspace and dataset every screen shows. It lives in lib
// because every feature reads it and features do not import each other.

// useSelection resolves which workspace and dataset the dashboard shows: the URL's choice, else
// the caller's own workspace when it holds data, else the demo.
export function useSelection() {
  const search = useSearch({ strict: false }) as DashboardSearch
  const workspaces = useQuery(workspacesQuery())
  const own = workspaces.data?.find((w) => !w.demo)
  const ownDatasets = useQuery({ ...datasetsQuery(own?.id ?? ''), enabled: !!own && !search.ws })
  const ws = search.ws ?? (ownDatasets.data && ownDatasets.data.datasets.length > 0 ? own!.id : ownDatasets.isSuccess || !own ? 'demo' : undefined)
  const datasets = useQuery({ ...datasetsQuery(ws ?? ''), enabled: !!ws })
  const dataset = datasets.data?.datasets.find((d) => d.id === search.ds) ?? datasets.data?.datasets[0]
  const workspace = workspaces.data?.find((w) => w.id === ws)
  return {
    ws,
    workspace,
    workspaces: workspaces.data ?? [],
    own,
    datasets: datasets.data?.datasets ?? [],
    dataset,
    isDemo: ws === 'demo',
    // building is set while the demo is still being generated (first start of a server).
    building: datasets.data?.building,
    isLoading: workspaces.isPending || (!!ws && datasets.isPending) || (!ws && ownDatasets.isPending),
    error: workspaces.error ?? ownDatasets.error ?? datasets.error,
    retry: () => {
      workspaces.refetch()
      if (own && !search.ws) ownDatasets.refetch()
      if (ws) datasets.refetch()
    },
  }
}
