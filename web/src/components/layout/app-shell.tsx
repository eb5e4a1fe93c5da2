import { useEffect, useState } from 'react'
import { Link, Outlet, useLocation, useNavigate } from '@tanstack/react-router'
import { toast } from 'sonner'
import { authClient } from '../../lib/auth-client'
import { useAuth } from '../../lib/auth'
import { ThemeToggle } from './theme-toggle'
import { Button } from '../ui/button'
import type { ReactNode } from 'react'

const nav = [
  { to: '/dashboard', label: 'Overview' },
  { to: '/dashboard/explore', label: 'Explore' },
  { to: '/dashboard/watchlist', label: 'Watchlist' },
  { to: '/dashboard/imports', label: 'Imports' },
  { to: '/dashboard/workspace', label: 'Workspace' },
  { to: '/dashboard/billing', label: 'Billing' },
  { to: '/dashboard/account', label: 'Account' },
] as const

// AppShell is the signed-in frame. Below the md breakpoint the navigation folds behind a menu
// button, so a 390 px phone gets the whole width for the page and never scrolls sideways.
// banner (the impersonation notice) and admin (a link to the admin area) come from the route,
// which composes features; shared components never import them.
export function AppShell({ banner, admin }: { banner?: ReactNode; admin?: boolean } = {}) {
  const { user } = useAuth()
  const navigate = useNavigate()
  const [open, setOpen] = useState(false)
  const path = useLocation({ select: (l) => l.pathname })
  useEffect(() => setOpen(false), [path])
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
      {banner}
      <header className="border-b border-zinc-200 px-4 py-3 md:px-6 dark:border-zinc-800">
        <div className="flex items-center justify-between gap-4">
          <div className="flex min-w-0 items-center gap-6">
            <Link to="/" className="font-semibold text-indigo-600 dark:text-indigo-400">
              sellertrends
            </Link>
            <nav aria-label="Main" className="hidden md:block">
              <NavLinks admin={admin} />
            </nav>
          </div>
          <div className="hidden min-w-0 items-center gap-2 md:flex">
            <ThemeToggle />
            <span className="truncate text-sm text-zinc-600 dark:text-zinc-400" aria-label="Signed in as">
              {user?.email}
            </span>
            <Button variant="secondary" onClick={signOut}>
              Sign out
            </Button>
          </div>
          <Button variant="secondary" className="md:hidden" aria-expanded={open} aria-controls="mobile-menu" onClick={() => setOpen((o) => !o)}>
            {open ? '✕ Close' : '☰ Menu'}
          </Button>
        </div>
        {open && (
          <div id="mobile-menu" className="mt-3 space-y-3 border-t border-zinc-200 pt-3 md:hidden dark:border-zinc-800">
            <nav aria-label="Main">
              <NavLinks vertical admin={admin} />
            </nav>
            <p className="truncate text-sm text-zinc-600 dark:text-zinc-400">{user?.email}</p>
            <div className="flex flex-wrap gap-2">
              <ThemeToggle />
              <Button variant="secondary" onClick={signOut}>
                Sign out
              </Button>
            </div>
          </div>
        )}
      </header>
      <main className="mx-auto max-w-6xl p-4 md:p-6">
        <Outlet />
      </main>
    </div>
  )
}

function NavLinks({ vertical, admin }: { vertical?: boolean; admin?: boolean }) {
  return (
    <ul className={vertical ? 'flex flex-col gap-1 text-base' : 'flex gap-4 text-sm'}>
      {nav.map((n) => (
        <li key={n.to}>
          <Link
            to={n.to}
            search={(prev: object) => prev}
            activeOptions={{ exact: n.to === '/dashboard', includeSearch: false }}
            activeProps={{ className: 'font-semibold', 'aria-current': 'page' }}
            className={vertical ? 'block rounded px-2 py-2 hover:bg-zinc-100 dark:hover:bg-zinc-800' : undefined}
          >
            {n.label}
          </Link>
        </li>
      ))}
      {admin && (
        <li>
          <Link to="/admin" activeProps={{ className: 'font-semibold', 'aria-current': 'page' }} className={vertical ? 'block rounded px-2 py-2 hover:bg-zinc-100 dark:hover:bg-zinc-800' : undefined}>
            Admin
          </Link>
        </li>
      )}
    </ul>
  )
}
