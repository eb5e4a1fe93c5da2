import { Fragment, useEffect, useId, useState, type ReactNode } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Link, useNavigate, useSearch } from '@tanstack/react-router'
import { exploreQuery, exploreUrl, namesQuery, type ExploreParams } from '../api/queries'
import { useSelection, validateDashboardSearch } from '../../../lib/selection'
import { useDocumentTitle } from '../../../lib/document-title'
import { Empty, ErrorState, Skeleton } from '../../../components/ui/states'
import { Button } from '../../../components/ui/button'
import { Badges, Change, MeasureInfo } from '../../../components/trends/change'
import { Sparkline } from './sparkline'
import { TermLink } from './term-link'
import { DemoBuilding } from './demo-building'
import { WINDOWS } from './term-list'
import { fmtInt, fmtPct, periodUnit, plural } from '../../../lib/format'
import type { Measure } from '../../../lib/measures'

const LISTS = { all: 'All terms', risers: 'Risers', fallers: 'Fallers', new: 'New terms', breakouts: 'Breakouts', 'coming-up': 'Coming up' } as const
const PAGE = 50
const FILTERS = ['q', 'match', 'list', 'minRank', 'maxRank', 'brand', 'category', 'minPeriods'] as const

export interface ExploreSearch extends ExploreParams {
  ws?: string
  ds?: number
  page?: number
}

const num = (v: unknown, min = 0) => {
  const n = Number(v)
  return v !== '' && v != null && Number.isInteger(n) && n >= min ? n : undefined
}

export function validateExploreSearch(s: Record<string, unknown>): ExploreSearch {
  const str = (v: unknown) => (typeof v === 'string' && v.length <= 200 ? v : undefined)
  return {
    ...validateDashboardSearch(s),
    q: str(s.q),
    match: s.match === 'prefix' ? 'prefix' : undefined,
    list: typeof s.list === 'string' && s.list !== 'all' && s.list in LISTS ? s.list : undefined,
    window: WINDOWS.includes(Number(s.window) as never) ? Number(s.window) : undefined,
    minRank: num(s.minRank, 1),
    maxRank: num(s.maxRank, 1),
    brand: str(s.brand),
    category: str(s.category),
    minPeriods: num(s.minPeriods, 1),
    sort: str(s.sort),
    order: s.order === 'desc' ? 'desc' : s.order === 'asc' ? 'asc' : undefined,
    page: num(s.page, 1),
  }
}

// Each sort key's first direction: rank and term read best-first ascending, measures largest first.
const firstOrder = (key: string): 'asc' | 'desc' => (key === 'rank' || key === 'term' ? 'asc' : 'desc')

// nextSort toggles the direction when the sorted column is clicked again, for every column.
export function nextSort(cur: { sort?: string; order?: 'asc' | 'desc' }, key: string): { sort: string; order: 'asc' | 'desc' } {
  const curKey = cur.sort ?? 'rank'
  if (curKey !== key) return { sort: key, order: firstOrder(key) }
  const curOrder = cur.order ?? firstOrder(curKey)
  return { sort: key, order: curOrder === 'asc' ? 'desc' : 'asc' }
}

