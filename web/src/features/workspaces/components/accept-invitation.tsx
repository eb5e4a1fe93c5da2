import { useState } from 'react'
import { useNavigate } from '@tanstack/react-router'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { authClient } from '../../../lib/auth-client'
import { useAuth } from '../../../lib/auth'
import { useDocumentTitle } from '../../../lib/document-title'
import { Button } from '../../../components/ui/button'
import { Card, Skeleton } from '../../../components/ui/states'
import { call, invitationQuery } from '../api/organization'

// AcceptInvitationPage: the invitation mail's link. The route has already asked the visitor to
// sign in or create an account (and brought them back); only the invited address may accept.
export function AcceptInvitationPage({ id }: { id: string }) {
  useDocumentTitle('Invitation')
  const { user } = useAuth()
  const inv = useQuery(invitationQuery(id))
  const navigate = useNavigate()
  const qc = useQueryClient()
  const [busy, setBusy] = useState(false)
  async function answer(accept: boolean) {
    setBusy(true)
    try {
      if (accept) {
        await call(authClient.organization.acceptInvitation({ invitationId: id }))
        await qc.invalidateQueries({ queryKey: ['workspaces'] })
        toast.success(`You joined ${inv.data?.organizationName}`)
        await navigate({ to: '/dashboard', search: { ws: inv.data?.organizationId } })
      } else {
        await call(authClient.organization.rejectInvitation({ invitationId: id }))
        toast.success('Invitation declined')
        await navigate({ to: '/dashboard' })
      }
    } catch (e) {
      toast.error((e as Error).message)
    } finally {
      setBusy(false)
    }
  }
  async function switchAccount() {
    await authClient.signOut()
    await navigate({ to: '/sign-in', search: { redirect: `/accept-invitation/${encodeURIComponent(id)}` } })
  }
  return (
    <div className="mx-auto max-w-lg space-y-4">
      <h1 className="text-2xl font-semibold">Invitation</h1>
      {inv.isPending && <Skeleton rows={2} />}
      {inv.error && (
        <Card title="This invitation cannot be opened">
          <p role="alert" className="text-sm">{inv.error.message}</p>
          <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
            You are signed in as <strong className="break-all">{user?.email}</strong>. An invitation opens only for the address it was sent to, while it is pending (48 hours).
          </p>
          <Button variant="secondary" className="mt-3" onClick={switchAccount}>Sign in with another account</Button>
        </Card>
      )}
      {inv.data && (
        <Card title={inv.data.organizationName}>
          <p className="text-sm">
            <strong className="break-all">{inv.data.inviterEmail}</strong> invites you to join <strong>{inv.data.organizationName}</strong> as <strong>{inv.data.role ?? 'member'}</strong>: you will share its reports and watchlist.
          </p>
          <div className="mt-4 flex flex-wrap gap-2">
            <Button disabled={busy} onClick={() => answer(true)}>Accept and open</Button>
            <Button variant="secondary" disabled={busy} onClick={() => answer(false)}>Decline</Button>
          </div>
        </Card>
      )}
    </div>
  )
}
