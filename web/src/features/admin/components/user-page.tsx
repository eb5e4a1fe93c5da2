import { useState, type FormEvent, type ReactNode } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link, useNavigate } from '@tanstack/react-router'
import { toast } from 'sonner'
import { authClient } from '../../../lib/auth-client'
import { useAuth } from '../../../lib/auth'
import { Card, ErrorState, Skeleton } from '../../../components/ui/states'
import { Button } from '../../../components/ui/button'
import { Field } from '../../../components/ui/field'
import { fmtDate } from '../../../lib/format'
import { describeAgent } from '../../../lib/user-agent'
import { unwrap, type AdminUser } from '../api'

const banLengths = [
  { label: 'Until lifted', seconds: 0 },
  { label: '1 hour', seconds: 3600 },
  { label: '1 day', seconds: 86400 },
  { label: '7 days', seconds: 7 * 86400 },
  { label: '30 days', seconds: 30 * 86400 },
]

// One user, for an admin: sessions (revoke), role, ban or unban, password, impersonation and
// deletion. Every action is checked again by the server.
export function UserPage({ id }: { id: string }) {
  const qc = useQueryClient()
  const navigate = useNavigate()
  const { user: me, refresh } = useAuth()
  const user = useQuery({ queryKey: ['admin-user', id], queryFn: () => unwrap(authClient.admin.getUser({ query: { id } })) as Promise<AdminUser> })
  const sessions = useQuery({ queryKey: ['admin-sessions', id], queryFn: () => unwrap(authClient.admin.listUserSessions({ userId: id })) })
  const changed = (msg: string) => {
    toast.success(msg)
    qc.invalidateQueries({ queryKey: ['admin-user', id] })
    qc.invalidateQueries({ queryKey: ['admin-sessions', id] })
    qc.invalidateQueries({ queryKey: ['admin-users'] })
  }
  const act = useMutation({
    mutationFn: async (f: () => Promise<string>) => f(),
    onSuccess: (msg) => changed(msg),
    onError: (e) => toast.error(e.message),
  })
  if (user.isPending) return <Skeleton rows={6} label="Loading the user" />
  if (user.error) return <ErrorState error={user.error} retry={() => user.refetch()} />
  const u = user.data
  const self = me?.id === u.id
  const impersonate = async () => {
    try {
      await unwrap(authClient.admin.impersonateUser({ userId: u.id }))
      await refresh()
      qc.clear()
      toast.success(`You are now signed in as ${u.email}`)
      await navigate({ to: '/dashboard' })
    } catch (err) {
      toast.error((err as Error).message)
    }
  }
  return (
    <section aria-labelledby="admin-user-title" className="grid gap-4 lg:grid-cols-2">
      <div className="lg:col-span-2">
        <Link to="/admin" className="text-sm text-indigo-700 hover:underline dark:text-indigo-300">← All users</Link>
        <h1 id="admin-user-title" className="mt-1 text-2xl font-semibold break-words">{u.name || u.email}</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400 break-words">
          {u.email} · {u.emailVerified ? 'verified' : 'not verified'} · joined {fmtDate(String(u.createdAt))} · role {u.role || 'user'}
        </p>
      </div>
      <Card title="Ban">
        {u.banned ? (
          <div className="space-y-2 text-sm">
            <p role="status">
              Banned: {u.banReason || 'no reason given'}
              {u.banExpires ? ` · until ${new Date(String(u.banExpires)).toLocaleString()}` : ' · until lifted'}
            </p>
            <Button variant="secondary" onClick={() => act.mutate(async () => { await unwrap(authClient.admin.unbanUser({ userId: u.id })); return 'Ban lifted' })}>Unban</Button>
          </div>
        ) : (
          <BanForm disabled={self} onBan={(reason, seconds) => act.mutate(async () => {
            await unwrap(authClient.admin.banUser({ userId: u.id, banReason: reason || undefined, banExpiresIn: seconds || undefined }))
            return 'User banned and signed out everywhere'
          })} />
        )}
      </Card>
      <Card title="Role">
        <RoleForm role={u.role || 'user'} disabled={self} onSave={(role) => act.mutate(async () => {
          await unwrap(authClient.admin.setRole({ userId: u.id, role }))
          return `Role set to ${role}`
        })} />
      </Card>
      <Card title="Password">
        <PasswordForm onSave={(pw) => act.mutate(async () => { await unwrap(authClient.admin.setUserPassword({ userId: u.id, newPassword: pw })); return 'Password set' })} />
      </Card>
      <Card title="Act as this user">
        <p className="mb-2 text-sm">See the app as {u.email} sees it, for an hour at most. A banner on every page lets you stop.</p>
        <Button variant="secondary" disabled={self || !!u.banned} onClick={impersonate}>Impersonate</Button>
      </Card>
      <Card title="Sessions" action={<Button variant="secondary" onClick={() => confirm(`Sign ${u.email} out everywhere?`) && act.mutate(async () => { await unwrap(authClient.admin.revokeUserSessions({ userId: u.id })); return 'All sessions revoked' })}>Revoke all</Button>}>
        {sessions.isPending ? <Skeleton rows={2} /> : sessions.error ? <ErrorState error={sessions.error} retry={() => sessions.refetch()} /> : sessions.data.sessions.length === 0 ? (
          <p className="text-sm">No active sessions.</p>
        ) : (
          <ul className="divide-y divide-zinc-100 text-sm dark:divide-zinc-800">
            {sessions.data.sessions.map((s) => (
              <li key={s.id} className="flex items-center justify-between gap-2 py-2">
                <span className="min-w-0 break-words">
                  {describeAgent(s.userAgent)} · {s.ipAddress || 'unknown IP'}
                  {(s as { impersonatedBy?: string | null }).impersonatedBy && <span className="ml-2 rounded bg-amber-100 px-1.5 text-xs text-amber-900">impersonation</span>}
                  <span className="block text-xs text-zinc-500">since {fmtDate(String(s.createdAt))} · expires {fmtDate(String(s.expiresAt))}</span>
                </span>
                <Button variant="ghost" onClick={() => act.mutate(async () => { await unwrap(authClient.admin.revokeUserSession({ sessionToken: s.token })); return 'Session revoked' })}>Revoke</Button>
              </li>
            ))}
          </ul>
        )}
      </Card>
      <Card title="Delete">
        <p className="mb-2 text-sm">Removes the user, their sessions, sign-in methods and personal workspace. This cannot be undone.</p>
        <Button variant="secondary" disabled={self} className="text-red-700 dark:text-red-400" onClick={async () => {
          if (!confirm(`Delete ${u.email} and all their data? This cannot be undone.`)) return
          try {
            await unwrap(authClient.admin.removeUser({ userId: u.id }))
            qc.invalidateQueries({ queryKey: ['admin-users'] })
            toast.success(`${u.email} was deleted`)
            await navigate({ to: '/admin' })
          } catch (err) {
            toast.error((err as Error).message)
          }
        }}>Delete user</Button>
      </Card>
    </section>
  )
}

