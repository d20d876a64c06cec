import { useEffect, useState } from 'react'
import { Link, useNavigate, useParams } from 'react-router'
import { Badge, Button, FormError, PageHeader } from '../../../components/ui'
import { useNotifications } from '../../../components/ui/notifications'
import { reviewApi } from '../api/review-api'
import type { RecognitionRun } from '../api/review-types'
import { useReviewRun } from '../stores/review-run-store'
import { DocumentViewer, type Zoom } from './document-viewer'
import { FieldPanel } from './field-panel'
import { RejectDialog } from './reject-dialog'
import { REVIEW_TONE, RUN_TONE } from './status-tones'

const KEYS: [string, string][] = [
  ['↓ / J', 'next field'],
  ['↑ / K', 'previous field'],
  ['N', 'next flagged'],
  ['A', 'accept'],
  ['E', 'edit'],
  ['Enter', 'save'],
  ['Esc', 'cancel'],
]

function runKey(key: string): boolean {
  const store = useReviewRun.getState()
  switch (key) {
    case 'ArrowDown':
    case 'j':
      store.move(1)
      return true
    case 'ArrowUp':
    case 'k':
      store.move(-1)
      return true
    case 'n':
      store.nextFlagged()
      return true
    case 'a':
      void store.accept()
      return true
    case 'e':
      store.startEdit()
      return true
    default:
      return false
  }
}

/** Field-by-field keyboard flow; keys typed into inputs and dialogs are left alone. */
function useReviewKeys(enabled: boolean) {
  useEffect(() => {
    if (!enabled) return
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement
      if (event.metaKey || event.ctrlKey || event.altKey || target.closest('input, textarea, select, dialog'))
        return
      const handled = runKey(event.key)
      if (handled) event.preventDefault()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [enabled])
}

const canReject = (run: RecognitionRun) =>
  run.status === 'completed' &&
  !run.synced_at &&
  (run.review_status === 'pending' || run.review_status === 'flagged')
const canRerun = (run: RecognitionRun) => run.status === 'failed' || run.review_status === 'rejected'

export function ReviewRunPage() {
  const { runId = '' } = useParams()
  const navigate = useNavigate()
  const notify = useNotifications((state) => state.push)
  const { run, selectedId, open, select, refresh, rerun } = useReviewRun()
  const [zoom, setZoom] = useState<Zoom>('fit')
  const [rejecting, setRejecting] = useState(false)
  const readOnly = run?.status !== 'completed' || Boolean(run.synced_at) || run.review_status === 'rejected'
  useReviewKeys(Boolean(run) && !rejecting)

  useEffect(() => {
    void open(runId)
  }, [open, runId])

  // A run still being processed refreshes itself until it completes or fails.
  useEffect(() => {
    if (!run || (run.status !== 'queued' && run.status !== 'running')) return
    const timer = setInterval(() => void refresh(), 1500)
    return () => clearInterval(timer)
  }, [run, refresh])

  if (!run) return <p className="muted">Loading the run…</p>

  async function startRerun() {
    const target = await rerun()
    notify({ kind: 'success', text: 'Rerun started.' })
    navigate(`/console/review/${target}`)
  }

  const download = (kind: 'source-document' | 'source-pdf' | 'result', name: string) =>
    reviewApi
      .download(run.id, kind, name)
      .catch((error: Error) => notify({ kind: 'error', text: error.message }))
  const numericZoom = zoom === 'fit' ? 1 : zoom

  return (
    <div className="review-run">
      <PageHeader
        title={run.file_name}
        description={`${run.page_count ?? '?'} page(s) · ${run.summary?.field_count ?? 0} fields · ${run.summary?.flagged_count ?? 0} flagged`}
        actions={
          <>
            <Badge tone={RUN_TONE[run.status]}>{run.status}</Badge>
            <Badge tone={REVIEW_TONE[run.review_status]}>{run.review_status}</Badge>
            {canReject(run) ? (
              <Button variant="danger" onClick={() => setRejecting(true)}>
                Reject
              </Button>
            ) : null}
            {canRerun(run) ? (
              <Button variant="primary" onClick={() => void startRerun()}>
                Rerun
              </Button>
            ) : null}
          </>
        }
      />
      {run.rerun_source_run_id ? (
        <p className="small">
          Rerun of <Link to={`/console/review/${run.rerun_source_run_id}`}>the earlier run</Link>.
        </p>
      ) : null}
      <FormError message={run.error_message} />
      <div className="review-toolbar">
        <div className="row">
          <Button
            variant="ghost"
            onClick={() => setZoom(Math.max(0.25, numericZoom - 0.25))}
            aria-label="Zoom out"
          >
            −
          </Button>
          <span className="small zoom-label">{zoom === 'fit' ? 'Fit' : `${Math.round(zoom * 100)}%`}</span>
          <Button
            variant="ghost"
            onClick={() => setZoom(Math.min(4, numericZoom + 0.25))}
            aria-label="Zoom in"
          >
            +
          </Button>
          <Button variant="ghost" onClick={() => setZoom('fit')}>
            Fit width
          </Button>
        </div>
        <div className="row">
          <Button
            variant="ghost"
            disabled={!run.source_recoverable}
            onClick={() => void download('source-document', run.file_name)}
          >
            Source
          </Button>
          <Button
            variant="ghost"
            disabled={!run.source_recoverable}
            onClick={() => void download('source-pdf', `${run.file_name}.pdf`)}
          >
            PDF
          </Button>
          <Button variant="ghost" onClick={() => void download('result', `${run.id}.json`)}>
            Result
          </Button>
        </div>
      </div>
      <div className="review-body">
        {run.status === 'completed' && run.source_recoverable ? (
          <DocumentViewer
            url={reviewApi.sourcePdfUrl(run.id)}
            fields={run.field_reviews}
            selectedId={selectedId}
            onSelect={select}
            zoom={zoom}
          />
        ) : (
          <div className="pdf-scroller muted">
            {run.status === 'failed'
              ? 'This run failed; rerun it to try again.'
              : run.source_recoverable
                ? 'Processing the document…'
                : 'The source document is no longer available.'}
          </div>
        )}
        <aside className="review-side">
          <FieldPanel readOnly={readOnly} />
          <dl className="keys" aria-label="Keyboard shortcuts">
            {KEYS.map(([key, action]) => (
              <div key={key}>
                <dt>
                  <kbd>{key}</kbd>
                </dt>
                <dd>{action}</dd>
              </div>
            ))}
          </dl>
        </aside>
      </div>
      <RejectDialog open={rejecting} onClose={() => setRejecting(false)} />
    </div>
  )
}
