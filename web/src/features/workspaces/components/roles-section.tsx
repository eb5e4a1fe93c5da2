import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { authClient } from '../../../lib/auth-client'
import { roleResources } from '../../../lib/workspaces'
import { Button } from '../../../components/ui/button'
import { Field } from '../../../components/ui/field'
import { Card } from '../../../components/ui/states'
import { call, rolesQuery, type FullOrganization } from '../api/organization'
import { useOrgAction } from './use-org-action'

type Grid = Record<string, string[]>

// RolesSection: custom roles (dynamic access control) with a permission grid. The server grants
// a role only what its author holds.
export function RolesSection({ org, manage }: { org: FullOrganization; manage: boolean }) {
  const roles = useQuery(rolesQuery(org.id))
  const [name, setName] = useState('')
  const [grid, setGrid] = useState<Grid>({ dataset: ['read'], watchlist: ['read'] })
  const create = useOrgAction(() => call(authClient.organization.createRole({ organizationId: org.id, role: name.trim(), permission: grid })), 'Role created')
  const remove = useOrgAction((roleName: string) => call(authClient.organization.deleteRole({ organizationId: org.id, roleName })), 'Role deleted')
  const toggle = (res: string, action: string) =>
    setGrid((g) => {
      const has = (g[res] ?? []).includes(action)
      const next = has ? (g[res] ?? []).filter((a) => a !== action) : [...(g[res] ?? []), action]
      const out = { ...g, [res]: next }
      if (next.length === 0) delete out[res]
      return out
    })
  return (
    <Card title="Custom roles">
      {roles.error && <p role="alert" className="text-sm text-red-600">{roles.error.message}</p>}
      {roles.data?.length === 0 && <p className="text-sm text-zinc-500">Only the built-in roles: owner, admin and member.</p>}
      <ul className="mb-4 space-y-2 text-sm">
        {roles.data?.map((r) => (
          <li key={r.id} className="flex flex-wrap items-center justify-between gap-2 rounded border border-zinc-200 p-2 dark:border-zinc-800">
            <span className="min-w-0">
              <span className="font-medium">{r.role}</span>{' '}
              <span className="text-zinc-500">{Object.entries(r.permission).map(([res, a]) => `${res}: ${a.join(', ')}`).join(' · ')}</span>
            </span>
            {manage && <Button variant="ghost" onClick={() => confirm(`Delete the role ${r.role}?`) && remove.mutate(r.role)}>Delete</Button>}
          </li>
        ))}
      </ul>
      {manage && (
        <form
          className="space-y-3"
          aria-label="Create a role"
          onSubmit={(e) => {
            e.preventDefault()
            create.mutate(undefined, { onSuccess: () => setName('') })
          }}
        >
          <div className="max-w-md">
            <Field label="Role name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
          </div>
          <div className="relative overflow-x-auto">
            <table className="text-sm" aria-label="Permissions">
              <tbody>
                {Object.entries(roleResources).map(([res, actions]) => (
                  <tr key={res} className="border-t border-zinc-100 dark:border-zinc-800">
                    <th scope="row" className="py-1 pr-3 text-left font-medium">{res}</th>
                    <td className="py-1">
                      <span className="flex flex-wrap gap-x-3 gap-y-1">
                        {actions.map((a) => (
                          <label key={a} className="flex items-center gap-1">
                            <input type="checkbox" checked={(grid[res] ?? []).includes(a)} onChange={() => toggle(res, a)} aria-label={`${res} ${a}`} />
                            {a}
                          </label>
                        ))}
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Button type="submit" disabled={create.isPending || !name.trim() || Object.keys(grid).length === 0}>Create role</Button>
        </form>
      )}
    </Card>
  )
}
