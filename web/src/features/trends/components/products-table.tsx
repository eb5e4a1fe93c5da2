import { Link } from '@tanstack/react-router'
import { useSelection } from '../../../lib/selection'
import { Card } from '../../../components/ui/states'
import { MeasureInfo } from '../../../components/trends/change'
import { fmtPct, fmtPeriod } from '../../../lib/format'
import { closerRatio } from '../../../lib/measures'
import type { ProductShare, TermHistory } from '../../../lib/trends-types'

const ratio = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2, minimumFractionDigits: 2 })

// ProductLink shows a product by its title (the ASIN beside it) and opens its page.
export function ProductLink({ asin, title }: { asin: string; title?: string }) {
  const sel = useSelection()
  return (
    <Link to="/dashboard/product" search={{ ws: sel.ws, ds: sel.dataset?.id, asin }} className="block hover:underline">
      {title ? <span className="line-clamp-2 break-words">{title}</span> : null}
      <span className="font-mono text-xs text-zinc-500">{asin}</span>
    </Link>
  )
}

function Shares({ p }: { p: ProductShare }) {
  const closer = p.closerRatio !== undefined ? p.closerRatio : closerRatio(p.clickShare, p.conversionShare)
  return (
    <div className="text-xs text-zinc-600 dark:text-zinc-400">
      clicks {fmtPct(p.clickShare)} · conversions {fmtPct(p.conversionShare)} · closer {closer == null ? '–' : ratio.format(closer)}
    </div>
  )
}

// ProductsTable lists the top 3 clicked products and brands of the latest periods; it scrolls
// inside its card on a phone.
export function ProductsTable({ history, kind }: { history: TermHistory; kind?: string }) {
  const sel = useSelection()
  const recent = history.points.filter((p) => p.products?.length).slice(-8).reverse()
  if (recent.length === 0) return null
  return (
    <Card title="Top clicked products and brands" info={<MeasureInfo measure="closerRatio" />}>
      <p className="mb-2 text-xs text-zinc-500">Latest periods first; each product’s click share, conversion share and closer ratio.</p>
      <div className="overflow-x-auto">
        <table className="w-full min-w-[40rem] text-sm">
          <thead><tr className="text-left"><th scope="col">Period</th><th scope="col">Most clicked</th><th scope="col">2nd</th><th scope="col">3rd</th><th scope="col">Brands</th></tr></thead>
          <tbody>
            {recent.map((p) => (
              <tr key={p.start} className="border-t border-zinc-100 align-top dark:border-zinc-900">
                <td className="py-1 pr-2 whitespace-nowrap">{fmtPeriod(kind, p.start)}</td>
                {[0, 1, 2].map((i) => {
                  const pr = p.products?.[i]
                  return (
                    <td key={i} className="max-w-[14rem] py-1 pr-2">
                      {pr ? (<><ProductLink asin={pr.asin} title={pr.title} /><Shares p={pr} /></>) : '–'}
                    </td>
                  )
                })}
                <td className="py-1">{p.brands?.length ? p.brands.map((b) => <Link key={b} to="/dashboard/brand" search={{ ws: sel.ws, ds: sel.dataset?.id, b }} className="mr-2 hover:underline">{b}</Link>) : '–'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  )
}
