import { Link, useNavigate } from '@tanstack/react-router'
import { toast } from 'sonner'
import { authClient } from '../../../lib/auth-client'
import { Button } from '../../../components/ui/button'
import { Field } from '../../../components/ui/field'
import { MIN_PASSWORD, useForm } from './use-form'

export function ResetPasswordForm({ token, invalid }: { token?: string; invalid: boolean }) {
  const navigate = useNavigate()
  const form = useForm({ password: '', confirm: '' }, (v) => ({
    password: v.password.length >= MIN_PASSWORD ? undefined : `Use at least ${MIN_PASSWORD} characters`,
    confirm: v.confirm === v.password ? undefined : 'The passwords do not match',
  }))
  if (invalid || !token) {
    return (
      <div role="alert" className="space-y-4 text-sm">
        <p>This reset link is invalid or has expired.</p>
        <Link to="/sign-in" search={{ view: 'forgot' }} className="text-indigo-600 underline dark:text-indigo-400">
          Ask for a new link
        </Link>
      </div>
    )
  }
  const submit = form.onSubmit(async ({ password }) => {
    const { error } = await authClient.resetPassword({ newPassword: password, token })
    if (error) {
      toast.error(error.message ?? 'Could not reset the password')
      return
    }
    toast.success('Password changed. Sign in with your new password.')
    await navigate({ to: '/sign-in', search: { view: 'sign-in' } })
  })
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <Field label="New password" type="password" autoComplete="new-password" required {...form.bind('password')} />
      <Field label="Confirm new password" type="password" autoComplete="new-password" required {...form.bind('confirm')} />
      <Button type="submit" className="w-full" disabled={form.pending}>
        {form.pending ? 'Saving…' : 'Set new password'}
      </Button>
    </form>
  )
}
