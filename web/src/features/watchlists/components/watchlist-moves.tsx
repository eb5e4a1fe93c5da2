import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { watchlistQuery } from '../api/watchlist'
import { Empty, ErrorState, Skeleton } from '../../../components/ui/states'
import { Change } from '../../trends/components/change'
import { fmtInt } from '../../../lib/format'

export function WatchlistMoves({ ws, readOnly }: { ws: string; readOnly: boolean }) {
  const q = useQuery({ ...watchlistQuery(ws), enabled: !readOnly })
  if (readOnly) return <Empty title="The demo is read-only">Your own workspace keeps a watchlist.</Empty>
  if (q.isPending) return <Skeleton rows={3} />
  if (q.error) return <ErrorState error={q.error} retry={() => q.refetch()} />
  if (q.data.items.length === 0) return <Empty title="Nothing watched yet">Use “Watch” on any term, product or brand.</Empty>
  return (
    <ul className="divide-y divide-zinc-100 text-sm dark:divide-zinc-800">
      {q.data.items.map((it) => (
        <li key={it.id} className="flex justify-between py-1.5">
          <Link to="/dashboard/watchlist" className="hover:underline">
            {it.value} <span className="text-xs text-zinc-500">{it.kind}</span>
          </Link>
          {it.latest && (
            <span className="flex gap-3 tabular-nums">
              #{fmtInt(it.latest.rank)} <Change value={it.latest.changes[0]} />
            </span>
          )}
        </li>
      ))}
    </ul>
  )
}
