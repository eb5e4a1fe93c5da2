import { useState } from 'react'
import { authClient } from '../../../lib/auth-client'
import { builtInRoles } from '../../../lib/workspaces'
import { Button } from '../../../components/ui/button'
import { Field } from '../../../components/ui/field'
import { Card } from '../../../components/ui/states'
import { call, type FullOrganization } from '../api/organization'
import { selectClass, useOrgAction } from './use-org-action'

// MembersSection lists members with their roles (changeable by admins and owners), and the
// invitations: send, resend, cancel. Seats are the plan's: the server refuses past them.
export function MembersSection({ org, me, roles, manage }: { org: FullOrganization; me: string; roles: string[]; manage: boolean }) {
  const allRoles = [...builtInRoles, ...roles.filter((r) => !(builtInRoles as readonly string[]).includes(r))]
  const setRole = useOrgAction((a: { memberId: string; role: string }) => call(authClient.organization.updateMemberRole({ organizationId: org.id, memberId: a.memberId, role: a.role as 'member' })), 'Role changed')
  const remove = useOrgAction((memberIdOrEmail: string) => call(authClient.organization.removeMember({ organizationId: org.id, memberIdOrEmail })), 'Member removed')
  return (
    <Card title={`Members (${org.members.length})`}>
      <div className="relative overflow-x-auto">
        <table className="w-full text-sm">
          <thead>
            <tr className="text-left">
              <th scope="col">Member</th>
              <th scope="col">Role</th>
              <th scope="col"><span className="sr-only">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            {org.members.map((m) => (
              <tr key={m.id} className="border-t border-zinc-100 dark:border-zinc-800">
                <td className="py-2 pr-2">
                  <span className="block font-medium">{m.user.name || m.user.email}{m.userId === me ? ' (you)' : ''}</span>
                  <span className="block break-all text-xs text-zinc-500">{m.user.email}</span>
                </td>
                <td className="py-2 pr-2">
                  {manage && m.userId !== me ? (
                    <select aria-label={`Role of ${m.user.email}`} className={selectClass} value={m.role} onChange={(e) => setRole.mutate({ memberId: m.id, role: e.target.value })}>
                      {(allRoles.includes(m.role) ? allRoles : [m.role, ...allRoles]).map((r) => <option key={r}>{r}</option>)}
                    </select>
                  ) : (
                    m.role
                  )}
                </td>
                <td className="py-2 text-right">
                  {manage && m.userId !== me && (
                    <Button variant="ghost" onClick={() => confirm(`Remove ${m.user.email} from ${org.name}?`) && remove.mutate(m.id)}>
                      Remove
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {manage && <Invitations org={org} roles={allRoles} />}
    </Card>
  )
}

function Invitations({ org, roles }: { org: FullOrganization; roles: string[] }) {
  const [email, setEmail] = useState('')
  const [role, setRole] = useState('member')
  const invite = useOrgAction(
    (a: { email: string; role: string; resend?: boolean }) => call(authClient.organization.inviteMember({ organizationId: org.id, email: a.email, role: a.role as 'member', resend: a.resend })),
    'Invitation sent',
  )
  const cancel = useOrgAction((invitationId: string) => call(authClient.organization.cancelInvitation({ invitationId })), 'Invitation cancelled')
  const pending = org.invitations.filter((v) => v.status === 'pending')
  return (
    <div className="mt-6 space-y-3">
      <h3 className="font-semibold">Invitations</h3>
      <form
        className="flex flex-wrap items-end gap-2"
        aria-label="Invite a member"
        onSubmit={(e) => {
          e.preventDefault()
          invite.mutate({ email: email.trim(), role }, { onSuccess: () => setEmail('') })
        }}
      >
        <div className="min-w-0 flex-1 basis-56">
          <Field label="Email to invite" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </div>
        <label className="space-y-1 text-sm font-medium">
          <span className="block">Role</span>
          <select className={selectClass} value={role} onChange={(e) => setRole(e.target.value)}>
            {roles.map((r) => <option key={r}>{r}</option>)}
          </select>
        </label>
        <Button type="submit" disabled={invite.isPending}>Invite</Button>
      </form>
      {pending.length === 0 ? (
        <p className="text-sm text-zinc-500">No pending invitations.</p>
      ) : (
        <ul className="divide-y divide-zinc-100 text-sm dark:divide-zinc-800">
          {pending.map((v) => (
            <li key={v.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <span className="min-w-0 break-all">
                {v.email} <span className="text-zinc-500">· {v.role ?? 'member'} · expires {new Date(v.expiresAt).toLocaleDateString()}</span>
              </span>
              <span className="flex gap-1">
                <Button variant="ghost" onClick={() => invite.mutate({ email: v.email, role: v.role ?? 'member', resend: true })}>Resend</Button>
                <Button variant="ghost" onClick={() => confirm(`Cancel the invitation of ${v.email}?`) && cancel.mutate(v.id)}>Cancel</Button>
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
