import { createFileRoute } from '@tanstack/react-router'
import { validateDashboardSearch } from '../../../lib/selection'
import { WatchlistPage } from '../../../features/watchlists/components/watchlist-page'

// team: a team's own list in an organization's workspace.
export const Route = createFileRoute('/_app/dashboard/watchlist')({
  validateSearch: (s: Record<string, unknown>) => ({ ...validateDashboardSearch(s), team: typeof s.team === 'string' && s.team.length < 200 ? s.team : undefined }),
  component: WatchlistPage,
})
