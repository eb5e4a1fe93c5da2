import { useState, type FormEvent, type ReactNode } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { toast } from 'sonner'
import { authClient } from '../../../lib/auth-client'
import { useAuth } from '../../../lib/auth'
import { Card, ErrorState, Skeleton } from '../../../components/ui/states'
import { Button } from '../../../components/ui/button'
import { Field } from '../../../components/ui/field'
import { fmtDate } from '../../../lib/format'
import { describeAgent } from '../../../lib/user-agent'
import { useDocumentTitle } from '../../../lib/document-title'
import { LinkedAccounts } from './linked-accounts'

// Better Auth's client answers {data, error}; this turns an error into a thrown Error for Query.
async function unwrap<T>(p: Promise<{ data: T | null; error: { message?: string } | null }>): Promise<T> {
  const { data, error } = await p
  if (error) throw new Error(error.message ?? 'Request failed')
  return data as T
}

function FormCard({ title, onSubmit, children, pending, submit }: { title: string; onSubmit: () => Promise<unknown>; children: ReactNode; pending?: boolean; submit: string }) {
  const [busy, setBusy] = useState(false)
  const handle = async (e: FormEvent) => {
    e.preventDefault()
    setBusy(true)
    try {
      await onSubmit()
    } catch (err) {
      toast.error((err as Error).message)
    } finally {
      setBusy(false)
    }
  }
  return (
    <Card title={title}>
      <form onSubmit={handle} className="space-y-3">
        {children}
        <Button type="submit" disabled={busy || pending}>{busy ? 'Saving…' : submit}</Button>
      </form>
    </Card>
  )
}

export function AccountPage() {
  useDocumentTitle('Account')
  const { user, session } = useAuth()
  const [name, setName] = useState(user?.name ?? '')
  const [image, setImage] = useState(user?.image ?? '')
  const [newEmail, setNewEmail] = useState('')
  const [pw, setPw] = useState({ current: '', next: '', revoke: true })
  const [deletePw, setDeletePw] = useState('')
  const navigate = useNavigate()
  const qc = useQueryClient()
  const sessions = useQuery({ queryKey: ['sessions'], queryFn: () => unwrap(authClient.listSessions()) })
  const accounts = useQuery({ queryKey: ['accounts'], queryFn: () => unwrap(authClient.listAccounts()) })
  const revoke = useMutation({
    mutationFn: async (what: { token?: string; all?: boolean }) => {
      if (what.token) return unwrap(authClient.revokeSession({ token: what.token }))
      return unwrap(what.all ? authClient.revokeSessions() : authClient.revokeOtherSessions())
    },
    onSuccess: (_d, what) => {
      toast.success(what.all ? 'Signed out everywhere' : 'Session revoked')
      if (what.all) navigate({ to: '/sign-in' })
      else qc.invalidateQueries({ queryKey: ['sessions'] })
    },
    onError: (e) => toast.error(e.message),
  })
  if (!user) return <Skeleton rows={4} />
  return (
    <section aria-labelledby="account-title" className="grid gap-4 lg:grid-cols-2">
      <h1 id="account-title" className="text-2xl font-semibold lg:col-span-2">Account</h1>
      <FormCard title="Profile" submit="Save profile" onSubmit={async () => { await unwrap(authClient.updateUser({ name, image: image || null })); toast.success('Profile saved') }}>
        <Field label="Name" value={name} onChange={(e) => setName(e.target.value)} required />
        <Field label="Image URL" type="url" value={image} onChange={(e) => setImage(e.target.value)} />
      </FormCard>
      <FormCard title="Email" submit="Change email" onSubmit={async () => {
        await unwrap(authClient.changeEmail({ newEmail, callbackURL: '/dashboard/account' }))
        toast.success(user.emailVerified ? 'Check your current inbox to approve the change' : 'Email changed: check the new inbox to verify it')
        setNewEmail('')
      }}>
        <p className="text-sm">{user.email} · {user.emailVerified ? 'verified' : 'not verified yet'}</p>
        <Field label="New email" type="email" value={newEmail} onChange={(e) => setNewEmail(e.target.value)} required />
      </FormCard>
      <FormCard title="Password" submit="Change password" onSubmit={async () => {
        await unwrap(authClient.changePassword({ currentPassword: pw.current, newPassword: pw.next, revokeOtherSessions: pw.revoke }))
        toast.success('Password changed')
        setPw({ current: '', next: '', revoke: true })
      }}>
        {accounts.data && !accounts.data.some((a) => a.providerId === 'credential') && (
          <p className="text-sm">Your account has no password yet: use “Forgot password” on the sign-in page to set one by mail.</p>
        )}
        <Field label="Current password" type="password" autoComplete="current-password" value={pw.current} onChange={(e) => setPw({ ...pw, current: e.target.value })} required />
        <Field label="New password" type="password" autoComplete="new-password" value={pw.next} onChange={(e) => setPw({ ...pw, next: e.target.value })} required minLength={8} />
        <label className="flex items-center gap-2 text-sm"><input type="checkbox" checked={pw.revoke} onChange={(e) => setPw({ ...pw, revoke: e.target.checked })} /> Sign out my other sessions</label>
      </FormCard>
      <Card title="Active sessions" action={<div className="flex gap-2"><Button variant="secondary" onClick={() => confirm('Sign out all other sessions?') && revoke.mutate({})}>Revoke others</Button><Button variant="secondary" onClick={() => confirm('Sign out everywhere, including here?') && revoke.mutate({ all: true })}>Revoke all</Button></div>}>
        {sessions.isPending ? <Skeleton rows={2} /> : sessions.error ? <ErrorState error={sessions.error} retry={() => sessions.refetch()} /> : (
          <ul className="divide-y divide-zinc-100 text-sm dark:divide-zinc-800">
            {sessions.data.map((s) => (
              <li key={s.id} className="flex items-center justify-between py-2">
                <span>
                  {describeAgent(s.userAgent)} · {s.ipAddress || 'unknown IP'}
                  {s.token === session?.token && <span className="ml-2 rounded bg-emerald-100 px-1.5 text-xs text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100">this session</span>}
                  <span className="block text-xs text-zinc-500">created {fmtDate(String(s.createdAt))} · last active {fmtDate(String(s.updatedAt))}</span>
                </span>
                {s.token !== session?.token && <Button variant="ghost" onClick={() => confirm('Revoke this session?') && revoke.mutate({ token: s.token })}>Revoke</Button>}
              </li>
            ))}
          </ul>
        )}
      </Card>
      <LinkedAccounts />
      <FormCard title="Delete account" submit="Delete my account" onSubmit={async () => {
        if (!confirm('Delete your account and all its data? This cannot be undone.')) return
        const res = await unwrap(authClient.deleteUser(deletePw ? { password: deletePw } : { callbackURL: '/' }))
        if (res.message === 'User deleted') {
          toast.success('Your account was deleted')
          navigate({ to: '/' })
        } else toast.success('Check your inbox to confirm the deletion')
      }}>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">With your password the account goes at once; without it we mail you a confirmation link.</p>
        <Field label="Password (optional)" type="password" autoComplete="current-password" value={deletePw} onChange={(e) => setDeletePw(e.target.value)} />
      </FormCard>
    </section>
  )
}
