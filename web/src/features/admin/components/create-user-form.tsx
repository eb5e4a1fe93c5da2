import { useState, type FormEvent } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { authClient } from '../../../lib/auth-client'
import { Button } from '../../../components/ui/button'
import { Field } from '../../../components/ui/field'
import { unwrap } from '../api'

// Adds a user with a password they can change later (an admin's or a plain user's role).
export function CreateUserForm() {
  const [v, setV] = useState({ name: '', email: '', password: '', role: 'user' as 'user' | 'admin' })
  const [busy, setBusy] = useState(false)
  const qc = useQueryClient()
  async function submit(e: FormEvent) {
    e.preventDefault()
    setBusy(true)
    try {
      await unwrap(authClient.admin.createUser({ name: v.name, email: v.email, password: v.password, role: v.role }))
      toast.success(`${v.email} can now sign in`)
      setV({ name: '', email: '', password: '', role: 'user' })
      qc.invalidateQueries({ queryKey: ['admin-users'] })
    } catch (err) {
      toast.error((err as Error).message)
    } finally {
      setBusy(false)
    }
  }
  return (
    <form onSubmit={submit} className="grid gap-3 sm:grid-cols-2">
      <Field label="Name" value={v.name} onChange={(e) => setV({ ...v, name: e.target.value })} required />
      <Field label="Email" type="email" value={v.email} onChange={(e) => setV({ ...v, email: e.target.value })} required />
      <Field label="Password" type="password" autoComplete="new-password" minLength={8} value={v.password} onChange={(e) => setV({ ...v, password: e.target.value })} required />
      <label className="text-sm font-medium">
        Role
        <select value={v.role} onChange={(e) => setV({ ...v, role: e.target.value as 'user' | 'admin' })} className="mt-1 block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-900">
          <option value="user">User</option>
          <option value="admin">Admin</option>
        </select>
      </label>
      <div className="sm:col-span-2">
        <Button type="submit" disabled={busy}>{busy ? 'Adding…' : 'Add user'}</Button>
      </div>
    </form>
  )
}
