import { Card, ErrorState, Skeleton } from '../../../components/ui/states'
import { fmtInt } from '../../../lib/format'
import { useFigures } from '../api'

// bytes reads a size the way an operator does: "12.3 MB".
export function fmtBytes(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB']
  let i = 0
  while (n >= 1000 && i < units.length - 1) {
    n /= 1000
    i++
  }
  return `${i === 0 ? n : n.toFixed(1)} ${units[i]}`
}

// FiguresCard shows what the operator watches: accounts, activity and the stores' sizes.
export function FiguresCard() {
  const f = useFigures()
  return (
    <Card title="Figures">
      {f.isPending ? (
        <Skeleton rows={2} label="Loading figures" />
      ) : f.error ? (
        <ErrorState error={f.error} retry={() => f.refetch()} />
      ) : (
        <>
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
            <Figure label="Users" value={fmtInt(f.data.users)} />
            <Figure label="Active sessions" value={fmtInt(f.data.activeSessions)} />
            <Figure label="Workspaces" value={fmtInt(f.data.workspaces)} />
            <Figure label="Datasets" value={fmtInt(f.data.datasets)} />
            <Figure label="Imports, last 24 h" value={fmtInt(f.data.importsLastDay)} />
            <Figure label={f.data.stores.sqlKind === 'postgres' ? 'PostgreSQL' : 'SQLite'} value={fmtBytes(f.data.stores.sqlBytes)} />
          </dl>
          <p className="mt-3 text-sm text-zinc-600 dark:text-zinc-400">
            DuckDB: {fmtBytes(f.data.stores.duckdbBytes)}
            {f.data.duckdbFiles.length > 0 && ` (${f.data.duckdbFiles.map((x) => `${x.name} ${fmtBytes(x.bytes)}`).join(', ')})`}
          </p>
        </>
      )}
    </Card>
  )
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-zinc-500">{label}</dt>
      <dd className="text-lg font-semibold tabular-nums">{value}</dd>
    </div>
  )
}
