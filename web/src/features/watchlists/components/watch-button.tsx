import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { toastFailure } from '../../../lib/plan-limit'
import { addWatch, removeWatch, watchlistQuery, type WatchKind } from '../api/watchlist'
import { useSelection } from '../../../lib/selection'
import { can } from '../../../lib/workspaces'
import { Button } from '../../../components/ui/button'

const what = (kind: WatchKind, value: string) => (kind === 'term' ? `“${value}”` : value)

// WatchButton shows whether the term, product or brand is watched: "Watch", or "Watching ✓" with
// an Unwatch button beside it. It works on the demo too, where the list is the caller's own.
export function WatchButton({ kind, value }: { kind: WatchKind; value: string }) {
  const sel = useSelection()
  const ws = sel.ws ?? ''
  const qc = useQueryClient()
  const list = useQuery({ ...watchlistQuery(ws, sel.dataset?.id), enabled: !!sel.ws })
  const norm = kind === 'asin' ? value.toUpperCase() : value
  const item = list.data?.items.find((it) => it.kind === kind && it.value === norm)
  const done = () => qc.invalidateQueries({ queryKey: ['watchlist'] })
  const add = useMutation({
    mutationFn: () => addWatch(ws, kind, value),
    onSuccess: () => {
      toast.success(`Watching ${what(kind, value)}`)
      return done()
    },
    onError: toastFailure,
  })
  const remove = useMutation({
    mutationFn: (id: string) => removeWatch(ws, id),
    onSuccess: () => {
      toast.success(`Stopped watching ${what(kind, value)}`)
      return done()
    },
    onError: toastFailure,
  })
  // A role that only reads the organization's watchlist gets no button (the server refuses).
  if (!value || !sel.ws || (sel.workspace && !can(sel.workspace, 'watchlist', 'write'))) return null
  if (list.isPending) return <Button variant="secondary" disabled>Watch</Button>
  if (item) {
    return (
      <span className="inline-flex flex-wrap items-center gap-2">
        <span role="status" className="rounded-md bg-emerald-50 px-3 py-2 text-sm font-medium text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200">
          Watching ✓
        </span>
        <Button variant="ghost" onClick={() => remove.mutate(item.id)} disabled={remove.isPending} aria-label={`Unwatch ${what(kind, value)}`}>
          Unwatch
        </Button>
      </span>
    )
  }
  return (
    <Button variant="secondary" onClick={() => add.mutate()} disabled={add.isPending} aria-label={`Watch ${what(kind, value)}`}>
      Watch
    </Button>
  )
}
