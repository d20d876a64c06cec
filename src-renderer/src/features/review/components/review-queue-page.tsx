import { useEffect } from 'react'
import { Link } from 'react-router'
import { Badge, Button, PageHeader } from '../../../components/ui'
import { Clipped, DataTable, formatTime, Tabs } from '../../../components/ui/data'
import { useNotifications } from '../../../components/ui/notifications'
import { label } from '../../../lib/labels'
import { useLoad } from '../../../lib/use-load'
import { type ExportFormat, reviewApi } from '../api/review-api'
import type { RecognitionRun } from '../api/review-types'
import { isInFlight, queueOrder, useReviewQueue } from '../stores/review-queue-store'
import { REVIEW_TONE, RUN_TONE } from './status-tones'
import { UploadPanel } from './upload-panel'

const REVIEW_FILTERS = ['flagged', 'pending', 'approved', 'rejected'] as const
type Filter = 'all' | (typeof REVIEW_FILTERS)[number]

/** The queue's summary of a run: the first of these fields the run's extractor has (invoice, then receipt). */
const SUPPLIER_KEYS = ['seller_name', 'merchant_name']
const DATE_KEYS = ['invoice_date', 'purchase_date']
const firstValue = (run: RecognitionRun, keys: string[]) => {
  const field = run.field_reviews.find((f) => keys.includes(f.field_key) && f.value !== null)
  return field ? String(field.value) : '—'
}
const totalOf = (run: RecognitionRun) => {
  const total = run.field_reviews.find((f) => f.field_key === 'total_amount')?.value
  if (total === null || total === undefined) return '—'
  const currency = run.field_reviews.find((f) => f.field_key === 'currency')?.value
  return currency ? `${total} ${currency}` : String(total)
}
/** Who reviewed the run last: the latest reviser of any of its fields. */
const reviewerOf = (run: RecognitionRun) =>
  run.field_reviews
    .filter((f) => f.last_revised_at && f.last_revised_by)
    .sort((a, b) => (b.last_revised_at ?? '').localeCompare(a.last_revised_at ?? ''))[0]?.last_revised_by
    ?.username ?? '—'

const shown = (value: unknown) => (value === null || value === undefined ? '(missing)' : String(value))

/** Export CSV / Export JSON of approved results; a failed export is a toast. */
export function ExportButtons({
  save,
  disabled,
  title,
}: {
  save: (format: ExportFormat) => Promise<void>
  disabled?: boolean
  title?: string
}) {
  const notify = useNotifications((state) => state.push)
  return (['csv', 'json'] as const).map((format) => (
    <Button
      key={format}
      variant="ghost"
      disabled={disabled}
      title={title}
      onClick={() =>
        void save(format).catch((error: Error) => notify({ kind: 'error', text: error.message }))
      }
    >
      Export {format.toUpperCase()}
    </Button>
  ))
}

/** What a rerun changed against its source (`diff_from_source`), fields named by their labels. */
const changedFields = (run: RecognitionRun) =>
  Object.entries(run.diff_from_source ?? {})
    .filter(([, d]) => JSON.stringify(d.source_value) !== JSON.stringify(d.target_value))
    .map(([key, d]) => ({
      key,
      label: run.field_reviews.find((f) => f.field_key === key)?.label ?? key,
      from: shown(d.source_value),
      to: shown(d.target_value),
    }))

/** A run's note on one line, for the queue: why it was rejected, or what its rerun changed. */
const runNote = (run: RecognitionRun): string => {
  if (run.review_status === 'rejected' && run.reject_reason) return `Rejected: ${run.reject_reason}`
  if (!run.diff_from_source) return ''
  const changed = changedFields(run)
  if (changed.length === 0) return 'Rerun: same values as its source'
  return `Rerun: ${changed.map((c) => `${c.label} ${c.from} → ${c.to}`).join('; ')}`
}

/** Why a run was rejected, or what a rerun changed against its source, field by field. */
export function RunNotes({ run }: { run: RecognitionRun }) {
  if (run.review_status === 'rejected' && run.reject_reason)
    return <span className="small">Rejected: {run.reject_reason}</span>
  if (!run.diff_from_source) return null
  const changed = changedFields(run)
  if (changed.length === 0) return <span className="small muted">Rerun: same values as its source</span>
  return (
    <ul className="diff-list small" aria-label="Changes from the source run">
      {changed.map((c) => (
        <li key={c.key}>
          {c.label}: <s>{c.from}</s> → <strong>{c.to}</strong>
        </li>
      ))}
    </ul>
  )
}

/** One status per run: its extraction while it is under way or failed, its review once extracted. */
function RunStatus({ run }: { run: RecognitionRun }) {
  const note = runNote(run)
  if (run.status !== 'completed')
    return (
      <Badge tone={RUN_TONE[run.status]}>
        {isInFlight(run) ? <span className="spinner" aria-hidden="true" /> : null}
        {label('run_status', run.status)}
      </Badge>
    )
  return (
    <span title={note || undefined}>
      <Badge tone={REVIEW_TONE[run.review_status]}>{label('review_status', run.review_status)}</Badge>
    </span>
  )
}

