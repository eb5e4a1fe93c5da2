import { useEffect, useRef } from 'react'
import uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'
import { useTheme } from '../../../lib/theme'
import { fmtPeriod } from '../../../lib/format'

// uPlot: ~50 KB, draws 156 points x 10 series in a couple of milliseconds on canvas, and its
// legend doubles as a readout of the hovered period.
// Okabe–Ito colours stay distinct for colour-blind readers and on both themes.
export const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#D55E00', '#CC79A7', '#56B4E9', '#F0E442', '#7f7f7f', '#8C564B', '#17BECF']

export interface Series {
  label: string
  values: (number | null)[]
}

// axisColours are the theme's; charts redraw when useTheme changes (canvas has no dark: variant).
export function axisColours(theme: string) {
  const dark = theme === 'dark'
  return { stroke: dark ? '#d4d4d8' : '#3f3f46', grid: { stroke: dark ? '#27272a' : '#e4e4e7' }, ticks: { stroke: dark ? '#3f3f46' : '#d4d4d8' } }
}

// periodLegend reads the hovered period in the dataset's unit ("Nov 30 – Dec 6, 2025").
export const periodLegend = (kind?: string) => (_u: uPlot, v: number | null) => (v == null ? '–' : fmtPeriod(kind, v))

// useChart builds a uPlot in the returned ref and rebuilds it when make's inputs or the theme
// change; it follows the container's width, so the chart fits a 390 px phone.
export function useChart(make: (width: number, theme: string) => { opts: uPlot.Options; data: uPlot.AlignedData }, deps: unknown[]) {
  const ref = useRef<HTMLDivElement>(null)
  const theme = useTheme()
  useEffect(() => {
    const el = ref.current
    if (!el) return
    const { opts, data } = make(el.clientWidth || 800, theme)
    const plot = new uPlot(opts, data, el)
    const ro = new ResizeObserver(() => el.clientWidth && el.clientWidth !== plot.width && plot.setSize({ width: el.clientWidth, height: plot.height }))
    ro.observe(el)
    return () => {
      ro.disconnect()
      plot.destroy()
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, theme])
  return ref
}

// RankChart draws ranks on a log scale with rank 1 at the top; missing periods stay gaps.
// Drag across the chart to zoom into a range; double-click to zoom out.
export function RankChart({ xs, series, title, kind, xIsDate = true }: { xs: number[]; series: Series[]; title: string; kind?: string; xIsDate?: boolean }) {
  const ref = useChart(
    (width, theme) => {
      const axis = axisColours(theme)
      return {
        opts: {
          title,
          width,
          height: 320,
          scales: { x: { time: xIsDate }, y: { distr: 3, dir: -1 } },
          axes: [axis, { ...axis, label: 'Search frequency rank (1 = most searched)', size: 70 }],
          series: [
            xIsDate ? { label: 'Period', value: periodLegend(kind) } : { label: 'Week of year' },
            ...series.map((s, i) => ({ label: s.label, stroke: PALETTE[i % PALETTE.length], width: 2, spanGaps: false, value: (_u: uPlot, v: number | null) => (v == null ? 'absent' : `#${v.toLocaleString()}`) })),
          ],
        },
        data: [xs, ...series.map((s) => s.values)] as uPlot.AlignedData,
      }
    },
    [xs, series, title, xIsDate, kind],
  )
  return <div ref={ref} className="w-full min-w-0 overflow-hidden" role="img" aria-label={`${title}: ${series.map((s) => s.label).join(', ')}`} />
}
