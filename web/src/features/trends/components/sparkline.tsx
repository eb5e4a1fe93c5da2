// A tiny inline SVG of the last periods' ranks: rank 1 at the top, log scale, gaps left empty.
export function Sparkline({ values, label }: { values: (number | null)[]; label: string }) {
  const pts = values.map((v, i) => (v == null ? null : { x: i, y: Math.log10(v) }))
  const ys = pts.filter(Boolean).map((p) => p!.y)
  if (ys.length === 0) return <span className="text-xs text-zinc-400">still collecting</span>
  const lo = Math.min(...ys), hi = Math.max(...ys), span = hi - lo || 1
  const w = 80, h = 20
  const x = (i: number) => (i / Math.max(values.length - 1, 1)) * w
  const y = (v: number) => ((v - lo) / span) * (h - 2) + 1
  let d = ''
  let pen = false
  for (const p of pts) {
    if (!p) { pen = false; continue }
    d += `${pen ? 'L' : 'M'}${x(p.x).toFixed(1)},${y(p.y).toFixed(1)}`
    pen = true
  }
  return (
    <svg width={w} height={h} role="img" aria-label={label} className="text-indigo-600 dark:text-indigo-400">
      <path d={d} fill="none" stroke="currentColor" strokeWidth="1.5" />
    </svg>
  )
}
