import { createFileRoute } from '@tanstack/react-router'
import { WatchlistPage } from '../../../features/watchlists/components/watchlist-page'

export const Route = createFileRoute('/_app/dashboard/watchlist')({ component: WatchlistPage })
