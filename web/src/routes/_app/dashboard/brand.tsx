import { createFileRoute } from '@tanstack/react-router'
import { validateDashboardSearch } from '../../../lib/selection'
import { PresencePage } from '../../../features/trends/components/presence-page'
import { WatchButton } from '../../../features/watchlists/components/watch-button'

export const Route = createFileRoute('/_app/dashboard/brand')({
  validateSearch: (s: Record<string, unknown>) => ({ ...validateDashboardSearch(s), b: typeof s.b === 'string' ? s.b.slice(0, 200) : '' }),
  component: function Brand() {
    const { b } = Route.useSearch()
    return <PresencePage kind="brand" value={b} actions={b ? <WatchButton kind="brand" value={b} /> : null} />
  },
})