export function Explore() {
  useDocumentTitle('Explore')
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
  const window = search.window ?? 4
  const kind = sel.dataset?.kind
  const params: ExploreParams = {
    q: search.q, match: search.match, list: search.list, window: search.window, minRank: search.minRank, maxRank: search.maxRank,
    brand: search.brand, category: search.category, minPeriods: search.minPeriods, sort: search.sort, order: search.order,
    limit: PAGE, offset: (page - 1) * PAGE,
  }
  const q = useQuery({ ...exploreQuery(sel.ws ?? '', sel.dataset?.id ?? 0, params), enabled: !!sel.dataset })
  const set = (patch: Partial<ExploreSearch>) => navigate({ search: (p) => ({ ...p, ...patch, page: patch.page }) })
  const filtered = FILTERS.some((f) => search[f] !== undefined)
  const clear = () => {
    setText('')
    navigate({ search: (p) => ({ ws: p.ws, ds: p.ds, window: p.window, sort: p.sort, order: p.order }) })
  }
  const sortKey = search.sort ?? 'rank'
  const sortOrder = search.order ?? firstOrder(sortKey)
  const header = (label: ReactNode, key?: string, measure?: Measure, name?: string) => (
    <th scope="col" className="px-2 py-1.5 align-bottom font-medium" aria-sort={key && sortKey === key ? (sortOrder === 'desc' ? 'descending' : 'ascending') : undefined}>
      <span className="inline-flex items-center whitespace-nowrap">
        {key ? (
          <button type="button" onClick={() => set(nextSort(search, key))} className="hover:underline" aria-label={name ? `Sort by ${name}` : undefined}>
            {label}{sortKey === key ? (sortOrder === 'desc' ? ' ↓' : ' ↑') : ''}
          </button>
        ) : label}
        {measure && <MeasureInfo measure={measure} />}
      </span>
    </th>
  )
  const total = q.data?.total ?? 0
  return (
    <section aria-labelledby="explore-title" className="min-w-0 space-y-4">
      <h1 id="explore-title" className="text-2xl font-semibold">Explore</h1>
      <div className="flex flex-wrap items-end gap-3 text-sm">
        <label className="flex min-w-0 flex-col">
          <span>Search terms</span>
          <input type="search" value={text} onChange={(e) => setText(e.target.value)} placeholder="yoga mat" className="w-64 max-w-full rounded border border-zinc-300 bg-transparent px-2 py-1 dark:border-zinc-700" />
        </label>
        <Select label="Match" value={search.match ?? 'substring'} onChange={(v) => set({ match: v === 'prefix' ? 'prefix' : undefined })} options={{ substring: 'contains', prefix: 'starts with' }} />
        <Select label="List" value={search.list ?? 'all'} onChange={(v) => set({ list: v === 'all' ? undefined : v })} options={LISTS} />
        <Select label="Change over" value={String(window)} onChange={(v) => set({ window: Number(v) })} options={Object.fromEntries(WINDOWS.map((w) => [String(w), periodUnit(kind, w)]))} />
        <NumberFilter label="Best rank" value={search.minRank} onChange={(v) => set({ minRank: v })} />
        <NumberFilter label="Worst rank" value={search.maxRank} onChange={(v) => set({ maxRank: v })} />
        <NumberFilter label="Min periods" value={search.minPeriods} onChange={(v) => set({ minPeriods: v })} />
        <NameFilter label="Brand" kind="brand" value={search.brand} onChange={(v) => set({ brand: v })} />
        <NameFilter label="Category" kind="category" value={search.category} onChange={(v) => set({ category: v })} />
        {filtered && <Button type="button" variant="ghost" onClick={clear}>Clear filters</Button>}
        {sel.dataset && (
          <a className="rounded-md border border-zinc-300 px-3 py-1.5 sm:ml-auto dark:border-zinc-700" href={exploreUrl(sel.ws!, sel.dataset.id, { ...params, limit: undefined, offset: undefined }, true)} download>
            Export CSV
          </a>
        )}
      </div>
      {sel.error ? (
        <ErrorState error={sel.error} retry={sel.retry} />
      ) : sel.building ? (
        <DemoBuilding week={sel.building.week} weeks={sel.building.weeks} />
      ) : !sel.dataset && !sel.isLoading ? (
        <Empty title="No reports in this workspace yet"><Link to="/dashboard/imports" className="underline">Import a Top Search Terms report</Link> to explore its terms.</Empty>
      ) : q.error ? (
        <ErrorState error={q.error} retry={() => q.refetch()} />
      ) : q.isPending ? (
        <Skeleton rows={10} label="Loading terms" />
      ) : total === 0 ? (
        <Empty title="No term matches">{filtered ? <>Try fewer filters or another spelling, or <button type="button" className="underline" onClick={clear}>clear the filters</button>.</> : 'This list is empty for the latest period.'}</Empty>
      ) : (
        <>
          <p className="text-sm text-zinc-600 dark:text-zinc-400" aria-live="polite">{plural(total, 'term')}</p>
          <div className="overflow-x-auto rounded-lg border border-zinc-200 dark:border-zinc-800">
            <table className="w-full min-w-[56rem] text-sm">
              <thead>
                <tr className="border-b border-zinc-200 text-left text-xs text-zinc-500 dark:border-zinc-800">
                  <th colSpan={2} />
                  <th colSpan={4} scope="colgroup" className="px-2 pt-1.5 font-medium">Change in estimated searches (rank then → now)<MeasureInfo measure="change" /></th>
                  <th colSpan={4} />
                </tr>
                <tr className="border-b border-zinc-200 text-left dark:border-zinc-800">
                  {header('Term', 'term')}
                  {header('Rank', 'rank')}
                  {WINDOWS.map((w) => <Fragment key={w}>{header(periodUnit(kind, w), `change${w}`, undefined, `change over ${periodUnit(kind, w)}`)}</Fragment>)}
                  {header(`Last ${periodUnit(kind, 13)}`)}
                  {header('Click concentration', 'clickConcentration', 'clickConcentration')}
                  {header('Seasonality', 'seasonality', 'seasonality')}
                  {header('Top brand')}
                </tr>
              </thead>
              <tbody className={q.isPlaceholderData ? 'opacity-60' : ''}>
                {q.data.rows.map((r) => (
                  <tr key={r.term} className="border-b border-zinc-100 align-top dark:border-zinc-900">
                    <td className="max-w-[16rem] px-2 py-1"><TermLink term={r.term} /><Badges isNew={r.new} breakout={r.breakout} /></td>
                    <td className="px-2 py-1 tabular-nums">{fmtInt(r.rank)}</td>
                    {WINDOWS.map((w, i) => <td key={w} className="px-2 py-1 tabular-nums"><Change then={r.ranksAgo[i]} now={r.rank} /></td>)}
                    <td className="px-2 py-1"><Sparkline values={r.spark} label={`Rank of ${r.term} over the last ${periodUnit(kind, 13)}`} /></td>
                    <td className="px-2 py-1 tabular-nums">{fmtPct(r.clickConcentration)}</td>
                    <td className="px-2 py-1 tabular-nums">{r.seasonality == null ? <span className="text-zinc-400" title="Needs 8 periods a year apart">still collecting</span> : r.seasonality.toFixed(2)}</td>
                    <td className="px-2 py-1">{r.topBrand ? <Link to="/dashboard/brand" search={{ ws: sel.ws, ds: sel.dataset?.id, b: r.topBrand }} className="hover:underline">{r.topBrand}</Link> : '–'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <nav aria-label="Pages" className="flex flex-wrap items-center gap-3 text-sm">
            <Button variant="secondary" disabled={page <= 1} onClick={() => set({ page: page - 1 })}>Previous</Button>
            <span>Page {fmtInt(page)} of {fmtInt(Math.ceil(total / PAGE))}</span>
            <Button variant="secondary" disabled={page * PAGE >= total} onClick={() => set({ page: page + 1 })}>Next</Button>
          </nav>
        </>
      )}
    </section>
  )
}

function Select({ label, value, onChange, options }: { label: string; value: string; onChange: (v: string) => void; options: Record<string, string> }) {
  return (
    <label className="flex flex-col">
      <span>{label}</span>
      <select value={value} onChange={(e) => onChange(e.target.value)} className="rounded border border-zinc-300 bg-transparent px-2 py-1 dark:border-zinc-700">
        {Object.entries(options).map(([v, text]) => <option key={v} value={v}>{text}</option>)}
      </select>
    </label>
  )
}

// Filters apply on Enter (or when the field is left), not on every key.
function NumberFilter({ label, value, onChange }: { label: string; value?: number; onChange: (v?: number) => void }) {
  const [typed, setTyped] = useState(value == null ? '' : String(value))
  useEffect(() => setTyped(value == null ? '' : String(value)), [value]) // cleared or set by the URL
  const apply = (raw: string) => num(raw, 1) !== value && onChange(num(raw, 1))
  return (
    <label className="flex flex-col">
      <span>{label}</span>
      <input type="number" min={1} value={typed} onChange={(e) => setTyped(e.target.value)} onKeyDown={(e) => e.key === 'Enter' && apply(e.currentTarget.value)} onBlur={(e) => apply(e.target.value)} className="w-24 rounded border border-zinc-300 bg-transparent px-2 py-1 dark:border-zinc-700" />
    </label>
  )
}

// NameFilter suggests the dataset's brand or category names as the user types (a datalist).
function NameFilter({ label, kind, value, onChange }: { label: string; kind: 'brand' | 'category'; value?: string; onChange: (v?: string) => void }) {
  const sel = useSelection()
  const [typed, setTyped] = useState(value ?? '')
  useEffect(() => setTyped(value ?? ''), [value]) // cleared or set by the URL
  const listId = useId()
  const names = useQuery({ ...namesQuery(sel.ws ?? '', sel.dataset?.id ?? 0, kind, typed.trim().toLowerCase()), enabled: !!sel.dataset })
  const apply = (raw: string) => (raw.trim() || undefined) !== value && onChange(raw.trim() || undefined)
  return (
    <label className="flex flex-col">
      <span>{label}</span>
      <input
        value={typed}
        list={listId}
        autoComplete="off"
        onChange={(e) => setTyped(e.target.value)}
        onKeyDown={(e) => e.key === 'Enter' && apply(e.currentTarget.value)}
        onBlur={(e) => apply(e.target.value)}
        placeholder="press Enter"
        className="w-36 rounded border border-zinc-300 bg-transparent px-2 py-1 dark:border-zinc-700"
      />
      <datalist id={listId} data-testid={`${kind}-suggestions`}>
        {names.data?.names.map((n) => <option key={n} value={n} />)}
      </datalist>
    </label>
  )
}
