import type { ReactNode } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useAuth } from '../../../lib/auth'
import { overviewQuery } from '../api/queries'
import { useSelection } from '../../../lib/selection'
import { useDocumentTitle } from '../../../lib/document-title'
import { Card, Empty, ErrorState, HiddenHistory, Skeleton } from '../../../components/ui/states'
import { MeasureInfo } from '../../../components/trends/change'
import { TermList } from './term-list'
import { fmtInt, fmtPeriod, periodUnit, plural } from '../../../lib/format'
import { DemoBuilding } from './demo-building'
import type { Overview as OverviewData } from '../../../lib/trends-types'

const linkClass = 'text-indigo-600 underline dark:text-indigo-400'

// Overview is what is loaded and what moved. watchlist is the watchlists feature's card, composed
// in by the route (features do not import each other).
export function Overview({ watchlist }: { watchlist?: ReactNode }) {
  useDocumentTitle('Overview')
  const { user } = useAuth()
  const sel = useSelection()
  const overview = useQuery({ ...overviewQuery(sel.ws ?? '', sel.dataset?.id ?? 0), enabled: !!sel.dataset })
  const kind = sel.dataset?.kind
  const unit = kind === 'month' || kind === 'quarter' ? kind : 'week'
  return (
    <section aria-labelledby="overview-title" className="space-y-6">
      <div>
        <h1 id="overview-title" className="text-2xl font-semibold break-words">
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
      ) : sel.building ? (
        <DemoBuilding week={sel.building.week} weeks={sel.building.weeks} />
      ) : !sel.dataset ? (
        <Empty title="No reports yet">
          <Link to="/dashboard/imports" className={linkClass}>Import your first Top Search Terms report</Link> to see your own trends, or{' '}
          <Link to="/dashboard" search={{ ws: 'demo' }} className={linkClass}>open the demo</Link> to see every screen working first.
        </Empty>
      ) : overview.isPending ? (
        <Skeleton rows={8} label="Loading the overview" />
      ) : overview.error ? (
        <ErrorState error={overview.error} retry={() => overview.refetch()} />
      ) : (
        <OverviewCards data={overview.data} kind={kind} unit={unit} watchlist={watchlist} readOnly={sel.isDemo} />
      )}
    </section>
  )
}

function OverviewCards({ data, kind, unit, watchlist, readOnly }: { data: OverviewData; kind?: string; unit: string; watchlist?: ReactNode; readOnly: boolean }) {
  const periods = data.summary.periods.length
  const compared = data.new.newComparedPeriods ?? data.summary.newComparedPeriods ?? data.new.periodsCompared ?? data.periodsCompared ?? Math.min(4, Math.max(periods - 1, 0))
  const importMore = (what: string) =>
    readOnly ? undefined : (
      <>
        <Link to="/dashboard/imports" className={linkClass}>Import the previous {unit}</Link> to see {what}.
      </>
    )
  return (
    <>
      <div className="grid grid-cols-2 gap-4 sm:grid-cols-4" aria-label="What is loaded">
        <Stat label="Periods loaded" value={fmtInt(periods)} />
        <Stat label="Latest period" value={data.summary.latest ? fmtPeriod(kind, data.summary.latest.start) : '–'} />
        <Stat label="Terms in latest" value={fmtInt(data.summary.latest?.rows)} />
        <Stat label="Missing periods" value={fmtInt(data.summary.gaps.length)} />
      </div>
      <HiddenHistory count={data.summary.hiddenPeriods} kind={kind} />
      <p className="text-xs text-zinc-500">
        Changes over {periodUnit(kind, data.window)}: the rank then → now, and the change in estimated searches.
        <MeasureInfo measure="change" />
      </p>
      <div className="grid gap-4 lg:grid-cols-2">
        <Card title="Top risers" info={<MeasureInfo measure="change" />}>
          <TermList page={data.risers} window={data.window} empty={{ title: periods < 2 ? 'No movers yet: one period is loaded' : 'No term rose', next: periods < 2 ? importMore('risers and fallers') : undefined }} />
        </Card>
        <Card title="Top fallers" info={<MeasureInfo measure="change" />}>
          <TermList page={data.fallers} window={data.window} empty={{ title: periods < 2 ? 'No movers yet: one period is loaded' : 'No term fell', next: periods < 2 ? importMore('risers and fallers') : undefined }} />
        </Card>
        <Card title="New terms" info={<MeasureInfo measure="new" />}>
          <p className="mb-2 text-xs text-zinc-500">
            {compared > 0 ? `Compared with the ${plural(compared, `earlier ${unit}`)} loaded before the latest.` : `Nothing to compare with yet.`}
          </p>
          <TermList page={data.new} window={data.window} empty={{ title: compared > 0 ? 'No new terms this period' : 'No new terms yet: one period is loaded', next: compared > 0 ? undefined : importMore('which terms are new') }} />
        </Card>
        <Card title="Breakouts" info={<MeasureInfo measure="breakout" />}>
          <TermList page={data.breakouts} window={4} empty={{ title: 'No breakouts this period', next: periods < 5 ? <>Breakouts need 5 {unit}s of history; {plural(periods, unit)} loaded.</> : undefined }} />
        </Card>
        <Card title="Coming up" info={<MeasureInfo measure="comingUp" />}>
          <p className="mb-2 text-xs text-zinc-500">Terms that rose most in the coming weeks last year.</p>
          <TermList page={data.comingUp} window={52} comingUp empty={{ title: 'Nothing coming up yet', next: 'Coming up needs a year of history: import the same weeks of last year.' }} />
        </Card>
        {watchlist && <Card title="Your watchlist">{watchlist}</Card>}
      </div>
    </>
  )
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0 rounded-lg border border-zinc-200 p-3 dark:border-zinc-800">
      <div className="text-xs text-zinc-500">{label}</div>
      <div className="text-lg font-semibold tabular-nums">{value}</div>
    </div>
  )
}
