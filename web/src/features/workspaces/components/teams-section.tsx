import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { authClient } from '../../../lib/auth-client'
import { Button } from '../../../components/ui/button'
import { Field } from '../../../components/ui/field'
import { Card } from '../../../components/ui/states'
import { call, teamMembersQuery, teamsQuery, type FullOrganization, type Team } from '../api/organization'
import { selectClass, useOrgAction } from './use-org-action'

// TeamsSection: teams of the organization and their members (admins and owners manage them).
export function TeamsSection({ org, manage }: { org: FullOrganization; manage: boolean }) {
  const teams = useQuery(teamsQuery(org.id))
  const [name, setName] = useState('')
  const create = useOrgAction((n: string) => call(authClient.organization.createTeam({ organizationId: org.id, name: n })), 'Team created')
  return (
    <Card title="Teams">
      {manage && (
        <form
          className="mb-4 flex flex-wrap items-end gap-2"
          aria-label="Create a team"
          onSubmit={(e) => {
            e.preventDefault()
            create.mutate(name.trim(), { onSuccess: () => setName('') })
          }}
        >
          <div className="min-w-0 flex-1 basis-56">
            <Field label="Team name" required minLength={2} maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
          </div>
          <Button type="submit" disabled={create.isPending}>Create team</Button>
        </form>
      )}
      {teams.error && <p role="alert" className="text-sm text-red-600">{teams.error.message}</p>}
      {teams.data?.length === 0 && <p className="text-sm text-zinc-500">No teams yet.</p>}
      <ul className="space-y-3">
        {teams.data?.map((t) => <TeamRow key={t.id} org={org} team={t} manage={manage} />)}
      </ul>
    </Card>
  )
}

function TeamRow({ org, team, manage }: { org: FullOrganization; team: Team; manage: boolean }) {
  const members = useQuery(teamMembersQuery(org.id, team.id))
  const [pick, setPick] = useState('')
  const remove = useOrgAction(() => call(authClient.organization.removeTeam({ organizationId: org.id, teamId: team.id })), 'Team removed')
  const add = useOrgAction((userId: string) => call(authClient.organization.addTeamMember({ teamId: team.id, userId })), 'Added to the team')
  const drop = useOrgAction((userId: string) => call(authClient.organization.removeTeamMember({ teamId: team.id, userId })), 'Removed from the team')
  const inTeam = new Set(members.data?.map((m) => m.userId))
  return (
    <li className="rounded border border-zinc-200 p-3 dark:border-zinc-800">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="font-medium">{team.name}</span>
        <Link to="/dashboard/watchlist" search={{ ws: org.id, team: team.id }} className="text-sm text-indigo-600 underline dark:text-indigo-400">Team watchlist</Link>
        {manage && <Button variant="ghost" onClick={() => confirm(`Remove the team ${team.name}?`) && remove.mutate(undefined)}>Remove team</Button>}
      </div>
      <p className="mt-1 text-xs text-zinc-500">Its watchlist’s alert digests go to these members only.</p>
      {members.error && <p role="alert" className="mt-2 text-sm text-red-600">{members.error.message}</p>}
      <ul className="mt-2 flex flex-wrap gap-2 text-sm" aria-label={`Members of ${team.name}`}>
        {members.data?.map((m) => (
          <li key={m.userId} className="flex items-center gap-1 rounded bg-zinc-100 px-2 py-0.5 dark:bg-zinc-800">
            <span className="break-all">{m.email}</span>
            {manage && <button type="button" aria-label={`Remove ${m.email} from ${team.name}`} className="px-1" onClick={() => drop.mutate(m.userId)}>✕</button>}
          </li>
        ))}
        {members.data?.length === 0 && <li className="text-zinc-500">No members yet.</li>}
      </ul>
      {manage && (
        <div className="mt-2 flex flex-wrap items-center gap-2">
          <select aria-label={`Add a member to ${team.name}`} className={selectClass} value={pick} onChange={(e) => setPick(e.target.value)}>
            <option value="">Add a member…</option>
            {org.members.filter((m) => !inTeam.has(m.userId)).map((m) => <option key={m.userId} value={m.userId}>{m.user.email}</option>)}
          </select>
          <Button variant="secondary" disabled={!pick || add.isPending} onClick={() => add.mutate(pick, { onSuccess: () => setPick('') })}>Add</Button>
        </div>
      )}
    </li>
  )
}
