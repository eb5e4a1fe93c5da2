import { useMemo, useState, type ReactNode } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import uPlot from 'uplot'
import { brandQuery, productQuery } from '../api/queries'
import { useSelection } from '../../../lib/selection'
import { useDocumentTitle } from '../../../lib/document-title'
import { Card, Empty, ErrorState, Skeleton } from '../../../components/ui/states'
import { Button } from '../../../components/ui/button'
import { MeasureInfo } from '../../../components/trends/change'
import { fmtInt, fmtPct, fmtPeriod, plural } from '../../../lib/format'
import { closerRatio } from '../../../lib/measures'
import { PALETTE, axisColours, periodLegend, useChart } from './rank-chart'
import { DemoBuilding } from './demo-building'
import type { Presence, ShareAt } from '../../../lib/trends-types'

type Row = Presence['terms'][number] & { last: ShareAt }
const PAGE = 25
const SORTS = { rank: 'Term rank', term: 'Term', click: 'Click share', periods: 'Periods in top 3' } as const
type Sort = keyof typeof SORTS
const ratio = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2, minimumFractionDigits: 2 })

// PresencePage is the product (ASIN) and brand view: every term where it is in the top 3, with
// its click share over time, searchable, sortable and paged. actions is the Watch button.
export function PresencePage({ kind, value, actions }: { kind: 'asin' | 'brand'; value: string; actions?: ReactNode }) {
  const sel = useSelection()
  const opts = kind === 'asin' ? productQuery(sel.ws ?? '', sel.dataset?.id ?? 0, value) : brandQuery(sel.ws ?? '', sel.dataset?.id ?? 0, value)
  const q = useQuery({ ...opts, enabled: !!sel.dataset && !!value })
  const title = kind === 'asin' ? q.data?.title || `Product ${value}` : `Brand ${q.data?.key ?? value}`
  useDocumentTitle(value ? title : kind === 'asin' ? 'Product' : 'Brand')
  const [text, setText] = useState('')
  const [sort, setSort] = useState<{ key: Sort; desc: boolean }>({ key: 'rank', desc: false })
  const [page, setPage] = useState(1)
  const rows = useMemo(() => {
    const all: Row[] = (q.data?.terms ?? []).filter((t) => t.points.length > 0).map((t) => ({ ...t, last: t.points[t.points.length - 1] }))
    const needle = text.trim().toLowerCase()
    const hit = needle ? all.filter((r) => r.term.toLowerCase().includes(needle)) : all
    const key: Record<Sort, (r: Row) => number | string> = { rank: (r) => r.latestRank, term: (r) => r.term, click: (r) => r.last.clickShare ?? -1, periods: (r) => r.points.length }
    const dir = sort.desc ? -1 : 1
    return [...hit].sort((a, b) => (key[sort.key](a) < key[sort.key](b) ? -dir : key[sort.key](a) > key[sort.key](b) ? dir : 0))
  }, [q.data, text, sort])
  const pages = Math.max(1, Math.ceil(rows.length / PAGE))
  const at = Math.min(page, pages)
  const shown = useMemo(() => rows.slice((at - 1) * PAGE, at * PAGE), [rows, at])
  const charted = useMemo(() => shown.slice(0, 5), [shown])
  const sortBy = (key: Sort) => {
    setSort((s) => (s.key === key ? { key, desc: !s.desc } : { key, desc: key === 'click' || key === 'periods' }))
    setPage(1)
  }
  if (!value) return <Empty title={kind === 'asin' ? 'No product chosen' : 'No brand chosen'}>Open one from a term’s top clicked products.</Empty>
  return (
    <section aria-labelledby="presence-title" className="space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        <h1 id="presence-title" className="min-w-0 text-2xl font-semibold break-words">{title}</h1>
        {actions}
      </div>
      {kind === 'asin' && <p className="font-mono text-sm text-zinc-500">{value.toUpperCase()}</p>}
      {sel.error ? <ErrorState error={sel.error} retry={sel.retry} /> : sel.building ? <DemoBuilding week={sel.building.week} weeks={sel.building.weeks} /> : !sel.dataset && !sel.isLoading ? (
        <Empty title="No reports in this workspace yet"><Link to="/dashboard/imports" className="underline">Import a report</Link> to see where this {kind === 'asin' ? 'product' : 'brand'} is clicked.</Empty>
      ) : q.isPending ? <Skeleton rows={6} /> : q.error ? <ErrorState error={q.error} retry={() => q.refetch()} /> : q.data.terms.length === 0 ? (
        <Empty title="Not in any term’s top 3 clicked in the last 13 periods">Try another {kind === 'asin' ? 'product' : 'brand'} from a term’s page.</Empty>
      ) : (
        <>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">In the top 3 clicked of {plural(q.data.terms.length, 'term')} over the last 13 periods.</p>
          <ShareOverTime rows={charted} kind={sel.dataset?.kind} />
          <Card title="Terms" info={<MeasureInfo measure="closerRatio" />}>
            <label className="mb-3 flex max-w-xs flex-col text-sm">
              <span>Search its terms</span>
              <input type="search" value={text} onChange={(e) => { setText(e.target.value); setPage(1) }} placeholder="yoga" className="rounded border border-zinc-300 bg-transparent px-2 py-1 dark:border-zinc-700" />
            </label>
            {rows.length === 0 ? <Empty title="No term matches">Try another word.</Empty> : (
              <>
                <div className="overflow-x-auto">
                  <table className="w-full min-w-[36rem] text-sm">
                    <thead>
                      <tr className="text-left">
                        <SortHeader k="term" sort={sort} onSort={sortBy} />
                        <SortHeader k="rank" sort={sort} onSort={sortBy} />
                        <SortHeader k="periods" sort={sort} onSort={sortBy} />
                        <th scope="col">Place now</th>
                        <SortHeader k="click" sort={sort} onSort={sortBy} />
                        <th scope="col">Conversion share</th>
                        <th scope="col">Closer ratio</th>
                        <th scope="col">In top 3 since</th>
                      </tr>
                    </thead>
                    <tbody>
                      {shown.map((t) => {
                        const closer = t.last.closerRatio !== undefined ? t.last.closerRatio : closerRatio(t.last.clickShare, t.last.conversionShare)
                        return (
                          <tr key={t.term} className="border-t border-zinc-100 dark:border-zinc-900">
                            <td className="py-1 pr-2 break-words"><Link to="/dashboard/term" search={{ ws: sel.ws, ds: sel.dataset?.id, t: [t.term] }} className="hover:underline">{t.term}</Link></td>
                            <td className="tabular-nums">#{fmtInt(t.latestRank)}</td>
                            <td className="tabular-nums">{fmtInt(t.points.length)}</td>
                            <td>#{t.last.slot} clicked</td>
                            <td className="tabular-nums">{fmtPct(t.last.clickShare)}</td>
                            <td className="tabular-nums">{fmtPct(t.last.conversionShare)}</td>
                            <td className="tabular-nums">{closer == null ? '–' : ratio.format(closer)}</td>
                            <td className="whitespace-nowrap">{fmtPeriod(sel.dataset?.kind, t.points[0].start)}</td>
                          </tr>
                        )
                      })}
                    </tbody>
                  </table>
                </div>
                <nav aria-label="Pages" className="mt-3 flex flex-wrap items-center gap-3 text-sm">
                  <Button variant="secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>Previous</Button>
                  <span>Page {at} of {pages} · {plural(rows.length, 'term')}</span>
                  <Button variant="secondary" disabled={page >= pages} onClick={() => setPage(page + 1)}>Next</Button>
                </nav>
              </>
            )}
          </Card>
        </>
      )}
    </section>
  )
}

