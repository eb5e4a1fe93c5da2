import { useMemo, useState, type ReactNode } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Link, useNavigate, useSearch } from '@tanstack/react-router'
import { toast } from 'sonner'
import { exploreQuery, historyQuery, termExists } from '../api/queries'
import { useSelection } from '../../../lib/selection'
import { useDocumentTitle } from '../../../lib/document-title'
import { Card, Empty, ErrorState, Skeleton } from '../../../components/ui/states'
import { Button } from '../../../components/ui/button'
import { Change, MeasureInfo } from '../../../components/trends/change'
import { RankChart, type Series } from './rank-chart'
import { ShareChart } from './share-chart'
import { ProductsTable } from './products-table'
import { DemoBuilding } from './demo-building'
import { WINDOWS } from './term-list'
import { estimateSearches, fmtInt, fmtPct, periodUnit, plural } from '../../../lib/format'
import { concentration } from '../../../lib/measures'
import type { HistoryPoint, TermHistory } from '../../../lib/trends-types'

// TermPage is one term's history, compared with others on one chart. actions is the watchlists
// feature's Watch button, composed in by the route.
export function TermPage({ actions }: { actions?: ReactNode }) {
  const search = useSearch({ from: '/_app/dashboard/term' })
  const navigate = useNavigate({ from: '/dashboard/term' })
  const sel = useSelection()
  const terms = search.t
  useDocumentTitle(terms.length ? terms.join(' vs ') : 'Term')
  const ds = sel.dataset?.id ?? 0
  const q = useQuery({ ...historyQuery(sel.ws ?? '', ds, terms), enabled: !!sel.dataset && terms.length > 0 })
  const [compare, setCompare] = useState('')
  const [checking, setChecking] = useState(false)
  const [refused, setRefused] = useState('')
  const main = terms[0]
  const related = useQuery({
    ...exploreQuery(sel.ws ?? '', ds, { q: main?.split(' ').sort((a, b) => b.length - a.length)[0], limit: 8, sort: 'rank' }),
    enabled: !!sel.dataset && !!main,
  })
  const found = useMemo(() => q.data?.terms.filter((t) => t.found) ?? [], [q.data])
  const chart = useMemo(() => (found.length ? toSeries(found) : null), [found])
  const seasons = useMemo(() => (q.data?.terms[0]?.found ? bySeason(q.data.terms[0]) : null), [q.data])
  const kind = sel.dataset?.kind

  // A compared term must be in the dataset: one that is not is refused, not charted as a flat gap.
  async function addCompare(e: React.FormEvent) {
    e.preventDefault()
    const t = compare.trim()
    setRefused('')
    if (!t || terms.includes(t) || !sel.dataset) return
    if (terms.length >= 10) return toast.error('Compare at most 10 terms')
    setChecking(true)
    try {
      if (!(await termExists(sel.ws!, sel.dataset.id, t))) {
        setRefused(`“${t}” is not in this dataset, so it cannot be compared. Check the spelling, or find it in Explore.`)
        return
      }
      navigate({ search: (p) => ({ ...p, t: [...terms, t] }) })
      setCompare('')
    } catch (err) {
      toast.error((err as Error).message)
    } finally {
      setChecking(false)
    }
  }

  if (terms.length === 0) return <Empty title="No term chosen"><Link to="/dashboard/explore" className="underline">Find a term in Explore</Link>, then open it.</Empty>
  if (sel.error) return <ErrorState error={sel.error} retry={sel.retry} />
  const main0 = q.data?.terms[0]
  return (
    <section aria-labelledby="term-title" className="space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        <h1 id="term-title" className="min-w-0 text-2xl font-semibold break-words">{terms.join(' vs ')}</h1>
        {actions}
      </div>
      <form className="flex flex-wrap items-end gap-2 text-sm" onSubmit={addCompare}>
        <label className="flex min-w-0 flex-col">
          <span>Compare with</span>
          <input value={compare} onChange={(e) => { setCompare(e.target.value); setRefused('') }} placeholder="another term" className="w-64 max-w-full rounded border border-zinc-300 bg-transparent px-2 py-1 dark:border-zinc-700" />
        </label>
        <Button type="submit" variant="secondary" disabled={checking}>{checking ? 'Checking…' : 'Add to chart'}</Button>
        {terms.length > 1 && <Button type="button" variant="ghost" onClick={() => navigate({ search: (p) => ({ ...p, t: [main] }) })}>Clear comparison</Button>}
      </form>
      {refused && <p role="alert" className="text-sm text-rose-700 dark:text-rose-400">{refused}</p>}
      {sel.building ? (
        <DemoBuilding week={sel.building.week} weeks={sel.building.weeks} />
      ) : !sel.dataset && !sel.isLoading ? (
        <Empty title="No reports in this workspace yet"><Link to="/dashboard/imports" className="underline">Import a report</Link> to see this term’s history.</Empty>
      ) : q.isPending ? (
        <Skeleton rows={8} label="Loading the history" />
      ) : q.error ? (
        <ErrorState error={q.error} retry={() => q.refetch()} />
      ) : (
        <>
          {q.data.terms.filter((t) => !t.found).map((t) => (
            <p key={t.term} role="status" className="text-sm text-amber-700 dark:text-amber-400">“{t.term}” is not in this dataset, so it is not charted.</p>
          ))}
          {chart && <RankChart xs={chart.xs} series={chart.series} title="Rank history" kind={kind} />}
          {chart && chart.gaps > 0 && <p className="text-xs text-zinc-500">{plural(chart.gaps, 'missing period')} {chart.gaps === 1 ? 'is' : 'are'} drawn as a gap, not as a drop.</p>}
          {main0?.found && (
            <div className="grid gap-4 lg:grid-cols-2">
              <NowCard history={main0} kind={kind} assumptions={q.data.estimate.assumptions} />
              <Card title="Related terms">
                {related.data?.rows.filter((r) => r.term !== main).length ? (
                  <ul className="text-sm">{related.data.rows.filter((r) => r.term !== main).map((r) => <li key={r.term} className="break-words"><Link to="/dashboard/term" search={(p: object) => ({ ...p, t: [r.term] })} className="hover:underline">{r.term}</Link> <span className="text-zinc-500">#{fmtInt(r.rank)}</span></li>)}</ul>
                ) : <Empty title="No related terms">Terms sharing this term’s longest word show here.</Empty>}
              </Card>
            </div>
          )}
          {main0?.found && <ShareChart history={main0} kind={kind} />}
          {main0?.found && <ProductsTable history={main0} kind={kind} />}
          {seasons && seasons.series.length > 1 && (
            <div>
              <h2 className="font-semibold">Seasonality: one line per year<MeasureInfo measure="seasonality" /></h2>
              <RankChart xs={seasons.xs} series={seasons.series} title="Rank by week of year" xIsDate={false} />
            </div>
          )}
        </>
      )}
    </section>
  )
}

// NowCard is the latest period at a glance: rank, estimated searches, moves and concentration.
function NowCard({ history, kind, assumptions }: { history: TermHistory; kind?: string; assumptions: string }) {
  const pts = history.points
  const L = pts.findLastIndex((p) => p.rank != null)
  const latest: HistoryPoint | undefined = pts[L]
  if (!latest || L !== pts.length - 1) return <Card title="Now"><Empty title="Absent from the latest period">Its last rank is on the chart above.</Empty></Card>
  const click = concentration((latest.products ?? []).map((p) => p.clickShare))
  const conv = concentration((latest.products ?? []).map((p) => p.conversionShare))
  return (
    <Card title="Now">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        <dt>Rank</dt><dd className="tabular-nums">#{fmtInt(latest.rank)}</dd>
        <dt>Estimated searches / {kind === 'month' || kind === 'quarter' ? kind : 'week'}<MeasureInfo measure="estimate" /></dt>
        <dd className="tabular-nums" title={assumptions}>≈ {fmtInt(estimateSearches(latest.rank!))} <span className="text-xs text-zinc-500">(estimate)</span></dd>
        {WINDOWS.filter((w) => L - w >= 0).map((w) => (
          <div key={w} className="contents">
            <dt>Change over {periodUnit(kind, w)}{w === 1 && <MeasureInfo measure="change" />}</dt>
            <dd><Change then={pts[L - w].rank} now={latest.rank} /></dd>
          </div>
        ))}
        <dt>Click concentration<MeasureInfo measure="clickConcentration" /></dt><dd className="tabular-nums">{fmtPct(click)}</dd>
        <dt>Conversion concentration<MeasureInfo measure="conversionConcentration" /></dt><dd className="tabular-nums">{fmtPct(conv)}</dd>
      </dl>
    </Card>
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
