import { Card } from '../../../components/ui'
import { BarChart } from '../../../components/ui/bar-chart'
import { Loadable, LoadError, Skeleton } from '../../../components/ui/load-state'
import { humanize } from '../../../lib/labels'
import { useLoad } from '../../../lib/use-load'
import { useAdmin } from '../stores/admin-store'

const pct = (value: number | null) => (value === null ? '—' : `${Math.round(value * 100)}%`)
/** "2026-11-25" as "25 Nov": a chart's axis reads as dates, not as keys. */
const day = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString(undefined, {
    day: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  })

function Figures() {
  const stats = useAdmin((state) => state.stats)
  const load = useLoad(useAdmin.getState().loadStats, [])
  if (load.status === 'failed') return <LoadError state={load} />
  if (!stats) return <Skeleton rows={2} label="Loading statistics" />
  const figures: [string, number][] = [
    ['Listings', stats.total_listings],
    ['Orders', stats.total_orders],
    ['Users', stats.total_users],
    ['Volume (pts)', stats.total_transaction_volume],
    ['Commission (pts)', stats.platform_commission_total],
  ]
  return (
    <section className="stat-row stat-row-5" aria-label="Marketplace statistics">
      {figures.map(([name, value]) => (
        <div key={name} className="stat">
          <span className="stat-label">{name}</span>
          <span className="stat-value">{value}</span>
        </div>
      ))}
    </section>
  )
}

function MarketplaceDaily() {
  const daily = useAdmin((state) => state.daily)
  const load = useLoad(useAdmin.getState().loadDaily, [])
  return (
    <Card title="Marketplace, last 30 days">
      <Loadable state={load} rows={6}>
        {daily ? (
          <div className="stack">
            <BarChart
              label="Orders per day"
              points={daily.days.map((d) => ({ label: day(d.date), value: d.orders }))}
            />
            <BarChart
              label="Volume per day (pts)"
              points={daily.days.map((d) => ({ label: day(d.date), value: d.volume }))}
            />
            <p className="small">
              {daily.days.reduce((sum, d) => sum + d.orders, 0)} order(s) ·{' '}
              {daily.days.reduce((sum, d) => sum + d.volume, 0)} pts volume ·{' '}
              {daily.days.reduce((sum, d) => sum + d.commission, 0)} pts commission
            </p>
          </div>
        ) : null}
      </Loadable>
    </Card>
  )
}

function RecognitionDaily() {
  const overview = useAdmin((state) => state.overview)
  const load = useLoad(useAdmin.getState().loadOverview, [])
  return (
    <Card title="Document recognition, last 30 days">
      <Loadable state={load} rows={6}>
        {overview ? (
          <div className="stack">
            <BarChart
              label="Runs per day"
              points={overview.runs_per_day.map((d) => ({ label: day(d.date), value: d.runs }))}
            />
            <p className="small">
              {overview.total_runs} runs · flagged {pct(overview.flagged_rate)} · mean confidence{' '}
              {pct(overview.mean_confidence)} · median processing{' '}
              {overview.median_processing_ms === null
                ? '—'
                : `${Math.round(overview.median_processing_ms)} ms`}
            </p>
            {Object.keys(overview.correction_rate_by_field).length > 0 ? (
              <BarChart
                label="Correction rate by field (%)"
                points={Object.entries(overview.correction_rate_by_field).map(([key, rate]) => ({
                  label: humanize(key),
                  value: Math.round(rate * 100),
                }))}
              />
            ) : (
              <p className="muted small">No corrections yet: reviewers have not changed any field.</p>
            )}
          </div>
        ) : null}
      </Loadable>
    </Card>
  )
}

export function StatisticsPanel() {
  return (
    <div className="stack">
      <Figures />
      <MarketplaceDaily />
      <RecognitionDaily />
    </div>
  )
}
