import { createFileRoute, Outlet, redirect } from '@tanstack/react-router'
import { getSession, safeRedirect } from '../lib/auth'

// Pages for visitors who are not signed in; a signed-in visitor goes on to the dashboard.
export const Route = createFileRoute('/_unauthenticated')({
  beforeLoad: async ({ location }) => {
    if (await getSession()) {
      const target = (location.search as Record<string, unknown>).redirect
      throw redirect({ to: safeRedirect(target) })
    }
  },
  component: () => (
    <main className="flex min-h-screen items-center justify-center bg-zinc-50 px-4 dark:bg-zinc-950">
      <Outlet />
    </main>
  ),
})
