// Drives the official better-auth client with organizationClient (teams and dynamic access
// control on) against the Go server at argv[2]: an owner creates an organization, invites a
// second user who accepts and sets it active, teams and a custom role follow. One JSON line per step.
import { createAuthClient } from 'better-auth/client'
import { organizationClient } from 'better-auth/client/plugins'

const [base] = process.argv.slice(2)

// Each user is a client with its own cookie jar.
function user() {
  const jar = new Map()
  const customFetchImpl = async (input, init = {}) => {
    const headers = new Headers(init.headers)
    headers.set('origin', base)
    if (jar.size) headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '))
    const res = await fetch(input, { ...init, headers })
    for (const sc of res.headers.getSetCookie()) {
      const [pair, ...attrs] = sc.split(';')
      const i = pair.indexOf('=')
      if (attrs.some((a) => /max-age=(0|-)/i.test(a.trim()))) jar.delete(pair.slice(0, i))
      else jar.set(pair.slice(0, i), pair.slice(i + 1))
    }
    return res
  }
  return createAuthClient({
    baseURL: base, basePath: '/api/auth',
    plugins: [organizationClient({ teams: { enabled: true }, dynamicAccessControl: { enabled: true } })],
    fetchOptions: { customFetchImpl },
  })
}
const out = (step, value) => console.log(JSON.stringify({ step, ...value }))
const err = (r) => (r.error ? { status: r.error.status, code: r.error.code } : null)

const owner = user()
const guest = user()
let r = await owner.signUp.email({ email: 'owner@example.com', password: 'password123', name: 'Owner' })
out('owner-sign-up', { error: err(r) })
r = await guest.signUp.email({ email: 'guest@example.com', password: 'password123', name: 'Guest' })
out('guest-sign-up', { error: err(r) })
const guestId = r.data?.user?.id

r = await owner.organization.checkSlug({ slug: 'client-org' })
out('check-slug', { error: err(r), status: r.data?.status })
r = await owner.organization.create({ name: 'Client Org', slug: 'client-org' })
out('create', { error: err(r), name: r.data?.name, slug: r.data?.slug, members: r.data?.members?.length, role: r.data?.members?.[0]?.role })
const orgId = r.data?.id
r = await owner.organization.checkSlug({ slug: 'client-org' })
out('check-slug-taken', { error: err(r) })
r = await owner.getSession({ query: { disableCookieCache: true } })
out('owner-session', { active: r.data?.session?.activeOrganizationId === orgId })
r = await owner.organization.list()
out('list', { error: err(r), count: r.data?.length })

r = await owner.organization.inviteMember({ email: 'guest@example.com', role: 'member' })
out('invite', { error: err(r), status: r.data?.status, role: r.data?.role })
const invitationId = r.data?.id
r = await guest.organization.getInvitation({ query: { id: invitationId } })
out('get-invitation', { error: err(r), organizationName: r.data?.organizationName, inviterEmail: r.data?.inviterEmail })
r = await owner.organization.acceptInvitation({ invitationId })
out('accept-by-owner', { error: err(r) })
r = await guest.organization.acceptInvitation({ invitationId })
out('accept', { error: err(r), role: r.data?.member?.role, status: r.data?.invitation?.status })
r = await guest.organization.setActive({ organizationId: orgId })
out('set-active', { error: err(r), id: r.data?.id === orgId, members: r.data?.members?.length })
r = await guest.organization.getActiveMember()
out('get-active-member', { error: err(r), role: r.data?.role })
r = await guest.organization.getActiveMemberRole()
out('get-active-member-role', { error: err(r), role: r.data?.role })
r = await guest.organization.inviteMember({ email: 'third@example.com', role: 'member' })
out('member-invites', { error: err(r) })

r = await owner.organization.createTeam({ name: 'Research' })
out('create-team', { error: err(r), name: r.data?.name })
const teamId = r.data?.id
r = await owner.organization.addTeamMember({ teamId, userId: guestId })
out('add-team-member', { error: err(r), teamId: r.data?.teamId === teamId })
r = await guest.organization.listUserTeams()
out('list-user-teams', { error: err(r), count: r.data?.length })
r = await guest.organization.setActiveTeam({ teamId })
out('set-active-team', { error: err(r) })
r = await guest.getSession({ query: { disableCookieCache: true } })
out('guest-session', { activeTeam: r.data?.session?.activeTeamId === teamId, activeOrg: r.data?.session?.activeOrganizationId === orgId })
r = await owner.organization.listTeams()
out('list-teams', { error: err(r), count: r.data?.length })

r = await owner.organization.createRole({ role: 'analyst', permission: { dataset: ['read', 'import'], watchlist: ['read'] } })
out('create-role', { error: err(r), success: r.data?.success, role: r.data?.roleData?.role })
r = await owner.organization.listRoles()
out('list-roles', { error: err(r), count: r.data?.length })
r = await owner.organization.getRole({ query: { roleName: 'analyst' } })
out('get-role', { error: err(r), import: r.data?.permission?.dataset?.includes('import') })
r = await guest.organization.hasPermission({ permissions: { dataset: ['import'] } })
out('has-permission-before', { error: err(r), success: r.data?.success })
r = await owner.organization.listMembers()
const guestMember = r.data?.members?.find((m) => m.userId === guestId)
out('list-members', { error: err(r), total: r.data?.total })
r = await owner.organization.updateMemberRole({ memberId: guestMember?.id, role: 'analyst' })
out('update-member-role', { error: err(r), role: r.data?.role })
r = await guest.organization.hasPermission({ permissions: { dataset: ['import'] } })
out('has-permission-after', { error: err(r), success: r.data?.success })
r = await guest.organization.deleteRole({ roleName: 'analyst' })
out('member-deletes-role', { error: err(r) })

r = await guest.organization.leave({ organizationId: orgId })
out('leave', { error: err(r) })
r = await owner.organization.leave({ organizationId: orgId })
out('last-owner-leaves', { error: err(r) })
r = await owner.organization.delete({ organizationId: orgId })
out('delete', { error: err(r) })
r = await owner.organization.list()
out('list-after', { error: err(r), count: r.data?.length })
