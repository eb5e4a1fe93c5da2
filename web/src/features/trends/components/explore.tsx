import { useEffect, useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Link, useNavigate, useSearch } from '@tanstack/react-router'
import { exploreQuery, exploreUrl, type ExploreParams } from '../api/queries'
import { useSelection } from '../use-selection'
import { Empty, ErrorState, Skeleton } from '../../../components/ui/states'
import { Sparkline } from './sparkline'
import { TermLink } from './term-link'
import { Badges, Change } from './change'
import { fmtInt, fmtPct } from '../../../lib/format'
import { validateDashboardSearch } from '../use-selection'
import { Button } from '../../../components/ui/button'

const LISTS = ['all', 'risers', 'fallers', 'new', 'breakouts', 'coming-up'] as const
const WINDOWS = [1, 4, 13, 52] as const
const PAGE = 50

export interface ExploreSearch extends ExploreParams {
  ws?: string
  ds?: number
  page?: number
}

const num = (v: unknown, min = 0) => {
  const n = Number(v)
  return Number.isInteger(n) && n >= min ? n : undefined
}

export function validateExploreSearch(s: Record<string, unknown>): ExploreSearch {
  const str = (v: unknown) => (typeof v === 'string' && v.length <= 200 ? v : undefined)
  return {
    ...validateDashboardSearch(s),
    q: str(s.q),
    match: s.match === 'prefix' ? 'prefix' : undefined,
    list: LISTS.includes(s.list as never) ? (s.list as string) : undefined,
    window: WINDOWS.includes(Number(s.window) as never) ? Number(s.window) : undefined,
    minRank: num(s.minRank, 1),
    maxRank: num(s.maxRank, 1),
    brand: str(s.brand),
    category: str(s.category),
    minPeriods: num(s.minPeriods, 1),
    sort: str(s.sort),
    order: s.order === 'desc' ? 'desc' : undefined,
    page: num(s.page, 1),
  }
}

const COLUMNS: { key: string; label: string; sort?: string }[] = [
  { key: 'term', label: 'Term', sort: 'term' },
  { key: 'rank', label: 'Rank', sort: 'rank' },
  { key: 'c1', label: '1p', sort: 'change1' },
  { key: 'c4', label: '4p', sort: 'change4' },
  { key: 'c13', label: '13p', sort: 'change13' },
  { key: 'c52', label: '52p', sort: 'change52' },
  { key: 'trend', label: 'Last 13' },
  { key: 'click', label: 'Top-3 clicks', sort: 'clickConcentration' },
  { key: 'season', label: 'Seasonality', sort: 'seasonality' },
  { key: 'brand', label: 'Top brand' },
]

