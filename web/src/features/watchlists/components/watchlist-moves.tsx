import { useQuery } from '@tanstack/react-query'
import { watchlistQuery } from '../api/watchlist'
import { useSelection } from '../../../lib/selection'
import { Empty, ErrorState, Skeleton } from '../../../components/ui/states'
import { ItemLink, ItemNow } from './watch-item'

const KIND = { term: 'term', asin: 'product', brand: 'brand' } as const

// WatchlistMoves is the overview's card: each watched item with its latest numbers.
export function WatchlistMoves() {
  const sel = useSelection()
  const q = useQuery({ ...watchlistQuery(sel.ws ?? '', sel.dataset?.id), enabled: !!sel.ws })
  if (q.isPending) return <Skeleton rows={3} />
  if (q.error) return <ErrorState error={q.error} retry={() => q.refetch()} />
  if (q.data.items.length === 0) return <Empty title="Nothing watched yet">Open a term, product or brand and press “Watch”; its moves show here.</Empty>
  return (
    <ul className="divide-y divide-zinc-100 text-sm dark:divide-zinc-800">
      {q.data.items.map((it) => (
        <li key={it.id} className="flex flex-wrap justify-between gap-2 py-1.5">
          <span className="min-w-0 break-words">
            <ItemLink it={it} /> <span className="text-xs text-zinc-500">{KIND[it.kind]}</span>
          </span>
          <ItemNow it={it} />
        </li>
      ))}
    </ul>
  )
}
