import { createFileRoute, Outlet, redirect } from '@tanstack/react-router'
import { isAdmin } from '../../features/admin/api'

// The admin area: admins only. The server refuses every admin call from anyone else; this
// guard only keeps others from an empty screen.
export const Route = createFileRoute('/_app/admin')({
  beforeLoad: async () => {
    if (!(await isAdmin())) throw redirect({ to: '/dashboard' })
  },
  component: Outlet,
})
