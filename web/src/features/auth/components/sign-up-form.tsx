import { useNavigate } from '@tanstack/react-router'
import { toast } from 'sonner'
import { authClient } from '../../../lib/auth-client'
import { safeRedirect } from '../../../lib/auth'
import { Button } from '../../../components/ui/button'
import { Field } from '../../../components/ui/field'
import { isEmail, MIN_PASSWORD, useForm } from './use-form'

export function SignUpForm({ redirect }: { redirect?: string }) {
  const navigate = useNavigate()
  const form = useForm({ name: '', email: '', password: '' }, (v) => ({
    name: v.name.trim() ? undefined : 'Enter your name',
    email: isEmail(v.email) ? undefined : 'Enter a valid email address',
    password: v.password.length >= MIN_PASSWORD ? undefined : `Use at least ${MIN_PASSWORD} characters`,
  }))
  const submit = form.onSubmit(async ({ name, email, password }) => {
    const { data, error } = await authClient.signUp.email({ name: name.trim(), email, password, callbackURL: '/dashboard' })
    if (error) {
      toast.error(error.message ?? 'Could not create the account')
      return
    }
    toast.success('Account created. Check your inbox to verify your email.')
    if (data?.token) await navigate({ to: safeRedirect(redirect) })
  })
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <Field label="Name" autoComplete="name" required {...form.bind('name')} />
      <Field label="Email" type="email" autoComplete="email" required {...form.bind('email')} />
      <Field label="Password" type="password" autoComplete="new-password" required {...form.bind('password')} />
      <Button type="submit" className="w-full" disabled={form.pending}>
        {form.pending ? 'Creating account…' : 'Create account'}
      </Button>
    </form>
  )
}
