import { Link, useNavigate } from '@tanstack/react-router'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { authClient } from '../../../lib/auth-client'
import { useAuth } from '../../../lib/auth'
import { useSelection } from '../../../lib/selection'
import { useDocumentTitle } from '../../../lib/document-title'
import { Button } from '../../../components/ui/button'
import { Card, ErrorState, Skeleton } from '../../../components/ui/states'
import { call, fullOrganizationQuery, rolesQuery, type FullOrganization } from '../api/organization'
import { CreateOrganization } from './create-organization'
import { GeneralSection } from './general-section'
import { MembersSection } from './members-section'
import { TeamsSection } from './teams-section'
import { RolesSection } from './roles-section'

// WorkspaceSettingsPage: the selected organization's settings (name, slug, logo, members and
// invitations, teams, custom roles, leave or delete); on the personal workspace or the demo, the
// organizations one belongs to and a form to create one.
export function WorkspaceSettingsPage() {
  const sel = useSelection()
  const org = sel.workspace?.kind === 'organization' ? sel.workspace : undefined
  useDocumentTitle(org ? `${org.name} settings` : 'Workspaces')
  if (sel.isLoading) return <Skeleton rows={4} />
  if (!org) {
    const orgs = sel.workspaces.filter((w) => w.kind === 'organization')
    return (
      <div className="space-y-6">
        <h1 className="text-2xl font-semibold">Workspaces</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Your personal workspace is yours alone. An organization is a workspace you share: its members read its reports and watchlist; admins and owners import and delete.
        </p>
        {orgs.length > 0 && (
          <Card title="Your organizations">
            <ul className="space-y-1 text-sm">
              {orgs.map((w) => (
                <li key={w.id}>
                  <Link to="/dashboard/workspace" search={{ ws: w.id }} className="text-indigo-600 underline dark:text-indigo-400">{w.name}</Link> <span className="text-zinc-500">· {w.role}</span>
                </li>
              ))}
            </ul>
          </Card>
        )}
        <Card title="Create an organization">
          <CreateOrganization />
        </Card>
      </div>
    )
  }
  return <OrganizationSettings id={org.id} role={org.role} />
}

function OrganizationSettings({ id, role }: { id: string; role: string }) {
  const { user } = useAuth()
  const full = useQuery(fullOrganizationQuery(id))
  const roles = useQuery(rolesQuery(id))
  if (full.isPending) return <Skeleton rows={6} />
  if (full.error) return <ErrorState error={full.error} retry={() => full.refetch()} />
  const org = full.data
  const mine = role.split(',').map((r) => r.trim())
  // Owners and admins see the controls; the server decides every call (custom roles included).
  const manage = mine.includes('owner') || mine.includes('admin')
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold break-words">{org.name}: settings</h1>
      <GeneralSection key={`${org.id}-${org.name}-${org.slug}-${org.logo}`} org={org} manage={manage} />
      <MembersSection org={org} me={user?.id ?? ''} roles={roles.data?.map((r) => r.role) ?? []} manage={manage} />
      <TeamsSection org={org} manage={manage} />
      <RolesSection org={org} manage={manage} />
      <DangerZone org={org} owner={mine.includes('owner')} />
    </div>
  )
}

// DangerZone: leave (the last owner cannot: the server says so) and delete (owners), each
// confirmed first; afterwards the dashboard shows the personal workspace.
function DangerZone({ org, owner }: { org: FullOrganization; owner: boolean }) {
  const navigate = useNavigate()
  const qc = useQueryClient()
  async function run(what: 'leave' | 'delete') {
    const question = what === 'leave' ? `Leave ${org.name}? You lose access to its reports and watchlist.` : `Delete ${org.name} for every member, with its watchlist and settings? This cannot be undone.`
    if (!confirm(question)) return
    try {
      if (what === 'leave') await call(authClient.organization.leave({ organizationId: org.id }))
      else await call(authClient.organization.delete({ organizationId: org.id }))
      toast.success(what === 'leave' ? `You left ${org.name}` : `${org.name} deleted`)
      await qc.invalidateQueries({ queryKey: ['workspaces'] })
      await navigate({ to: '/dashboard/workspace', search: {} })
    } catch (e) {
      toast.error((e as Error).message)
    }
  }
  return (
    <Card title="Leave or delete">
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" onClick={() => run('leave')}>Leave organization</Button>
        {owner && (
          <Button variant="secondary" className="text-red-700 dark:text-red-400" onClick={() => run('delete')}>
            Delete organization
          </Button>
        )}
      </div>
    </Card>
  )
}
