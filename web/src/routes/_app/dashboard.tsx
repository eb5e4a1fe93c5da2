import { createFileRoute, Outlet } from '@tanstack/react-router'
import { validateDashboardSearch } from '../../lib/selection'
import { DatasetBar } from '../../features/trends/components/dataset-bar'

// The dashboard layout: the workspace/dataset switcher above every trends screen.
export const Route = createFileRoute('/_app/dashboard')({
  validateSearch: validateDashboardSearch,
  component: () => (
    <div className="min-w-0 space-y-6">
      <DatasetBar />
      <Outlet />
    </div>
  ),
})