function Form({ onSubmit, children }: { onSubmit: () => void; children: ReactNode }) {
  return <form className="space-y-3" onSubmit={(e: FormEvent) => { e.preventDefault(); onSubmit() }}>{children}</form>
}

function BanForm({ onBan, disabled }: { onBan: (reason: string, seconds: number) => void; disabled: boolean }) {
  const [reason, setReason] = useState('')
  const [seconds, setSeconds] = useState(0)
  return (
    <Form onSubmit={() => confirm('Ban this user and sign them out everywhere?') && onBan(reason, seconds)}>
      <Field label="Reason" value={reason} onChange={(e) => setReason(e.target.value)} maxLength={500} placeholder="shown to other admins" />
      <label className="block text-sm font-medium">
        For
        <select value={seconds} onChange={(e) => setSeconds(Number(e.target.value))} className="mt-1 block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-900">
          {banLengths.map((b) => <option key={b.seconds} value={b.seconds}>{b.label}</option>)}
        </select>
      </label>
      <Button type="submit" disabled={disabled}>Ban user</Button>
      {disabled && <p className="text-xs text-zinc-500">You cannot ban yourself.</p>}
    </Form>
  )
}

function RoleForm({ role, onSave, disabled }: { role: string; onSave: (role: 'user' | 'admin') => void; disabled: boolean }) {
  const [value, setValue] = useState(role.split(',').includes('admin') ? 'admin' : 'user')
  return (
    <Form onSubmit={() => onSave(value as 'user' | 'admin')}>
      <label className="block text-sm font-medium">
        Role
        <select value={value} onChange={(e) => setValue(e.target.value)} disabled={disabled} className="mt-1 block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-900">
          <option value="user">User: uses the app</option>
          <option value="admin">Admin: also manages users</option>
        </select>
      </label>
      <Button type="submit" disabled={disabled}>Save role</Button>
    </Form>
  )
}

function PasswordForm({ onSave }: { onSave: (pw: string) => void }) {
  const [pw, setPw] = useState('')
  return (
    <Form onSubmit={() => { onSave(pw); setPw('') }}>
      <Field label="New password" type="password" autoComplete="new-password" minLength={8} value={pw} onChange={(e) => setPw(e.target.value)} required />
      <Button type="submit">Set password</Button>
    </Form>
  )
}
