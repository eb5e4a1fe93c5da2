import type { ReactNode } from 'react'
import { Link } from '@tanstack/react-router'
import { useQueryClient } from '@tanstack/react-query'
import { historyQuery } from '../api/queries'
import { useSelection } from '../../../lib/selection'

// TermLink opens a term's page and, when the pointer rests on it, prefetches the history so the
// chart is there by the time the click lands.
export function TermLink({ term, children, className }: { term: string; children?: ReactNode; className?: string }) {
  const qc = useQueryClient()
  const sel = useSelection()
  const prefetch = () => sel.dataset && qc.prefetchQuery(historyQuery(sel.ws!, sel.dataset.id, [term]))
  return (
    <Link to="/dashboard/term" search={{ ws: sel.ws, ds: sel.dataset?.id, t: [term] }} onMouseEnter={prefetch} onFocus={prefetch} className={className ?? 'break-words hover:underline'}>
      {children ?? term}
    </Link>
  )
}
