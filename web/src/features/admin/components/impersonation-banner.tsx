import { useNavigate } from '@tanstack/react-router'
import { useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { authClient } from '../../../lib/auth-client'
import { useAuth } from '../../../lib/auth'
import { Button } from '../../../components/ui/button'

// Shown on every page while an admin impersonates someone, with the way back.
export function ImpersonationBanner() {
  const { session, user, refresh } = useAuth()
  const navigate = useNavigate()
  const qc = useQueryClient()
  if (!(session as { impersonatedBy?: string | null } | null)?.impersonatedBy) return null
  async function stop() {
    const { error } = await authClient.admin.stopImpersonating()
    if (error) {
      toast.error(error.message ?? 'Could not stop impersonating')
      return
    }
    await refresh()
    qc.clear()
    toast.success('Back to your own account')
    await navigate({ to: '/admin' })
  }
  return (
    <div role="status" className="flex flex-wrap items-center justify-center gap-3 bg-amber-100 px-4 py-2 text-sm text-amber-950 dark:bg-amber-900 dark:text-amber-50">
      <span>You are signed in as <strong>{user?.email}</strong> (impersonating).</span>
      <Button variant="secondary" onClick={stop}>Stop impersonating</Button>
    </div>
  )
}
