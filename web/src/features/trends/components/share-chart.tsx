import { useEffect, useRef } from 'react'
import uPlot from 'uplot'
import { PALETTE } from './rank-chart'
import type { TermHistory } from '../api/types'

// ShareChart stacks the click shares of the top 3 clicked products per period (#1 at the
// bottom), so a glance shows how concentrated the clicks are and when the leader changes.
export function ShareChart({ history }: { history: TermHistory }) {
  const ref = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (!ref.current) return
    const pts = history.points
    const xs = pts.map((p) => Date.parse(p.start) / 1000)
    const slot = (i: number) => pts.map((p) => (p.rank == null ? null : (p.products?.[i]?.clickShare ?? 0) * 100))
    const raw = [slot(0), slot(1), slot(2)]
    // Cumulative sums draw the stack; the legend shows each slot's own share.
    const stacked = raw.map((_, i) => xs.map((_, j) => (raw[0][j] == null ? null : raw.slice(0, i + 1).reduce((a, s) => a + (s[j] ?? 0), 0))))
    const dark = document.documentElement.classList.contains('dark')
    const axis = { stroke: dark ? '#d4d4d8' : '#3f3f46', grid: { stroke: dark ? '#27272a' : '#e4e4e7' } }
    const plot = new uPlot(
      {
        title: 'Click share of the top 3 clicked products',
        width: ref.current.clientWidth || 800,
        height: 240,
        scales: { x: { time: true }, y: { range: [0, 100] } },
        axes: [axis, { ...axis, label: 'Click share %', size: 60 }],
        series: [
          { label: 'Period' },
          ...['#1', '#2', '#3'].map((label, i) => ({
            label,
            stroke: PALETTE[i],
            fill: PALETTE[i] + '55',
            value: (_u: uPlot, _v: number | null, _s: number, idx: number | null) => (idx == null || raw[i][idx] == null ? '–' : `${raw[i][idx]!.toFixed(1)}%`),
          })),
        ],
        bands: [{ series: [2, 1] }, { series: [3, 2] }],
      },
      [xs, ...stacked] as uPlot.AlignedData,
      ref.current,
    )
    return () => plot.destroy()
  }, [history])
  return <div ref={ref} role="img" aria-label={`Click share of the top 3 clicked products for ${history.term} over time`} />
}
