import { Link, Outlet, useNavigate } from '@tanstack/react-router'
import { toast } from 'sonner'
import { authClient } from '../../lib/auth-client'
import { useAuth } from '../../lib/auth'
import { ThemeToggle } from '../../features/theme/theme-toggle'
import { Button } from '../ui/button'
import { useIsAdmin } from '../../features/admin/api'
import { ImpersonationBanner } from '../../features/admin/components/impersonation-banner'

// The nav list later issues extend (overview, explore, watchlists, imports, account).
const nav = [
  { to: '/dashboard', label: 'Overview' },
  { to: '/dashboard/explore', label: 'Explore' },
  { to: '/dashboard/watchlist', label: 'Watchlist' },
  { to: '/dashboard/imports', label: 'Imports' },
  { to: '/dashboard/account', label: 'Account' },
] as const

export function AppShell() {
  const { user, session } = useAuth()
  const navigate = useNavigate()
  const admin = useIsAdmin(!!session && !(session as { impersonatedBy?: string | null }).impersonatedBy)
  async function signOut() {
    const { error } = await authClient.signOut()
    if (error) {
      toast.error(error.message ?? 'Could not sign out')
      return
    }
    toast.success('Signed out')
    await navigate({ to: '/sign-in' })
  }
  return (
    <div className="min-h-screen">
      <ImpersonationBanner />
      <header className="flex flex-wrap items-center justify-between gap-x-6 gap-y-2 border-b border-zinc-200 px-6 py-3 dark:border-zinc-800">
        <div className="flex flex-wrap items-center gap-x-6 gap-y-2">
          <Link to="/" className="font-semibold text-indigo-600 dark:text-indigo-400">
            sellertrends
          </Link>
          <nav aria-label="Main">
            <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
              {nav.map((n) => (
                <li key={n.to}>
                  <Link to={n.to} search={(prev: object) => prev} activeOptions={{ exact: n.to === '/dashboard', includeSearch: false }} activeProps={{ className: 'font-semibold' }}>
                    {n.label}
                  </Link>
                </li>
              ))}
              {admin.data && (
                <li>
                  <Link to="/admin" activeProps={{ className: 'font-semibold' }}>Admin</Link>
                </li>
              )}
            </ul>
          </nav>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <ThemeToggle />
          <span className="text-sm text-zinc-600 dark:text-zinc-400" aria-label="Signed in as">
            {user?.email}
          </span>
          <Button variant="secondary" onClick={signOut}>
            Sign out
          </Button>
        </div>
      </header>
      <main className="mx-auto max-w-6xl p-6">
        <Outlet />
      </main>
    </div>
  )
}
