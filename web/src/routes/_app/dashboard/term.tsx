import { createFileRoute } from '@tanstack/react-router'
import { validateDashboardSearch } from '../../../features/trends/use-selection'
import { TermPage } from '../../../features/trends/components/term-page'

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
  component: TermPage,
})
