import { useEffect, useRef } from 'react'
import uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'

// uPlot: ~50 KB, draws 156 points x 10 series in a couple of milliseconds on canvas, and its
// legend doubles as an accessible, keyboard-free readout of the hovered period.
// Okabe–Ito colours stay distinct for colour-blind readers and on both themes.
export const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#D55E00', '#CC79A7', '#56B4E9', '#F0E442', '#7f7f7f', '#8C564B', '#17BECF']

export interface Series {
  label: string
  values: (number | null)[]
}

// RankChart draws ranks on a log scale with rank 1 at the top; missing periods stay gaps.
// Drag across the chart to zoom into a range; double-click to zoom out.
export function RankChart({ xs, series, title, xIsDate = true }: { xs: number[]; series: Series[]; title: string; xIsDate?: boolean }) {
  const ref = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (!ref.current) return
    const dark = document.documentElement.classList.contains('dark')
    const axis = { stroke: dark ? '#d4d4d8' : '#3f3f46', grid: { stroke: dark ? '#27272a' : '#e4e4e7' } }
    const plot = new uPlot(
      {
        title,
        width: ref.current.clientWidth || 800,
        height: 320,
        scales: { x: { time: xIsDate }, y: { distr: 3, dir: -1 } },
        axes: [axis, { ...axis, label: 'Search frequency rank (1 = most searched)', size: 70 }],
        series: [{ label: xIsDate ? 'Period' : 'Week of year' }, ...series.map((s, i) => ({ label: s.label, stroke: PALETTE[i % PALETTE.length], width: 2, spanGaps: false, value: (_u: uPlot, v: number | null) => (v == null ? 'absent' : v.toLocaleString()) }))],
      },
      [xs, ...series.map((s) => s.values)] as uPlot.AlignedData,
      ref.current,
    )
    const resize = () => plot.setSize({ width: ref.current?.clientWidth || 800, height: 320 })
    window.addEventListener('resize', resize)
    return () => {
      window.removeEventListener('resize', resize)
      plot.destroy()
    }
  }, [xs, series, title, xIsDate])
  return <div ref={ref} role="img" aria-label={`${title}: ${series.map((s) => s.label).join(', ')}`} />
}
