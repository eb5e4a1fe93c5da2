import { createFileRoute } from '@tanstack/react-router'
import { validateDashboardSearch } from '../../../features/trends/use-selection'
import { PresencePage } from '../../../features/trends/components/presence-page'

export const Route = createFileRoute('/_app/dashboard/brand')({
  validateSearch: (s: Record<string, unknown>) => ({ ...validateDashboardSearch(s), b: typeof s.b === 'string' ? s.b.slice(0, 200) : '' }),
  component: function Brand() {
    const { b } = Route.useSearch()
    return <PresencePage kind="brand" value={b} />
  },
})
