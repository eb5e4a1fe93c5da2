import { Link } from '@tanstack/react-router'
import type { WatchItem } from '../api/watchlist'
import { useSelection } from '../../../lib/selection'
import { Change } from '../../../components/trends/change'
import { fmtInt, fmtPct, plural } from '../../../lib/format'

// ItemLink opens a watched item's page; a product shows its title with the ASIN beside it.
export function ItemLink({ it }: { it: WatchItem }) {
  const sel = useSelection()
  const base = { ws: sel.ws, ds: sel.dataset?.id }
  if (it.kind === 'term') return <Link to="/dashboard/term" search={{ ...base, t: [it.value] }} className="hover:underline">{it.value}</Link>
  if (it.kind === 'brand') return <Link to="/dashboard/brand" search={{ ...base, b: it.value }} className="hover:underline">{it.value}</Link>
  return (
    <Link to="/dashboard/product" search={{ ...base, asin: it.value }} className="hover:underline">
      {it.presence?.title ? <span className="line-clamp-2">{it.presence.title}</span> : null}
      <span className="font-mono text-xs text-zinc-500">{it.value}</span>
    </Link>
  )
}

// ItemNow is an item's latest numbers: a term's rank and move; a product's or brand's place in
// the top 3 of the latest period's terms.
export function ItemNow({ it }: { it: WatchItem }) {
  if (it.kind === 'term') {
    if (!it.latest) return <span className="text-zinc-500">not in the latest period</span>
    return (
      <span className="flex flex-wrap gap-x-3">
        <span className="tabular-nums">#{fmtInt(it.latest.rank)}</span>
        <Change then={it.latest.ranksAgo[0]} now={it.latest.rank} />
      </span>
    )
  }
  const p = it.presence
  if (!p || p.terms === 0) return <span className="text-zinc-500">in no term’s top 3 in the latest period</span>
  return (
    <span>
      top 3 of {plural(p.terms, 'term')}
      {p.bestTerm && (
        <span className="block text-xs text-zinc-500">
          best: “{p.bestTerm}” #{fmtInt(p.bestRank)}, clicked #{p.slot}, click share {fmtPct(p.clickShare)}
        </span>
      )}
    </span>
  )
}