function SortHeader({ k, sort, onSort }: { k: Sort; sort: { key: Sort; desc: boolean }; onSort: (k: Sort) => void }) {
  const active = sort.key === k
  return (
    <th scope="col" aria-sort={active ? (sort.desc ? 'descending' : 'ascending') : undefined}>
      <button type="button" onClick={() => onSort(k)} className="hover:underline">{SORTS[k]}{active ? (sort.desc ? ' ↓' : ' ↑') : ''}</button>
    </th>
  )
}

// ShareOverTime draws the click share on the first terms of the table: one line per term, a gap
// where it was not in that term's top 3.
function ShareOverTime({ rows, kind }: { rows: Row[]; kind?: string }) {
  const ref = useChart(
    (width, theme) => {
      const starts = [...new Set(rows.flatMap((r) => r.points.map((p) => p.start)))].sort()
      const xs = starts.map((s) => Date.parse(s) / 1000)
      const series = rows.map((r) => {
        const at = new Map(r.points.map((p) => [p.start, p.clickShare == null ? null : p.clickShare * 100]))
        return starts.map((s) => at.get(s) ?? null)
      })
      const axis = axisColours(theme)
      return {
        opts: {
          title: 'Click share over time',
          width,
          height: 260,
          scales: { x: { time: true }, y: { range: [0, 100] } },
          axes: [axis, { ...axis, label: 'Click share %', size: 60 }],
          series: [
            { label: 'Period', value: periodLegend(kind) },
            ...rows.map((r, i) => ({ label: r.term, stroke: PALETTE[i % PALETTE.length], width: 2, spanGaps: false, value: (_u: uPlot, v: number | null) => (v == null ? 'not in top 3' : `${v.toFixed(1)}%`) })),
          ],
        },
        data: [xs, ...series] as uPlot.AlignedData,
      }
    },
    [rows, kind],
  )
  if (rows.length === 0) return null
  return <div ref={ref} className="w-full min-w-0 overflow-hidden" role="img" aria-label={`Click share over time on ${rows.map((r) => r.term).join(', ')}`} />
}
