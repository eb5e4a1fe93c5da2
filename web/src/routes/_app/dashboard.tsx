import { createFileRoute } from '@tanstack/react-router'
import { useAuth } from '../../lib/auth'

export const Route = createFileRoute('/_app/dashboard')({ component: Dashboard })

function Dashboard() {
  const { user } = useAuth()
  return (
    <section aria-labelledby="dashboard-title">
      <h1 id="dashboard-title" className="text-2xl font-semibold">
        Welcome{user ? `, ${user.name}` : ''}
      </h1>
      <p className="mt-2 text-zinc-600 dark:text-zinc-400">
        Your search-term trends will appear here once you import a Brand Analytics report.
      </p>
      {user && !user.emailVerified && (
        <p role="status" className="mt-4 rounded-md bg-amber-50 p-3 text-sm text-amber-800 dark:bg-amber-950 dark:text-amber-200">
          Please verify your email address: we sent you a link.
        </p>
      )}
    </section>
  )
}
