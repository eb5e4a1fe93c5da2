import { useMemo, useState } from 'react'
import { useMutation, useQuery } from '@tanstack/react-query'
import { Link, useNavigate, useSearch } from '@tanstack/react-router'
import { toast } from 'sonner'
import { exploreQuery, historyQuery } from '../api/queries'
import { useSelection } from '../use-selection'
import { Card, Empty, ErrorState, Skeleton } from '../../../components/ui/states'
import { RankChart, type Series } from './rank-chart'
import { ShareChart } from './share-chart'
import { fmtDate, fmtInt, fmtPct, fmtRatio } from '../../../lib/format'
import { addWatch } from '../../watchlists/api/watchlist'
import { Button } from '../../../components/ui/button'
import type { TermHistory } from '../api/types'

// Estimated searches use the same curve as the API's root-word estimate (and say so).
const estimate = (rank: number) => Math.round(4_000_000 * rank ** -0.85)

export function TermPage() {
  const search = useSearch({ from: '/_app/dashboard/term' })
  const navigate = useNavigate({ from: '/dashboard/term' })
  const sel = useSelection()
  const terms = search.t
  const q = useQuery({ ...historyQuery(sel.ws ?? '', sel.dataset?.id ?? 0, terms), enabled: !!sel.dataset && terms.length > 0 })
  const [compare, setCompare] = useState('')
  const watch = useMutation({
    mutationFn: (term: string) => addWatch(sel.ws!, 'term', term),
    onSuccess: (_d, term) => toast.success(`Watching “${term}”`),
    onError: (e) => toast.error(e.message),
  })
  const main = terms[0]
  const related = useQuery({
    ...exploreQuery(sel.ws ?? '', sel.dataset?.id ?? 0, { q: main?.split(' ').sort((a, b) => b.length - a.length)[0], limit: 8, sort: 'rank' }),
    enabled: !!sel.dataset && !!main,
  })
  const chart = useMemo(() => (q.data ? toSeries(q.data.terms) : null), [q.data])
  const seasons = useMemo(() => (q.data?.terms[0] ? bySeason(q.data.terms[0]) : null), [q.data])
  if (terms.length === 0) return <Empty title="No term chosen"><Link to="/dashboard/explore" className="underline">Find a term in Explore</Link></Empty>
  const latest = q.data?.terms[0]?.points.findLast((p) => p.rank != null)
  return (
    <section aria-labelledby="term-title" className="space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        <h1 id="term-title" className="text-2xl font-semibold">{terms.join(' vs ')}</h1>
        {!sel.isDemo && <Button variant="secondary" onClick={() => watch.mutate(main)} disabled={watch.isPending}>Watch “{main}”</Button>}
      </div>
      <form
        className="flex items-end gap-2 text-sm"
        onSubmit={(e) => {
          e.preventDefault()
          const t = compare.trim()
          if (!t || terms.includes(t)) return
          if (terms.length >= 10) return toast.error('Compare at most 10 terms')
          navigate({ search: (p) => ({ ...p, t: [...terms, t] }) })
          setCompare('')
        }}
      >
        <label className="flex flex-col">
          <span>Compare with</span>
          <input value={compare} onChange={(e) => setCompare(e.target.value)} placeholder="another term" className="w-64 rounded border border-zinc-300 bg-transparent px-2 py-1 dark:border-zinc-700" />
        </label>
        <Button type="submit" variant="secondary">Add to chart</Button>
        {terms.length > 1 && <Button type="button" variant="ghost" onClick={() => navigate({ search: (p) => ({ ...p, t: [main] }) })}>Clear comparison</Button>}
      </form>
      {q.isPending ? (
        <Skeleton rows={8} label="Loading the history" />
      ) : q.error ? (
        <ErrorState error={q.error} retry={() => q.refetch()} />
      ) : (
        <>
          {q.data.terms.filter((t) => !t.found).map((t) => <p key={t.term} role="status" className="text-sm text-amber-700">“{t.term}” is not in this dataset.</p>)}
          {chart && <RankChart xs={chart.xs} series={chart.series} title="Rank history" />}
          {chart && chart.gaps > 0 && <p className="text-xs text-zinc-500">{chart.gaps} missing period(s) are drawn as gaps, not as drops.</p>}
          <div className="grid gap-4 lg:grid-cols-2">
            <Card title="Now">
              {latest ? (
                <dl className="grid grid-cols-2 gap-2 text-sm">
                  <dt>Rank</dt><dd className="tabular-nums">#{fmtInt(latest.rank)}</dd>
                  <dt>
                    <details>
                      <summary className="cursor-pointer">Estimated searches / week</summary>
                      <p className="mt-1 text-xs text-zinc-500">{q.data.estimate.assumptions}</p>
                    </details>
                  </dt>
                  <dd className="tabular-nums">≈ {fmtInt(estimate(latest.rank!))} <span className="text-xs text-zinc-500">(estimate)</span></dd>
                </dl>
              ) : <Empty title="Absent from the latest period" />}
            </Card>
            <Card title="Related terms">
              {related.data?.rows.length ? (
                <ul className="text-sm">{related.data.rows.filter((r) => r.term !== main).map((r) => <li key={r.term}><Link to="/dashboard/term" search={(p: object) => ({ ...p, t: [r.term] })} className="hover:underline">{r.term}</Link> <span className="text-zinc-500">#{fmtInt(r.rank)}</span></li>)}</ul>
              ) : <Empty title="No related terms" />}
            </Card>
          </div>
          {q.data.terms[0]?.found && <ShareChart history={q.data.terms[0]} />}
          <ProductsTable history={q.data.terms[0]} ws={sel.ws} ds={sel.dataset?.id} />
          {seasons && seasons.series.length > 1 && <RankChart xs={seasons.xs} series={seasons.series} title="Seasonality: one line per year" xIsDate={false} />}
        </>
      )}
    </section>
  )
}

function toSeries(terms: TermHistory[]): { xs: number[]; series: Series[]; gaps: number } {
  const pts = terms[0]?.points ?? []
  return {
    xs: pts.map((p) => Date.parse(p.start) / 1000),
    series: terms.map((t) => ({ label: t.term, values: t.points.map((p) => p.rank) })),
    gaps: pts.filter((p) => !p.loaded).length,
  }
}

// bySeason lays each year's weekly ranks over week-of-year 1..53.
function bySeason(t: TermHistory): { xs: number[]; series: Series[] } {
  const years = new Map<number, (number | null)[]>()
  for (const p of t.points) {
    const d = new Date(p.start)
    const y = d.getUTCFullYear()
    const week = Math.floor((d.getTime() - Date.UTC(y, 0, 1)) / (7 * 864e5))
    if (!years.has(y)) years.set(y, Array(53).fill(null))
    years.get(y)![week] = p.rank
  }
  return { xs: Array.from({ length: 53 }, (_, i) => i + 1), series: [...years].map(([y, v]) => ({ label: String(y), values: v })) }
}

function ProductsTable({ history, ws, ds }: { history?: TermHistory; ws?: string; ds?: number }) {
  const recent = (history?.points ?? []).filter((p) => p.products?.length).slice(-8).reverse()
  if (recent.length === 0) return null
  return (
    <Card title="Top clicked products and brands (latest periods)">
      <div className="overflow-x-auto">
        <table className="w-full text-sm">
          <thead><tr className="text-left"><th scope="col">Period</th><th scope="col">#1</th><th scope="col">#2</th><th scope="col">#3</th><th scope="col">Brands</th></tr></thead>
          <tbody>
            {recent.map((p) => (
              <tr key={p.start} className="border-t border-zinc-100 align-top dark:border-zinc-900">
                <td className="py-1 pr-2 whitespace-nowrap">{fmtDate(p.start)}</td>
                {[0, 1, 2].map((i) => {
                  const pr = p.products?.[i]
                  return (
                    <td key={i} className="py-1 pr-2">
                      {pr ? (
                        <>
                          <Link to="/dashboard/product" search={{ ws, ds, asin: pr.asin }} className="font-mono hover:underline">{pr.asin}</Link>
                          <div className="text-xs text-zinc-500">clicks {fmtPct(pr.clickShare)} · conversions {fmtPct(pr.conversionShare)} · closer ratio {fmtRatio(pr.closerRatio)}</div>
                        </>
                      ) : '–'}
                    </td>
                  )
                })}
                <td className="py-1">{p.brands?.map((b) => <Link key={b} to="/dashboard/brand" search={{ ws, ds, b }} className="mr-2 hover:underline">{b}</Link>) ?? '–'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  )
}
