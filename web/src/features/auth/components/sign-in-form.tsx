import { Link, useNavigate } from '@tanstack/react-router'
import { toast } from 'sonner'
import { authClient } from '../../../lib/auth-client'
import { safeRedirect } from '../../../lib/auth'
import { Button } from '../../../components/ui/button'
import { Field } from '../../../components/ui/field'
import { isEmail, useForm } from './use-form'

export function SignInForm({ redirect }: { redirect?: string }) {
  const navigate = useNavigate()
  const form = useForm({ email: '', password: '' }, (v) => ({
    email: isEmail(v.email) ? undefined : 'Enter a valid email address',
    password: v.password ? undefined : 'Enter your password',
  }))
  const submit = form.onSubmit(async ({ email, password }) => {
    const { error } = await authClient.signIn.email({ email, password })
    if (error) {
      toast.error(error.message ?? 'Could not sign in')
      return
    }
    await navigate({ to: safeRedirect(redirect) })
  })
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <Field label="Email" type="email" autoComplete="email" required {...form.bind('email')} />
      <Field label="Password" type="password" autoComplete="current-password" required {...form.bind('password')} />
      <Button type="submit" className="w-full" disabled={form.pending}>
        {form.pending ? 'Signing in…' : 'Sign in'}
      </Button>
      <Link to="/sign-in" search={{ view: 'forgot' }} className="block text-center text-sm text-indigo-600 underline dark:text-indigo-400">
        Forgot password?
      </Link>
    </form>
  )
}
