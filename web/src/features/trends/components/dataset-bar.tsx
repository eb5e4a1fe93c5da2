import { Link, useNavigate } from '@tanstack/react-router'
import { authClient } from '../../../lib/auth-client'
import { useSelection } from '../../../lib/selection'

// The workspace switcher: the personal workspace, the organizations one belongs to, the demo.
// Choosing an organization also makes it the session's active organization (Better Auth's
// activeOrganizationId), so other clients of the account see the same choice.
export function DatasetBar() {
  const sel = useSelection()
  const navigate = useNavigate()
  if (!sel.ws) return null
  const groups = [
    { label: 'Personal', items: sel.workspaces.filter((w) => w.kind === 'personal') },
    { label: 'Organizations', items: sel.workspaces.filter((w) => w.kind === 'organization') },
    { label: 'Demo', items: sel.workspaces.filter((w) => w.demo) },
  ].filter((g) => g.items.length > 0)
  function choose(id: string) {
    const org = sel.workspaces.find((w) => w.id === id)?.kind === 'organization'
    void authClient.organization.setActive({ organizationId: org ? id : null })
    navigate({ to: '.', search: { ws: id, ds: undefined } })
  }
  return (
    <div className="flex flex-wrap items-center gap-3 text-sm">
      <label className="flex items-center gap-2">
        <span className="text-zinc-600 dark:text-zinc-400">Workspace</span>
        <select
          className="max-w-[14rem] rounded border border-zinc-300 bg-transparent px-2 py-1 dark:border-zinc-700"
          value={sel.ws}
          onChange={(e) => choose(e.target.value)}
        >
          {groups.map((g) => (
            <optgroup key={g.label} label={g.label}>
              {g.items.map((w) => (
                <option key={w.id} value={w.id}>
                  {w.name}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </label>
      <Link to="/dashboard/workspace" search={{ ws: sel.ws }} className="text-indigo-600 underline dark:text-indigo-400">
        {sel.workspace?.kind === 'organization' ? 'Settings' : 'Organizations'}
      </Link>
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
