import { createFileRoute, redirect } from '@tanstack/react-router'
import { getSession } from '../lib/auth'
import { AppShell } from '../components/layout/app-shell'

// The signed-in application; an anonymous visitor is sent to sign in and brought back after.
export const Route = createFileRoute('/_app')({
  beforeLoad: async ({ location }) => {
    if (!(await getSession())) {
      throw redirect({ to: '/sign-in', search: { redirect: location.href } })
    }
  },
  component: AppShell,
})
