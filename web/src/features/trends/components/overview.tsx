import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useAuth } from '../../../lib/auth'
import { overviewQuery } from '../api/queries'
import { useSelection } from '../use-selection'
import { Card, Empty, ErrorState, Skeleton } from '../../../components/ui/states'
import { TermList } from './term-list'
import { fmtDate, fmtInt } from '../../../lib/format'
import { WatchlistMoves } from '../../watchlists/components/watchlist-moves'

export function Overview() {
  const { user } = useAuth()
  const sel = useSelection()
  const overview = useQuery({ ...overviewQuery(sel.ws ?? '', sel.dataset?.id ?? 0), enabled: !!sel.dataset })
  return (
    <section aria-labelledby="overview-title" className="space-y-6">
      <div>
        <h1 id="overview-title" className="text-2xl font-semibold">
          Welcome{user ? `, ${user.name}` : ''}
        </h1>
        {user && !user.emailVerified && (
          <p role="status" className="mt-3 rounded-md bg-amber-50 p-3 text-sm text-amber-800 dark:bg-amber-950 dark:text-amber-200">
            Please verify your email address: we sent you a link.
          </p>
        )}
      </div>
      {sel.isLoading ? (
        <Skeleton rows={6} label="Loading the overview" />
      ) : sel.error ? (
        <ErrorState error={sel.error} retry={sel.retry} />
      ) : !sel.dataset ? (
        <Empty title={sel.isDemo ? 'The demo is still being built' : 'No reports yet'}>
          <Link to="/dashboard/imports" className="text-indigo-600 underline dark:text-indigo-400">
            Import your first report
          </Link>{' '}
          or{' '}
          <Link to="/dashboard" search={{ ws: 'demo' }} className="text-indigo-600 underline dark:text-indigo-400">
            open the demo
          </Link>
          .
        </Empty>
      ) : overview.isPending ? (
        <Skeleton rows={8} label="Loading the overview" />
      ) : overview.error ? (
        <ErrorState error={overview.error} retry={() => overview.refetch()} />
      ) : (
        <>
          <div className="grid gap-4 sm:grid-cols-4" aria-label="What is loaded">
            <Stat label="Periods" value={fmtInt(overview.data.summary.periods.length)} />
            <Stat label="Latest period" value={overview.data.summary.latest ? fmtDate(overview.data.summary.latest.start) : '–'} />
            <Stat label="Terms in latest" value={fmtInt(overview.data.summary.latest?.rows)} />
            <Stat label="Missing periods" value={fmtInt(overview.data.summary.gaps.length)} />
          </div>
          <p className="text-xs text-zinc-500">Changes over {overview.data.window} period{overview.data.window > 1 ? 's' : ''}; log2 of the rank ratio (1 = rank halved, i.e. twice as searched).</p>
          <div className="grid gap-4 lg:grid-cols-2">
            <Card title="Top risers"><TermList page={overview.data.risers} window={overview.data.window} empty="No risers yet" /></Card>
            <Card title="Top fallers"><TermList page={overview.data.fallers} window={overview.data.window} empty="No fallers yet" /></Card>
            <Card title={overview.data.summary.newComparedPeriods > 0 ? `New terms (compared with ${overview.data.summary.newComparedPeriods} earlier period${overview.data.summary.newComparedPeriods > 1 ? 's' : ''})` : 'New terms'}>
              <TermList page={overview.data.new} window={overview.data.window} empty={overview.data.summary.newComparedPeriods > 0 ? 'No new terms' : 'Import the previous period to see new terms'} />
            </Card>
            <Card title="Breakouts"><TermList page={overview.data.breakouts} window={4} empty="No breakouts" /></Card>
            <Card title="Coming up (rose in the next weeks last year)"><TermList page={overview.data.comingUp} window={52} empty="Needs a year of history" measure={(r) => r.comingUp} /></Card>
            <Card title="Your watchlist"><WatchlistMoves ws={sel.ws!} readOnly={sel.isDemo} /></Card>
          </div>
        </>
      )}
    </section>
  )
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-lg border border-zinc-200 p-3 dark:border-zinc-800">
      <div className="text-xs text-zinc-500">{label}</div>
      <div className="text-lg font-semibold tabular-nums">{value}</div>
    </div>
  )
}
