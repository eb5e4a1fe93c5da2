import { Link, Outlet, useNavigate } from '@tanstack/react-router'
import { toast } from 'sonner'
import { authClient } from '../../lib/auth-client'
import { useAuth } from '../../lib/auth'
import { ThemeToggle } from '../../features/theme/theme-toggle'
import { Button } from '../ui/button'

// The nav list later issues extend (overview, explore, watchlists, imports, account).
const nav = [
  { to: '/dashboard', label: 'Overview' },
  { to: '/dashboard/explore', label: 'Explore' },
  { to: '/dashboard/watchlist', label: 'Watchlist' },
  { to: '/dashboard/imports', label: 'Imports' },
  { to: '/dashboard/account', label: 'Account' },
] as const

export function AppShell() {
  const { user } = useAuth()
  const navigate = useNavigate()
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
      <header className="flex items-center justify-between border-b border-zinc-200 px-6 py-3 dark:border-zinc-800">
        <div className="flex items-center gap-6">
          <Link to="/" className="font-semibold text-indigo-600 dark:text-indigo-400">
            sellertrends
          </Link>
          <nav aria-label="Main">
            <ul className="flex gap-4 text-sm">
              {nav.map((n) => (
                <li key={n.to}>
                  <Link to={n.to} search={(prev: object) => prev} activeOptions={{ exact: n.to === '/dashboard', includeSearch: false }} activeProps={{ className: 'font-semibold' }}>
                    {n.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        </div>
        <div className="flex items-center gap-2">
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
