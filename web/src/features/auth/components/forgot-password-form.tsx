import { Link } from '@tanstack/react-router'
import { useState } from 'react'
import { toast } from 'sonner'
import { authClient } from '../../../lib/auth-client'
import { Button } from '../../../components/ui/button'
import { Field } from '../../../components/ui/field'
import { isEmail, useForm } from './use-form'

export function ForgotPasswordForm() {
  const [sentMessage, setSentMessage] = useState('')
  const form = useForm({ email: '' }, (v) => ({ email: isEmail(v.email) ? undefined : 'Enter a valid email address' }))
  const submit = form.onSubmit(async ({ email }) => {
    const { data, error } = await authClient.requestPasswordReset({ email, redirectTo: '/sign-in?view=reset' })
    if (error) {
      toast.error(error.message ?? 'Could not send the reset link')
      return
    }
    setSentMessage(data?.message ?? 'Check your email for the reset link')
  })
  if (sentMessage) {
    return (
      <p role="status" className="text-sm">
        {sentMessage}
      </p>
    )
  }
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <p className="text-sm text-zinc-600 dark:text-zinc-400">We will mail you a link to choose a new password.</p>
      <Field label="Email" type="email" autoComplete="email" required {...form.bind('email')} />
      <Button type="submit" className="w-full" disabled={form.pending}>
        {form.pending ? 'Sending…' : 'Send reset link'}
      </Button>
      <Link to="/sign-in" className="block text-center text-sm underline">
        Back to sign in
      </Link>
    </form>
  )
}
