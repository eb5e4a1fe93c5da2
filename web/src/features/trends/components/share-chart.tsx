import uPlot from 'uplot'
import { PALETTE, axisColours, periodLegend, useChart } from './rank-chart'
import type { TermHistory } from '../../../lib/trends-types'

// ShareChart stacks the click shares of the top 3 clicked products per period (#1 at the
// bottom), so a glance shows how concentrated the clicks are and when the leader changes.
export function ShareChart({ history, kind }: { history: TermHistory; kind?: string }) {
  const ref = useChart(
    (width, theme) => {
      const pts = history.points
      const xs = pts.map((p) => Date.parse(p.start) / 1000)
      const slot = (i: number) => pts.map((p) => (p.rank == null ? null : (p.products?.[i]?.clickShare ?? 0) * 100))
      const raw = [slot(0), slot(1), slot(2)]
      // Cumulative sums draw the stack; the legend shows each slot's own share.
      const stacked = raw.map((_, i) => xs.map((_, j) => (raw[0][j] == null ? null : raw.slice(0, i + 1).reduce((a, s) => a + (s[j] ?? 0), 0))))
      const axis = axisColours(theme)
      return {
        opts: {
          title: 'Click share of the top 3 clicked products',
          width,
          height: 240,
          scales: { x: { time: true }, y: { range: [0, 100] } },
          axes: [axis, { ...axis, label: 'Click share %', size: 60 }],
          series: [
            { label: 'Period', value: periodLegend(kind) },
            ...['#1', '#2', '#3'].map((label, i) => ({
              label,
              stroke: PALETTE[i],
              fill: PALETTE[i] + '55',
              value: (_u: uPlot, _v: number | null, _s: number, idx: number | null) => (idx == null || raw[i][idx] == null ? '–' : `${raw[i][idx]!.toFixed(1)}%`),
            })),
          ],
          bands: [{ series: [2, 1] }, { series: [3, 2] }],
        },
        data: [xs, ...stacked] as uPlot.AlignedData,
      }
    },
    [history, kind],
  )
  return <div ref={ref} className="w-full min-w-0 overflow-hidden" role="img" aria-label={`Click share of the top 3 clicked products for ${history.term} over time`} />
}
