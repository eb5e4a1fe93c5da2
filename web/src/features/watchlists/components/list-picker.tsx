import { useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { toastFailure } from '../../../lib/plan-limit'
import { Button } from '../../../components/ui/button'
import { addWatch, watchTeamsQuery, type WatchKind } from '../api/watchlist'

const selectClass = 'rounded border border-zinc-300 bg-transparent px-2 py-1 text-sm dark:border-zinc-700'

// ListPicker switches an organization's watchlist page between the organization's list and a
// team's own list (whose digests go to the team's members only).
export function ListPicker({ org, team, onChange }: { org: string; team?: string; onChange: (team?: string) => void }) {
  const teams = useQuery(watchTeamsQuery(org))
  if (!teams.data?.length) return null
  return (
    <label className="flex flex-wrap items-center gap-2 text-sm">
      <span className="font-medium">List</span>
      <select className={`${selectClass} max-w-full`} value={team ?? ''} onChange={(e) => onChange(e.target.value || undefined)}>
        <option value="">The organization’s</option>
        {teams.data.map((t) => <option key={t.id} value={t.id}>Team {t.name}</option>)}
      </select>
    </label>
  )
}

// AddToTeamList adds an item to a team's list straight from the page (the Watch buttons on
// term, product and brand pages add to the organization's list).
export function AddToTeamList({ ws, team }: { ws: string; team: string }) {
  const [kind, setKind] = useState<WatchKind>('term')
  const [value, setValue] = useState('')
  const qc = useQueryClient()
  const add = useMutation({
    mutationFn: () => addWatch(ws, kind, value.trim(), team),
    onSuccess: () => {
      toast.success('Added to the team’s watchlist')
      setValue('')
      qc.invalidateQueries({ queryKey: ['watchlist'] })
    },
    onError: toastFailure,
  })
  return (
    <form
      aria-label="Add to the team’s watchlist"
      className="flex flex-wrap items-center gap-2"
      onSubmit={(e) => {
        e.preventDefault()
        if (value.trim()) add.mutate()
      }}
    >
      <select aria-label="Kind" className={selectClass} value={kind} onChange={(e) => setKind(e.target.value as WatchKind)}>
        <option value="term">Term</option>
        <option value="asin">Product (ASIN)</option>
        <option value="brand">Brand</option>
      </select>
      <input aria-label="Term, ASIN or brand" required maxLength={500} className={`${selectClass} min-w-0 flex-1 basis-40`} value={value} onChange={(e) => setValue(e.target.value)} />
      <Button type="submit" disabled={add.isPending}>Add</Button>
    </form>
  )
}
