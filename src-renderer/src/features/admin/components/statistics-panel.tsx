import { useEffect, useState } from 'react'
import { Card } from '../../../components/ui'
import { BarChart } from '../../../components/ui/bar-chart'
import { adminApi, type DailyStats, type PlatformStats, type RecognitionOverview } from '../api/admin-api'

const pct = (value: number | null) => (value === null ? '—' : `${Math.round(value * 100)}%`)

export function StatisticsPanel() {
  const [stats, setStats] = useState<PlatformStats | null>(null)
  const [overview, setOverview] = useState<RecognitionOverview | null>(null)
  const [daily, setDaily] = useState<DailyStats | null>(null)
  useEffect(() => {
    void adminApi.stats().then(setStats)
    void adminApi.dailyStats().then(setDaily)
    void adminApi.overview().then(setOverview)
  }, [])
  const figures: [string, number | string | undefined][] = [
    ['Listings', stats?.total_listings],
    ['Orders', stats?.total_orders],
    ['Users', stats?.total_users],
    ['Volume (pts)', stats?.total_transaction_volume],
    ['Commission (pts)', stats?.platform_commission_total],
  ]
  return (
    <div className="stack">
      <section className="stat-row stat-row-5" aria-label="Marketplace statistics">
        {figures.map(([label, value]) => (
          <div key={label} className="stat">
            <span className="stat-label">{label}</span>
            <span className="stat-value">{value ?? '…'}</span>
          </div>
        ))}
      </section>
      <Card title="Marketplace, last 30 days">
        {daily ? (
          <div className="stack">
            <BarChart
              label="Orders per day"
              points={daily.days.map((d) => ({ label: d.date.slice(5), value: d.orders }))}
            />
            <BarChart
              label="Volume per day (pts)"
              points={daily.days.map((d) => ({ label: d.date.slice(5), value: d.volume }))}
            />
            <p className="small">
              {daily.days.reduce((sum, d) => sum + d.orders, 0)} order(s) ·{' '}
              {daily.days.reduce((sum, d) => sum + d.volume, 0)} pts volume ·{' '}
              {daily.days.reduce((sum, d) => sum + d.commission, 0)} pts commission
            </p>
          </div>
        ) : (
          <p className="muted">Loading…</p>
        )}
      </Card>
      <Card title="Document recognition, last 30 days">
        {overview ? (
          <div className="stack">
            <BarChart
              label="Runs per day"
              points={overview.runs_per_day.map((d) => ({ label: d.date.slice(5), value: d.runs }))}
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
                  label: key,
                  value: Math.round(rate * 100),
                }))}
              />
            ) : null}
          </div>
        ) : (
          <p className="muted">Loading…</p>
        )}
      </Card>
    </div>
  )
}
