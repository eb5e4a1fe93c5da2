import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useNavigate, useSearch } from '@tanstack/react-router'
import { toast } from 'sonner'
import { toastFailure } from '../../../lib/plan-limit'
import { removeWatch, watchlistQuery } from '../api/watchlist'
import { useSelection } from '../../../lib/selection'
import { can } from '../../../lib/workspaces'
import { useDocumentTitle } from '../../../lib/document-title'
import { Empty, ErrorState, Skeleton } from '../../../components/ui/states'
import { Button } from '../../../components/ui/button'
import { ItemLink, ItemNow } from './watch-item'
import { AlertSettingsCard } from './alert-settings'
import { AddToTeamList, ListPicker } from './list-picker'

const KIND = { term: 'Term', asin: 'Product', brand: 'Brand' } as const

export function WatchlistPage() {
  useDocumentTitle('Watchlist')
  const sel = useSelection()
  const ws = sel.ws
  const isOrg = sel.workspace?.kind === 'organization'
  // ?team=: a team's own list in an organization's workspace (its members, owners and admins).
  const search = useSearch({ strict: false }) as { team?: string }
  const team = isOrg ? search.team : undefined
  const navigate = useNavigate()
  const q = useQuery({ ...watchlistQuery(ws ?? '', sel.dataset?.id, team), enabled: !!ws })
  const qc = useQueryClient()
  const canWrite = !!team || can(sel.workspace, 'watchlist', 'write')
  const remove = useMutation({
    mutationFn: (id: string) => removeWatch(ws!, id, team),
    onSuccess: () => {
      toast.success('Removed from the watchlist')
      qc.invalidateQueries({ queryKey: ['watchlist'] })
    },
    onError: toastFailure,
  })
  return (
    <section aria-labelledby="watch-title" className="space-y-4">
      <h1 id="watch-title" className="text-2xl font-semibold">Watchlist</h1>
      {isOrg && ws && <ListPicker org={ws} team={team} onChange={(t) => navigate({ to: '/dashboard/watchlist', search: (prev: Record<string, unknown>) => ({ ...prev, team: t }) })} />}
      {team && <p className="text-sm text-zinc-500">This team’s own list: its alert digests go to the team’s members only.</p>}
      {team && ws && <AddToTeamList ws={ws} team={team} />}
      {sel.isDemo && <p className="text-sm text-zinc-500">Your watchlist is your own; on the demo it shows the demo’s numbers.</p>}
      {sel.error ? <ErrorState error={sel.error} retry={sel.retry} /> : !ws || q.isPending ? <Skeleton rows={4} /> : q.error ? <ErrorState error={q.error} retry={() => q.refetch()} /> : q.data.items.length === 0 ? (
        <Empty title="Nothing watched yet">Open a term, product or brand and press “Watch”: its latest rank and moves show here.</Empty>
      ) : (
        <>
          <p className="text-sm text-zinc-500">{itemsOnPlan(q.data.items.length, q.data.limit)}</p>
          <ul className="divide-y divide-zinc-100 rounded-lg border border-zinc-200 text-sm dark:divide-zinc-900 dark:border-zinc-800">
            {q.data.items.map((it) => (
              <li key={it.id} className="grid grid-cols-[1fr_auto] items-start gap-x-3 gap-y-1 p-3 sm:grid-cols-[minmax(0,2fr)_6rem_minmax(0,2fr)_auto]">
                <span className="min-w-0 break-words"><ItemLink it={it} /></span>
                <span className="text-xs text-zinc-500 sm:text-sm sm:text-inherit">{KIND[it.kind]}</span>
                <span className="col-span-2 sm:col-span-1"><ItemNow it={it} /></span>
                <span className="col-span-2 text-right sm:col-span-1">
                  {canWrite && <Button variant="ghost" aria-label={`Remove ${it.value}`} onClick={() => confirm(`Remove “${it.value}” from the watchlist?`) && remove.mutate(it.id)}>Remove</Button>}
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
      <AlertSettingsCard />
    </section>
  )
}

// itemsOnPlan says how full the list is; a limit below 0 is the plan's "unlimited".
export function itemsOnPlan(count: number, limit: number): string {
  const items = `${count.toLocaleString('en-US')} ${count === 1 ? 'item' : 'items'}`
  return limit < 0 ? `${items}: no limit on your plan.` : `${items} of ${limit.toLocaleString('en-US')} on your plan.`
}
