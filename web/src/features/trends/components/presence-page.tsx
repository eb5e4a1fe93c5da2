import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useMutation } from '@tanstack/react-query'
import { toast } from 'sonner'
import { brandQuery, productQuery } from '../api/queries'
import { useSelection } from '../use-selection'
import { Empty, ErrorState, Skeleton } from '../../../components/ui/states'
import { fmtDate, fmtInt, fmtPct, fmtRatio } from '../../../lib/format'
import { addWatch } from '../../watchlists/api/watchlist'
import { Button } from '../../../components/ui/button'

// PresencePage is the product (ASIN) and brand view: every term where it is in the top 3.
export function PresencePage({ kind, value }: { kind: 'asin' | 'brand'; value: string }) {
  const sel = useSelection()
  const opts = kind === 'asin' ? productQuery(sel.ws ?? '', sel.dataset?.id ?? 0, value) : brandQuery(sel.ws ?? '', sel.dataset?.id ?? 0, value)
  const q = useQuery({ ...opts, enabled: !!sel.dataset && !!value })
  const watch = useMutation({ mutationFn: () => addWatch(sel.ws!, kind, value), onSuccess: () => toast.success(`Watching ${value}`), onError: (e) => toast.error(e.message) })
  return (
    <section aria-labelledby="presence-title" className="space-y-4">
      <div className="flex items-center gap-3">
        <h1 id="presence-title" className="text-2xl font-semibold">{kind === 'asin' ? `Product ${value}` : `Brand ${value}`}</h1>
        {!sel.isDemo && <Button variant="secondary" onClick={() => watch.mutate()}>Watch</Button>}
      </div>
      {q.isPending ? <Skeleton rows={6} /> : q.error ? <ErrorState error={q.error} retry={() => q.refetch()} /> : q.data.terms.length === 0 ? <Empty title="Not in any term's top 3" /> : (
        <>
          {q.data.title && <p className="text-sm text-zinc-600 dark:text-zinc-400">{q.data.title}</p>}
          <table className="w-full text-sm">
            <thead><tr className="text-left"><th scope="col">Term</th><th scope="col">Latest rank</th><th scope="col">Periods in top 3</th><th scope="col">Latest slot</th><th scope="col">Click share</th><th scope="col">Conversion share</th><th scope="col">Closer ratio</th><th scope="col">Since</th></tr></thead>
            <tbody>
              {q.data.terms.map((t) => {
                const last = t.points[t.points.length - 1]
                return (
                  <tr key={t.term} className="border-t border-zinc-100 dark:border-zinc-900">
                    <td className="py-1"><Link to="/dashboard/term" search={{ ws: sel.ws, ds: sel.dataset?.id, t: [t.term] }} className="hover:underline">{t.term}</Link></td>
                    <td className="tabular-nums">#{fmtInt(t.latestRank)}</td>
                    <td className="tabular-nums">{t.points.length}</td>
                    <td>#{last.slot}</td>
                    <td className="tabular-nums">{fmtPct(last.clickShare)}</td>
                    <td className="tabular-nums">{fmtPct(last.conversionShare)}</td>
                    <td className="tabular-nums">{fmtRatio(last.closerRatio)}</td>
                    <td>{fmtDate(t.points[0].start)}</td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        </>
      )}
    </section>
  )
}
