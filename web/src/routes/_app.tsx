import { createFileRoute, redirect } from '@tanstack/react-router'
import { getSession, useAuth } from '../lib/auth'
import { AppShell } from '../components/layout/app-shell'
import { useIsAdmin } from '../features/admin/api'
import { ImpersonationBanner } from '../features/admin/components/impersonation-banner'

// The signed-in application; an anonymous visitor is sent to sign in and brought back after.
export const Route = createFileRoute('/_app')({
  beforeLoad: async ({ location }) => {
    if (!(await getSession())) {
      throw redirect({ to: '/sign-in', search: { redirect: location.href } })
    }
  },
  component: SignedIn,
})

// SignedIn composes the frame with the admin feature: the impersonation banner on every page,
// and the Admin link for admins (the server guards the admin area itself).
function SignedIn() {
  const { session } = useAuth()
  const admin = useIsAdmin(!!session && !(session as { impersonatedBy?: string | null }).impersonatedBy)
  return <AppShell banner={<ImpersonationBanner />} admin={!!admin.data} />
}
