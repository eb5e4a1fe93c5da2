import { useNavigate } from '@tanstack/react-router'
import { useSelection } from '../../../lib/selection'

export function DatasetBar() {
  const sel = useSelection()
  const navigate = useNavigate()
  if (!sel.ws) return null
  return (
    <div className="flex flex-wrap items-center gap-3 text-sm">
      <label className="flex items-center gap-2">
        <span className="text-zinc-600 dark:text-zinc-400">Workspace</span>
        <select
          className="max-w-[14rem] rounded border border-zinc-300 bg-transparent px-2 py-1 dark:border-zinc-700"
          value={sel.ws}
          onChange={(e) => navigate({ to: '.', search: { ws: e.target.value, ds: undefined } })}
        >
          {sel.workspaces.map((w) => (
            <option key={w.id} value={w.id}>
              {w.name}
            </option>
          ))}
        </select>
      </label>
      {sel.datasets.length > 0 && (
        <label className="flex items-center gap-2">
          <span className="text-zinc-600 dark:text-zinc-400">Dataset</span>
          <select
            className="max-w-[14rem] rounded border border-zinc-300 bg-transparent px-2 py-1 dark:border-zinc-700"
            value={sel.dataset?.id}
            onChange={(e) => navigate({ to: '.', search: (prev: object) => ({ ...prev, ws: sel.ws, ds: Number(e.target.value) }) })}
          >
            {sel.datasets.map((d) => (
              <option key={d.id} value={d.id}>
                {d.marketplace} · {d.kind}
              </option>
            ))}
          </select>
        </label>
      )}
      {sel.isDemo && <span className="rounded bg-violet-100 px-2 py-0.5 text-xs font-medium text-violet-900 dark:bg-violet-900 dark:text-violet-100">Demo data</span>}
    </div>
  )
}
