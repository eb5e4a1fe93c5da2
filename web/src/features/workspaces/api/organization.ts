import { queryOptions } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { authClient } from '../../../lib/auth-client'

// The organization plugin through the official client. Every call throws the server's message
// on failure, so a mutation's error reads as the sentence the server wrote.
type Result<T> = { data: T | null; error: { message?: string; status?: number } | null }

export async function call<T>(p: Promise<Result<T>>): Promise<T> {
  const { data, error } = await p
  if (error) throw new Error(error.message || 'Something went wrong: try again.')
  return data as T
}

export interface OrgUser { id: string; name: string; email: string; image?: string | null }
export interface OrgMember { id: string; organizationId: string; userId: string; role: string; createdAt: string; user: OrgUser }
export interface OrgInvitation { id: string; email: string; role: string | null; status: string; expiresAt: string; teamId?: string | null }
export interface FullOrganization {
  id: string; name: string; slug: string; logo: string | null; createdAt: string
  members: OrgMember[]; invitations: OrgInvitation[]
}
export interface Team { id: string; name: string; organizationId: string; createdAt: string }
export interface TeamPerson { userId: string; name: string; email: string }
export interface OrgRole { id: string; role: string; permission: Record<string, string[]> }
export interface InvitationDetails {
  id: string; email: string; role: string | null; status: string; organizationId: string
  organizationName: string; organizationSlug: string; inviterEmail: string; expiresAt: string
}

export const orgKeys = {
  full: (id: string) => ['organization', id, 'full'] as const,
  teams: (id: string) => ['organization', id, 'teams'] as const,
  teamMembers: (id: string, team: string) => ['organization', id, 'teams', team] as const,
  roles: (id: string) => ['organization', id, 'roles'] as const,
}

export const fullOrganizationQuery = (organizationId: string) =>
  queryOptions({
    queryKey: orgKeys.full(organizationId),
    queryFn: () => call(authClient.organization.getFullOrganization({ query: { organizationId } }) as Promise<Result<FullOrganization>>),
  })

export const teamsQuery = (organizationId: string) =>
  queryOptions({
    queryKey: orgKeys.teams(organizationId),
    queryFn: () => call(authClient.organization.listTeams({ query: { organizationId } }) as Promise<Result<Team[]>>),
  })

// A team's members come from our API: Better Auth's list-team-members answers only the team's
// own members, and the owners and admins who manage the team need the list too.
export const teamMembersQuery = (organizationId: string, teamId: string) =>
  queryOptions({
    queryKey: orgKeys.teamMembers(organizationId, teamId),
    queryFn: async () =>
      (await api<{ members: TeamPerson[] }>(`/api/workspaces/${encodeURIComponent(organizationId)}/team-members?team=${encodeURIComponent(teamId)}`)).members,
  })

export const rolesQuery = (organizationId: string) =>
  queryOptions({
    queryKey: orgKeys.roles(organizationId),
    queryFn: () => call(authClient.organization.listRoles({ query: { organizationId } }) as Promise<Result<OrgRole[]>>),
  })

export const invitationQuery = (id: string) =>
  queryOptions({
    queryKey: ['invitation', id],
    queryFn: () => call(authClient.organization.getInvitation({ query: { id } }) as Promise<Result<InvitationDetails>>),
    retry: false,
  })
