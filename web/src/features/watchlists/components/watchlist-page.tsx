import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { toast } from 'sonner'
import { removeWatch, watchlistQuery } from '../api/watchlist'
import { useSelection } from '../../trends/use-selection'
import { Empty, ErrorState, Skeleton } from '../../../components/ui/states'
import { Change } from '../../trends/components/change'
import { fmtInt } from '../../../lib/format'
import { Button } from '../../../components/ui/button'
import { AlertSettingsCard } from './alert-settings'

export function WatchlistPage() {
  const sel = useSelection()
  const ws = sel.isDemo ? sel.own?.id : sel.ws
  const q = useQuery({ ...watchlistQuery(ws ?? ''), enabled: !!ws })
  const qc = useQueryClient()
  const remove = useMutation({
    mutationFn: (id: string) => removeWatch(ws!, id),
    onSuccess: () => {
      toast.success('Removed from the watchlist')
      qc.invalidateQueries({ queryKey: ['watchlist', ws] })
    },
    onError: (e) => toast.error(e.message),
  })
  return (
    <section aria-labelledby="watch-title" className="space-y-4">
      <h1 id="watch-title" className="text-2xl font-semibold">Watchlist</h1>
      {!ws || q.isPending ? <Skeleton rows={4} /> : q.error ? <ErrorState error={q.error} retry={() => q.refetch()} /> : q.data.items.length === 0 ? (
        <Empty title="Nothing watched yet">Open a term, product or brand and choose “Watch”.</Empty>
      ) : (
        <>
          <p className="text-sm text-zinc-500">{q.data.items.length} of {q.data.limit} items on your plan.</p>
          <table className="w-full text-sm">
            <thead><tr className="text-left"><th scope="col">Item</th><th scope="col">Kind</th><th scope="col">Rank now</th><th scope="col">Since last period</th><th scope="col"><span className="sr-only">Actions</span></th></tr></thead>
            <tbody>
              {q.data.items.map((it) => (
                <tr key={it.id} className="border-t border-zinc-100 dark:border-zinc-900">
                  <td className="py-1">
                    {it.kind === 'term' ? <Link to="/dashboard/term" search={{ t: [it.value] }} className="hover:underline">{it.value}</Link>
                      : it.kind === 'asin' ? <Link to="/dashboard/product" search={{ asin: it.value }} className="font-mono hover:underline">{it.value}</Link>
                      : <Link to="/dashboard/brand" search={{ b: it.value }} className="hover:underline">{it.value}</Link>}
                  </td>
                  <td>{it.kind}</td>
                  <td className="tabular-nums">{it.latest ? `#${fmtInt(it.latest.rank)}` : '–'}</td>
                  <td><Change value={it.latest?.changes[0]} /></td>
                  <td className="text-right">
                    <Button variant="ghost" aria-label={`Remove ${it.value}`} onClick={() => confirm(`Remove “${it.value}” from the watchlist?`) && remove.mutate(it.id)}>Remove</Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      <AlertSettingsCard />
    </section>
  )
}
