import { useState, type FormEvent } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { toastFailure } from '../../../lib/plan-limit'
import { alertSettingsQuery, saveAlertSettings, type AlertFrequency, type AlertSettings } from '../api/alerts'
import { ErrorState, Skeleton } from '../../../components/ui/states'
import { Field } from '../../../components/ui/field'
import { Button } from '../../../components/ui/button'

const choices: { value: AlertFrequency; label: string; hint: string }[] = [
  { value: 'import', label: 'After each import', hint: 'one email when a new report is imported' },
  { value: 'weekly', label: 'Once a week', hint: 'Mondays, for the reports imported that week' },
  { value: 'off', label: 'Off', hint: 'no alert emails' },
]

// Email alerts: how often the digest of what moved in the watchlist comes, and how far a
// watched term's rank must move to be listed.
export function AlertSettingsCard() {
  const q = useQuery(alertSettingsQuery())
  return (
    <section aria-labelledby="alerts-title" className="rounded-lg border border-zinc-200 p-4 dark:border-zinc-800">
      <h2 id="alerts-title" className="text-lg font-semibold">Email alerts</h2>
      {q.isPending ? <Skeleton rows={3} label="Loading alert settings" /> : q.error ? <ErrorState error={q.error} retry={() => q.refetch()} /> : <AlertForm initial={q.data} />}
    </section>
  )
}

function AlertForm({ initial }: { initial: AlertSettings }) {
  const [frequency, setFrequency] = useState(initial.frequency)
  const [threshold, setThreshold] = useState(String(initial.threshold))
  const qc = useQueryClient()
  const n = Number(threshold)
  const invalid = !Number.isInteger(n) || n < 1 || n > 500 ? 'A whole percent from 1 to 500' : undefined
  const save = useMutation({
    mutationFn: () => saveAlertSettings({ frequency, threshold: n }),
    onSuccess: (saved) => {
      qc.setQueryData(alertSettingsQuery().queryKey, saved)
      toast.success(saved.frequency === 'off' ? 'Alert emails turned off' : 'Alert settings saved')
    },
    onError: toastFailure,
  })
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (!invalid) save.mutate()
  }
  return (
    <form onSubmit={submit} className="mt-2 space-y-3 text-sm">
      <p className="text-zinc-500">A digest of what moved among the items you watch, sent to {initial.email}.</p>
      <fieldset className="space-y-1">
        <legend className="font-medium">Send the digest</legend>
        {choices.map((c) => (
          <label key={c.value} className="flex items-baseline gap-2">
            <input type="radio" name="frequency" value={c.value} checked={frequency === c.value} onChange={() => setFrequency(c.value)} />
            <span>{c.label} <span className="text-zinc-500">({c.hint})</span></span>
          </label>
        ))}
      </fieldset>
      <div className="max-w-xs">
        <Field label="List rank moves of at least (%)" type="number" inputMode="numeric" min={1} max={500} step={1} value={threshold}
          onChange={(e) => setThreshold(e.target.value)} error={invalid} disabled={frequency === 'off'} />
      </div>
      <p className="text-zinc-500">
        For example 20%: a term at rank 1,000 is listed when it reaches 800 or better, or 1,200 or worse. Products entering or
        leaving a term's top 3 and new breakouts are always listed.
      </p>
      <Button type="submit" disabled={!!invalid || save.isPending}>{save.isPending ? 'Saving…' : 'Save alert settings'}</Button>
    </form>
  )
}