export function ReviewQueuePage() {
  const { runs, counts, filters, agents, setFilters, follow, load } = useReviewQueue()
  const active = (filters.review_status ?? 'all') as Filter
  const runsLoad = useLoad(load, [load, filters])

  // Live: the run feed moves runs through processing and review as it happens, without polling.
  useEffect(() => {
    const live = new AbortController()
    follow(live.signal)
    return () => live.abort()
  }, [follow])

  const ordered = queueOrder(runs.items)
  // Files of one name are told apart by their upload time, shown beside the name.
  const seen = new Map<string, number>()
  for (const run of ordered) seen.set(run.file_name, (seen.get(run.file_name) ?? 0) + 1)
  const repeatedNames = new Set([...seen].filter(([, n]) => n > 1).map(([name]) => name))

  const agentName = (id: string) => {
    const agent = agents.find((a) => a.runtime_agent_id === id)
    return agent?.display_name ?? 'Unregistered agent'
  }

  return (
    <>
      <PageHeader
        title="Review"
        description="Extracted documents waiting for a reviewer, flagged ones first."
      />
      <UploadPanel />
      <div className="queue-controls">
        <div className="field queue-filter">
          <label htmlFor="queue-agent">Show runs of</label>
          <select
            id="queue-agent"
            value={filters.runtime_agent_id ?? ''}
            onChange={(e) => setFilters({ ...filters, runtime_agent_id: e.target.value || undefined })}
          >
            <option value="">All extractors</option>
            {agents.map((agent) => (
              <option key={agent.runtime_agent_id} value={agent.runtime_agent_id}>
                {agent.display_name}
              </option>
            ))}
          </select>
        </div>
        <div className="row" title="The approved runs these filters show">
          <span className="small muted">Approved results</span>
          <ExportButtons save={(format) => reviewApi.exportRuns(filters, format)} />
        </div>
      </div>
      <Tabs<Filter>
        label="Review status"
        active={active}
        onChange={(key) => setFilters({ ...filters, review_status: key === 'all' ? undefined : key })}
        tabs={[
          { key: 'all', label: counts ? `All ${counts.total}` : 'All' },
          ...REVIEW_FILTERS.map((key) => ({
            key,
            label: `${label('review_status', key)}${counts ? ` ${counts.by_review_status[key]}` : ''}`,
          })),
        ]}
      >
        <DataTable
          label="Runs"
          rows={ordered}
          rowKey={(run) => run.id}
          load={runsLoad}
          empty={
            active === 'all' && !filters.runtime_agent_id
              ? 'No runs here yet. Upload a PDF or a photo of a document above to extract its fields.'
              : 'No runs match these filters. Pick another status or extractor, or upload a document above.'
          }
          // Fixed widths, the document taking what is left; at narrow widths the lower-priority columns give way
          // (the notes stay in the status's tooltip, the extractor in the filter above).
          fixed
          columns={[
            {
              key: 'file',
              header: 'Document',
              render: (run) => (
                <Clipped text={`${run.file_name}, uploaded ${formatTime(run.created_at)}`}>
                  <Link to={`/console/review/${run.id}`}>{run.file_name}</Link>
                  {repeatedNames.has(run.file_name) ? (
                    <span className="small muted"> · uploaded {formatTime(run.created_at)}</span>
                  ) : null}
                </Clipped>
              ),
            },
            {
              key: 'supplier',
              header: 'Supplier',
              width: '18%',
              render: (run) => <Clipped text={firstValue(run, SUPPLIER_KEYS)} />,
            },
            {
              key: 'date',
              header: 'Date',
              width: '118px',
              render: (run) => <Clipped text={firstValue(run, DATE_KEYS)} />,
            },
            {
              key: 'total',
              header: 'Total',
              width: '112px',
              align: 'right',
              render: (run) => <Clipped text={totalOf(run)} />,
            },
            { key: 'status', header: 'Status', width: '118px', render: (run) => <RunStatus run={run} /> },
            {
              key: 'flagged',
              header: 'Flagged',
              width: '80px',
              align: 'right',
              hideBelow: 'narrow',
              render: (run) => run.summary?.flagged_count ?? '—',
            },
            {
              key: 'reviewer',
              header: 'Reviewer',
              width: '104px',
              hideBelow: 'narrow',
              render: (run) => <Clipped text={reviewerOf(run)} />,
            },
            {
              key: 'notes',
              header: 'Notes',
              width: '18%',
              hideBelow: 'medium',
              render: (run) => <Clipped text={runNote(run)} />,
            },
            {
              key: 'agent',
              header: 'Extractor',
              width: '130px',
              hideBelow: 'wide',
              render: (run) => <Clipped text={agentName(run.runtime_agent_id)} />,
            },
            {
              key: 'created',
              header: 'Uploaded',
              width: '160px',
              hideBelow: 'wide',
              render: (run) => <Clipped text={formatTime(run.created_at)} />,
            },
          ]}
        />
      </Tabs>
    </>
  )
}
