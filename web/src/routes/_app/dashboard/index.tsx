import { createFileRoute } from '@tanstack/react-router'
import { Overview } from '../../../features/trends/components/overview'
import { WatchlistMoves } from '../../../features/watchlists/components/watchlist-moves'

// The route composes the trends overview with the watchlists card: features never import each other.
export const Route = createFileRoute('/_app/dashboard/')({ component: () => <Overview watchlist={<WatchlistMoves />} /> })
