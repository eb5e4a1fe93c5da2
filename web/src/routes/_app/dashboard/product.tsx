import { createFileRoute } from '@tanstack/react-router'
import { validateDashboardSearch } from '../../../lib/selection'
import { PresencePage } from '../../../features/trends/components/presence-page'
import { WatchButton } from '../../../features/watchlists/components/watch-button'

export const Route = createFileRoute('/_app/dashboard/product')({
  validateSearch: (s: Record<string, unknown>) => ({ ...validateDashboardSearch(s), asin: typeof s.asin === 'string' ? s.asin.slice(0, 20) : '' }),
  component: function Product() {
    const { asin } = Route.useSearch()
    return <PresencePage kind="asin" value={asin} actions={asin ? <WatchButton kind="asin" value={asin} /> : null} />
  },
})