export function Explore() {
  const search = useSearch({ from: '/_app/dashboard/explore' })
  const navigate = useNavigate({ from: '/dashboard/explore' })
  const sel = useSelection()
  const [text, setText] = useState(search.q ?? '')
  // Typing updates the URL a moment after the last key, so each keystroke does not cost a request.
  useEffect(() => {
    const t = setTimeout(() => {
      if ((search.q ?? '') !== text) navigate({ search: (p) => ({ ...p, q: text || undefined, page: undefined }), replace: true })
    }, 250)
    return () => clearTimeout(t)
  }, [text, search.q, navigate])
  const page = search.page ?? 1
  const params: ExploreParams = {
    q: search.q, match: search.match, list: search.list, window: search.window, minRank: search.minRank, maxRank: search.maxRank,
    brand: search.brand, category: search.category, minPeriods: search.minPeriods, sort: search.sort, order: search.order,
    limit: PAGE, offset: (page - 1) * PAGE,
  }
  const q = useQuery({ ...exploreQuery(sel.ws ?? '', sel.dataset?.id ?? 0, params), enabled: !!sel.dataset })
  const set = (patch: Partial<ExploreSearch>) => navigate({ search: (p) => ({ ...p, ...patch, page: patch.page }) })
  const sortBy = (key: string) =>
    set({ sort: key, order: search.sort === key && search.order !== 'desc' ? 'desc' : key === 'rank' || key === 'term' ? undefined : 'desc' })
  const total = q.data?.total ?? 0
  return (
    <section aria-labelledby="explore-title" className="space-y-4">
      <h1 id="explore-title" className="text-2xl font-semibold">Explore</h1>
      <div className="flex flex-wrap items-end gap-3 text-sm">
        <label className="flex flex-col">
          <span>Search terms</span>
          <input type="search" value={text} onChange={(e) => setText(e.target.value)} placeholder="yoga mat" className="w-64 rounded border border-zinc-300 bg-transparent px-2 py-1 dark:border-zinc-700" />
        </label>
        <label className="flex flex-col">
          <span>Match</span>
          <select value={search.match ?? 'substring'} onChange={(e) => set({ match: e.target.value === 'prefix' ? 'prefix' : undefined })} className="rounded border border-zinc-300 bg-transparent px-2 py-1 dark:border-zinc-700">
            <option value="substring">contains</option>
            <option value="prefix">starts with</option>
          </select>
        </label>
        <label className="flex flex-col">
          <span>List</span>
          <select value={search.list ?? 'all'} onChange={(e) => set({ list: e.target.value === 'all' ? undefined : e.target.value })} className="rounded border border-zinc-300 bg-transparent px-2 py-1 dark:border-zinc-700">
            {LISTS.map((l) => <option key={l} value={l}>{l}</option>)}
          </select>
        </label>
        <label className="flex flex-col">
          <span>Change window</span>
          <select value={search.window ?? 4} onChange={(e) => set({ window: Number(e.target.value) })} className="rounded border border-zinc-300 bg-transparent px-2 py-1 dark:border-zinc-700">
            {WINDOWS.map((w) => <option key={w} value={w}>{w} periods</option>)}
          </select>
        </label>
        <NumberFilter label="Best rank" value={search.minRank} onChange={(v) => set({ minRank: v })} />
        <NumberFilter label="Worst rank" value={search.maxRank} onChange={(v) => set({ maxRank: v })} />
        <NumberFilter label="Min periods" value={search.minPeriods} onChange={(v) => set({ minPeriods: v })} />
        <TextFilter label="Brand" value={search.brand} onChange={(v) => set({ brand: v })} />
        <TextFilter label="Category" value={search.category} onChange={(v) => set({ category: v })} />
        {sel.dataset && (
          <a className="ml-auto rounded-md border border-zinc-300 px-3 py-1.5 dark:border-zinc-700" href={exploreUrl(sel.ws!, sel.dataset.id, { ...params, limit: undefined, offset: undefined }, true)} download>
            Export CSV
          </a>
        )}
      </div>
      {q.isPending ? (
        <Skeleton rows={10} label="Loading terms" />
      ) : q.error ? (
        <ErrorState error={q.error} retry={() => q.refetch()} />
      ) : total === 0 ? (
        <Empty title="No term matches">Try fewer filters or another spelling.</Empty>
      ) : (
        <>
          <p className="text-sm text-zinc-600 dark:text-zinc-400" aria-live="polite">{fmtInt(total)} terms</p>
          <div className="overflow-x-auto">
            <table className="w-full text-sm">
              <thead>
                <tr className="border-b border-zinc-200 text-left dark:border-zinc-800">
                  {COLUMNS.map((c) => (
                    <th key={c.key} scope="col" className="px-2 py-1.5 font-medium" aria-sort={search.sort === c.sort ? (search.order === 'desc' ? 'descending' : 'ascending') : undefined}>
                      {c.sort ? <button type="button" onClick={() => sortBy(c.sort!)} className="hover:underline">{c.label}{search.sort === c.sort ? (search.order === 'desc' ? ' ↓' : ' ↑') : ''}</button> : c.label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className={q.isPlaceholderData ? 'opacity-60' : ''}>
                {q.data.rows.map((r) => (
                  <tr key={r.term} className="border-b border-zinc-100 dark:border-zinc-900">
                    <td className="px-2 py-1"><TermLink term={r.term} /><Badges isNew={r.new} breakout={r.breakout} /></td>
                    <td className="px-2 py-1 tabular-nums">{fmtInt(r.rank)}</td>
                    {r.changes.map((c, i) => <td key={i} className="px-2 py-1 tabular-nums"><Change value={c} /></td>)}
                    <td className="px-2 py-1"><Sparkline values={r.spark} label={`Rank of ${r.term} over the last 13 periods`} /></td>
                    <td className="px-2 py-1 tabular-nums">{fmtPct(r.clickConcentration)}</td>
                    <td className="px-2 py-1 tabular-nums">{r.seasonality == null ? <span className="text-zinc-400" title="Needs 8 periods a year apart">still collecting</span> : r.seasonality.toFixed(2)}</td>
                    <td className="px-2 py-1">{r.topBrand ? <Link to="/dashboard/brand" search={{ ws: sel.ws, ds: sel.dataset?.id, b: r.topBrand }} className="hover:underline">{r.topBrand}</Link> : '–'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <nav aria-label="Pages" className="flex items-center gap-3 text-sm">
            <Button variant="secondary" disabled={page <= 1} onClick={() => set({ page: page - 1 })}>Previous</Button>
            <span>Page {page} of {fmtInt(Math.ceil(total / PAGE))}</span>
            <Button variant="secondary" disabled={page * PAGE >= total} onClick={() => set({ page: page + 1 })}>Next</Button>
          </nav>
        </>
      )}
    </section>
  )
}

function NumberFilter({ label, value, onChange }: { label: string; value?: number; onChange: (v?: number) => void }) {
  return (
    <label className="flex flex-col">
      <span>{label}</span>
      <input type="number" min={1} defaultValue={value} onBlur={(e) => onChange(num(e.target.value, 1))} className="w-24 rounded border border-zinc-300 bg-transparent px-2 py-1 dark:border-zinc-700" />
    </label>
  )
}

function TextFilter({ label, value, onChange }: { label: string; value?: string; onChange: (v?: string) => void }) {
  return (
    <label className="flex flex-col">
      <span>{label}</span>
      <input defaultValue={value} onBlur={(e) => onChange(e.target.value.trim() || undefined)} className="w-32 rounded border border-zinc-300 bg-transparent px-2 py-1 dark:border-zinc-700" />
    </label>
  )
}
