import { useState, type DragEvent } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { followJob, uploadFiles, type ImportJob } from '../api/imports'
import { deletePeriod } from '../api/delete-period'
import { summaryQuery } from '../../../lib/datasets'
import { useSelection } from '../../../lib/selection'
import { can } from '../../../lib/workspaces'
import { useDocumentTitle } from '../../../lib/document-title'
import { Card, Empty, ErrorState, HiddenHistory, Skeleton } from '../../../components/ui/states'
import { Button } from '../../../components/ui/button'
import { PLAN_LIMIT, toastError, toastFailure } from '../../../lib/plan-limit'
import { fmtDate, fmtInt, fmtPeriod, plural } from '../../../lib/format'

interface Upload {
  name: string
  uploaded: number // 0..1
  job?: ImportJob
  error?: string
}

export function ImportsPage() {
  useDocumentTitle('Imports')
  const sel = useSelection()
  const ws = sel.isDemo ? sel.own?.id : sel.ws
  const target = sel.isDemo ? sel.own : sel.workspace
  const qc = useQueryClient()
  const [uploads, setUploads] = useState<Upload[]>([])
  const [over, setOver] = useState(false)
  const [marketplace, setMarketplace] = useState('')
  const [period, setPeriod] = useState('')
  const [lenient, setLenient] = useState(false)

  async function start(files: File[]) {
    if (!ws || files.length === 0) return
    const batch: Upload[] = files.map((f) => ({ name: f.name, uploaded: 0 }))
    setUploads((u) => [...batch, ...u])
    const patch = (name: string, p: Partial<Upload>) => setUploads((all) => all.map((u) => (u.name === name ? { ...u, ...p } : u)))
    try {
      const jobs = await uploadFiles(ws, files, { marketplace, period, lenient: lenient ? 'true' : '' }, (f) => files.forEach((file) => patch(file.name, { uploaded: f })))
      await Promise.all(
        jobs.map(async (j) => {
          const done = await followJob(ws, j.id, (job) => patch(job.fileName, { job, uploaded: 1 }))
          if (done.state === 'done') toast.success(`${done.fileName} imported`)
          else toastError(`${done.fileName}: ${done.error}`, done.errorCode === PLAN_LIMIT)
        }),
      )
      qc.invalidateQueries({ queryKey: ['datasets'] })
      qc.invalidateQueries({ queryKey: ['summary'] })
      qc.invalidateQueries({ queryKey: ['overview'] })
    } catch (e) {
      files.forEach((f) => patch(f.name, { error: (e as Error).message }))
      toastFailure(e)
    }
  }

  const onDrop = (e: DragEvent) => {
    e.preventDefault()
    setOver(false)
    start([...e.dataTransfer.files])
  }

  if (sel.error) return <ErrorState error={sel.error} retry={sel.retry} />
  if (!ws) return <Skeleton rows={4} />
  return (
    <section aria-labelledby="imports-title" className="min-w-0 space-y-4">
      <h1 id="imports-title" className="text-2xl font-semibold">Imports</h1>
      {sel.isDemo && <p className="text-sm text-zinc-500">Files go into your own workspace; the demo is read-only.</p>}
      {target && !can(target, 'dataset', 'import') ? (
        <p className="rounded border border-zinc-200 p-4 text-sm dark:border-zinc-800">
          Your role in {target.name} ({target.role}) lets you read its reports; its admins and owners import them.
        </p>
      ) : (
      <div
        onDragOver={(e) => { e.preventDefault(); setOver(true) }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        className={`rounded-lg border-2 border-dashed p-4 text-center sm:p-8 ${over ? 'border-indigo-500 bg-indigo-50 dark:bg-indigo-950' : 'border-zinc-300 dark:border-zinc-700'}`}
      >
        <p>Drop Brand Analytics search-term reports here (CSV, SP-API JSON, .gz or .zip; several at once)</p>
        <label className="mt-3 inline-block cursor-pointer rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-500">
          Choose files
          <input type="file" multiple className="sr-only" accept=".csv,.json,.gz,.zip" aria-label="Report files" onChange={(e) => start([...(e.target.files ?? [])])} />
        </label>
        <div className="mt-4 flex flex-wrap justify-center gap-3 text-left text-sm">
          <label className="flex min-w-0 flex-col">Marketplace (if the file does not say) <input value={marketplace} onChange={(e) => setMarketplace(e.target.value)} placeholder="amazon.com" className="w-40 max-w-full rounded border border-zinc-300 bg-transparent px-2 py-1 dark:border-zinc-700" /></label>
          <label className="flex min-w-0 flex-col">Period (if the file does not say) <input value={period} onChange={(e) => setPeriod(e.target.value)} placeholder="2026-04-05..2026-04-11" className="w-52 max-w-full rounded border border-zinc-300 bg-transparent px-2 py-1 dark:border-zinc-700" /></label>
        </div>
        <label className="mt-4 flex items-start justify-center gap-2 text-left text-sm">
          <input type="checkbox" role="switch" checked={lenient} onChange={(e) => setLenient(e.target.checked)} className="mt-1" />
          <span>
            Skip bad values instead of refusing the file (lenient)
            <span className="block text-xs text-zinc-500">Rows with an unreadable value are skipped and listed; a file that is cut short or malformed is still refused.</span>
          </span>
        </label>
      </div>
      )}
      <details className="rounded-lg border border-zinc-200 p-3 text-sm dark:border-zinc-800">
        <summary className="cursor-pointer font-medium">Where to download this report in Seller Central</summary>
        <ol className="mt-2 list-decimal space-y-1 pl-5 text-zinc-700 dark:text-zinc-300">
          <li>In Seller Central, open <b>Brands → Brand Analytics</b> (it needs Brand Registry).</li>
          <li>Open the <b>Top Search Terms</b> dashboard (called <b>Amazon Search Terms</b> in older accounts). Not Search Query Performance: that is a different report.</li>
          <li>Pick the reporting range (<b>Weekly</b>, <b>Monthly</b> or <b>Quarterly</b>) and the period, then <b>Generate Download</b> as CSV.</li>
          <li>Fetch the file from the <b>Downloads Manager</b> and drop it here unchanged, e.g. <code className="break-all">US_Top_Search_Terms_Simple_Week_2026_04_11.csv</code> (zipped or gzipped is fine).</li>
        </ol>
        <p className="mt-2 text-xs text-zinc-500">Import the previous weeks too: movers, new terms and breakouts compare each period with earlier ones.</p>
      </details>
      {uploads.length > 0 && (
        <Card title="This session's uploads">
          <ul className="space-y-3 text-sm">
            {uploads.map((u) => <UploadRow key={u.name} u={u} />)}
          </ul>
        </Card>
      )}
      <History ws={ws} canDelete={can(target, 'dataset', 'delete')} />
    </section>
  )
}

// periodOf reads an import result's period whether its keys are camelCase or the older PascalCase.
function periodOf(p: ImportJob['results'] extends (infer R)[] | null ? R extends { period: infer P } ? P : never : never) {
  const loose = p as unknown as Record<string, string | undefined>
  return { kind: loose.kind ?? loose.Kind ?? 'week', start: loose.start ?? loose.Start ?? '' }
}

function UploadRow({ u }: { u: Upload }) {
  const j = u.job
  const processing = j ? (j.state === 'done' ? 1 : j.bytesTotal ? j.bytesRead / j.bytesTotal : 0) : 0
  return (
    <li>
      <div className="flex flex-wrap justify-between gap-2"><span className="min-w-0 break-all font-medium">{u.name}</span><span>{u.error ? 'failed' : j?.state ?? 'uploading'}</span></div>
      <label className="block text-xs text-zinc-500">Upload <progress className="w-full" max={1} value={u.uploaded} aria-label={`Upload of ${u.name}`} /></label>
      <label className="block text-xs text-zinc-500">Processing {j ? plural(j.rows, 'row') : ''} <progress className="w-full" max={1} value={processing} aria-label={`Processing of ${u.name}`} /></label>
      {(u.error || j?.error) && <p role="alert" className="text-red-600 dark:text-red-400">{u.error ?? j?.error}</p>}
      {j?.results?.map((r) => {
        const p = periodOf(r.period)
        return (
          <p key={p.start} className="text-emerald-700 dark:text-emerald-400">
            {p.kind} of {fmtDate(p.start)}: {plural(r.rows, 'row')}, deepest rank {fmtInt(r.deepestRank)}{r.replaced ? ' (replaced the earlier import)' : ''}
            {r.warnings?.map((w) => <span key={w} className="block text-amber-700">{w}</span>)}
          </p>
        )
      })}
      {j && j.skippedCount > 0 && <p className="text-amber-700">{plural(j.skippedCount, 'row')} skipped: {j.skipped?.slice(0, 5).map((s) => `line ${s.line}: ${s.expected}`).join('; ')}</p>}
    </li>
  )
}

function History({ ws, canDelete }: { ws: string; canDelete: boolean }) {
  const sel = useSelection()
  const ds = sel.isDemo ? undefined : sel.dataset
  const q = useQuery({ ...summaryQuery(ws, ds?.id ?? 0), enabled: !!ds })
  const qc = useQueryClient()
  const del = useMutation({
    mutationFn: (start: string) => deletePeriod(ws, ds!.id, start),
    onSuccess: () => {
      toast.success('Period deleted')
      qc.invalidateQueries()
    },
    onError: toastFailure,
  })
  if (!ds) return <Empty title="No imports yet">Drop your first Top Search Terms report above; each imported period is listed here.</Empty>
  if (q.isPending) return <Skeleton rows={3} />
  if (q.error) return <ErrorState error={q.error} retry={() => q.refetch()} />
  return (
    <Card title={`Import history · ${ds.marketplace} ${ds.kind}`}>
      <HiddenHistory count={q.data.hiddenPeriods} kind={ds.kind} />
      <div className="relative overflow-x-auto">
        <table className="w-full min-w-[36rem] text-sm">
          <thead><tr className="text-left"><th scope="col">Period</th><th scope="col">Rows</th><th scope="col">Deepest rank</th><th scope="col">File</th><th scope="col">Imported</th><th scope="col"><span className="sr-only">Actions</span></th></tr></thead>
          <tbody>
            {q.data.periods.slice().reverse().map((p) => (
              <tr key={p.start} className="border-t border-zinc-100 dark:border-zinc-900">
                <td className="py-1 pr-2 whitespace-nowrap">{fmtPeriod(ds.kind, p.start)}</td>
                <td className="tabular-nums">{fmtInt(p.rows)}</td>
                <td className="tabular-nums">{fmtInt(p.deepestRank)}</td>
                <td className="break-all">{p.sourceName}</td>
                <td className="whitespace-nowrap">{fmtDate(p.importedAt)}</td>
                <td className="text-right">{canDelete && <Button variant="ghost" onClick={() => confirm(`Delete the period ${fmtPeriod(ds.kind, p.start)}? Re-import the file to bring it back.`) && del.mutate(p.start)}>Delete</Button>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="mt-2 text-xs text-zinc-500">To replace a period, import its file again.</p>
    </Card>
  )
}
