import { createFileRoute } from '@tanstack/react-router'
import { validateDashboardSearch } from '../../../lib/selection'
import { TermPage } from '../../../features/trends/components/term-page'
import { WatchButton } from '../../../features/watchlists/components/watch-button'

export interface TermSearch {
  ws?: string
  ds?: number
  t: string[]
}

export const Route = createFileRoute('/_app/dashboard/term')({
  validateSearch: (s: Record<string, unknown>): TermSearch => {
    const raw = Array.isArray(s.t) ? s.t : typeof s.t === 'string' ? [s.t] : []
    const t = raw.filter((x): x is string => typeof x === 'string' && x.trim() !== '' && x.length <= 500).slice(0, 10)
    return { ...validateDashboardSearch(s), t }
  },
  component: function Term() {
    const { t } = Route.useSearch()
    return <TermPage actions={t[0] ? <WatchButton kind="term" value={t[0]} /> : null} />
  },
})
