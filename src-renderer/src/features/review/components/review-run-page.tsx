import { useCallback, useEffect, useState } from 'react'
import { Link, useNavigate, useParams } from 'react-router'
import { Badge, Button, EmptyState, FormError, PageHeader } from '../../../components/ui'
import { Dialog } from '../../../components/ui/dialog'
import { Loadable } from '../../../components/ui/load-state'
import { useNotifications } from '../../../components/ui/notifications'
import { label } from '../../../lib/labels'
import { useLoad } from '../../../lib/use-load'
import { reviewApi } from '../api/review-api'
import type { Bbox, PageWord, RecognitionRun } from '../api/review-types'
import { queued, useReviewRun } from '../stores/review-run-store'
import { DocumentViewer, MAX_ZOOM, MIN_ZOOM, type Zoom } from './document-viewer'
import { FieldPanel } from './field-panel'
import { RejectDialog } from './reject-dialog'
import { RerunDialog } from './rerun-dialog'
import { ExportButtons, RunNotes } from './review-queue-page'
import { REVIEW_TONE, RUN_TONE } from './status-tones'

const KEYS: [string, string][] = [
  ['↓ / J', 'next field'],
  ['↑ / K', 'previous field'],
  ['N', 'next flagged or missing field'],
  ['A', 'accept and go to the next field'],
  ['Shift+A', 'accept every unflagged field read at the confidence threshold or above'],
  ['X', 'the selected field is not on this document'],
  ['Shift+Enter', 'approve the run (accepts the fields left unreviewed; flagged ones need a look first)'],
  ['E', 'edit (the whole value is selected)'],
  ['Enter', 'save; on an approved run, open the next run'],
  ['Esc', 'cancel'],
  ['?', 'this help'],
  ['Click a word', 'fill the selected field with it'],
  ['Shift+click', 'take several words (on releasing Shift)'],
  ['Hover a box', 'show its field name where no free spot beside it was found'],
  ['Drag a box', 'fill the selected field with the words inside'],
  ['Ctrl+wheel', 'zoom toward the cursor'],
]

/** The keys of the review flow; each runs after the review actions before it (see `queued`). */
function runKey(key: string, openNextRun: () => Promise<void>): boolean {
  const store = useReviewRun.getState()
  const actions: Record<string, () => unknown> = {
    ArrowDown: () => useReviewRun.getState().move(1),
    j: () => useReviewRun.getState().move(1),
    ArrowUp: () => useReviewRun.getState().move(-1),
    k: () => useReviewRun.getState().move(-1),
    n: () => useReviewRun.getState().nextFlagged(),
    a: () => useReviewRun.getState().accept(),
    'Shift+A': () => useReviewRun.getState().acceptConfident(),
    x: () => useReviewRun.getState().notOnDocument(),
    'Shift+Enter': () => useReviewRun.getState().approve(),
    e: () => useReviewRun.getState().startEdit(),
    Enter: () => (useReviewRun.getState().run?.review_status === 'approved' ? openNextRun() : undefined),
  }
  if (key === '?') {
    store.setHelp(!store.helpOpen)
    return true
  }
  const action = actions[key]
  if (!action) return false
  void queued(action)
  return true
}

/** A key as the map names it: Shift with a letter or Enter spelled out ("Shift+A"), any other key as typed. */
const keyName = (event: KeyboardEvent) =>
  event.shiftKey && (event.key === 'Enter' || /^[a-z]$/i.test(event.key))
    ? `Shift+${event.key.length === 1 ? event.key.toUpperCase() : event.key}`
    : event.key

/**
 * Field-by-field keyboard flow; keys typed into inputs and open dialogs are left alone. A dialog just closed can
 * hold the focus until the browser next moves it (the shortcuts list has nothing focusable, so the dialog itself
 * was focused): keys pressed then are the review's.
 */
function useReviewKeys(enabled: boolean, openNextRun: () => Promise<void>) {
  useEffect(() => {
    if (!enabled) return
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement
      if (
        event.metaKey ||
        event.ctrlKey ||
        event.altKey ||
        target.closest('input, textarea, select, dialog[open]')
      )
        return
      if (event.repeat && event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return
      if (runKey(keyName(event), openNextRun)) event.preventDefault()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [enabled, openNextRun])
}

function ShortcutHelp() {
  const open = useReviewRun((state) => state.helpOpen)
  const setHelp = useReviewRun((state) => state.setHelp)
  return (
    <Dialog open={open} title="Keyboard shortcuts" onClose={() => setHelp(false)}>
      <dl className="keys keys-help">
        {KEYS.map(([key, action]) => (
          <div key={key}>
            <dt>
              <kbd>{key}</kbd>
            </dt>
            <dd>{action}</dd>
          </div>
        ))}
      </dl>
    </Dialog>
  )
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
  const {
    run,
    selectedId,
    saving,
    words,
    loadWords,
    open,
    select,
    receive,
    takeWords,
    takeRegion,
    nextRunId,
    setHelp,
    acceptConfident,
    approve,
  } = useReviewRun()
  const [zoom, setZoom] = useState<Zoom>('fit')
  const [rejecting, setRejecting] = useState(false)
  const [rerunning, setRerunning] = useState(false)
  const readOnly = run?.status !== 'completed' || Boolean(run.synced_at) || run.review_status === 'rejected'

  const openNextRun = useCallback(async () => {
    const next = await nextRunId()
    if (next) navigate(`/console/review/${next}`)
    else notify({ kind: 'success', text: 'The queue is empty: every run is reviewed.' })
  }, [nextRunId, navigate, notify])
  useReviewKeys(Boolean(run) && !rejecting && !rerunning, openNextRun)
  // A failed read of a page's words is asked again when the page next comes into view. The run's id is a
  // dependency so that pages already in view ask again for a newly opened run (the viewer's pages stay mounted).
  const shownRunId = run?.id
  const onPageVisible = useCallback(
    (pageNumber: number) => {
      if (shownRunId) void loadWords(pageNumber)
    },
    [loadWords, shownRunId],
  )
  const onTakeWords = useCallback(
    (pageNumber: number, words: PageWord[]) => void queued(() => takeWords(pageNumber, words)),
    [takeWords],
  )
  const onTakeRegion = useCallback(
    (pageNumber: number, bbox: Bbox) => void queued(() => takeRegion(pageNumber, bbox)),
    [takeRegion],
  )

  const runLoad = useLoad(() => open(runId), [open, runId])

  // The run feed brings the run's progress and other reviewers' changes, without polling.
  useEffect(() => {
    const live = new AbortController()
    reviewApi.watchRuns(
      (changed) => changed.id === runId && receive(changed),
      live.signal,
      // A failure here is the screen's to show: its own load reports it, with a Retry.
      () => void reviewApi.run(runId).then(receive, () => undefined),
    )
    return () => live.abort()
  }, [runId, receive])

  if (!run)
    return (
      <>
        <PageHeader title="Review" description="One extracted document, field by field." />
        <Loadable state={runLoad} rows={8}>
          <EmptyState
            title="This run is not here"
            action={<Link to="/console/review">Back to the queue</Link>}
          >
            Open a run from the review queue.
          </EmptyState>
        </Loadable>
      </>
    )

  const download = (kind: 'source-document' | 'source-pdf' | 'result', name: string) =>
    reviewApi
      .download(run.id, kind, name)
      .catch((error: Error) => notify({ kind: 'error', text: error.message }))
  const numericZoom = typeof zoom === 'number' ? zoom : 1

  return (
    <div className="review-run">
      <PageHeader
        title={run.file_name}
        description={`${run.page_count ?? '?'} page(s) · ${run.summary?.field_count ?? 0} fields · ${run.summary?.flagged_count ?? 0} flagged`}
        actions={
          <>
            <Badge tone={RUN_TONE[run.status]}>{label('run_status', run.status)}</Badge>
            <Badge tone={REVIEW_TONE[run.review_status]}>{label('review_status', run.review_status)}</Badge>
            {canReject(run) ? (
              <Button variant="danger" onClick={() => setRejecting(true)}>
                Reject
              </Button>
            ) : null}
            {canRerun(run) ? (
              <Button variant="primary" onClick={() => setRerunning(true)}>
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
      <RunNotes run={run} />
      <FormError message={run.error_message} />
      <div className="review-toolbar">
        <div className="row">
          <Button
            variant="ghost"
            onClick={() => setZoom(Math.max(MIN_ZOOM, numericZoom - 0.25))}
            aria-label="Zoom out"
          >
            −
          </Button>
          <span className="small zoom-label">
            {zoom === 'fit' ? 'Fit' : zoom === 'fit-page' ? 'Page' : `${Math.round(zoom * 100)}%`}
          </span>
          <Button
            variant="ghost"
            onClick={() => setZoom(Math.min(MAX_ZOOM, numericZoom + 0.25))}
            aria-label="Zoom in"
          >
            +
          </Button>
          <Button variant="ghost" aria-pressed={zoom === 'fit'} onClick={() => setZoom('fit')}>
            Fit width
          </Button>
          <Button variant="ghost" aria-pressed={zoom === 'fit-page'} onClick={() => setZoom('fit-page')}>
            Fit page
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
          <ExportButtons
            disabled={run.review_status !== 'approved'}
            title={run.review_status === 'approved' ? undefined : 'Approve the run to export it'}
            save={(format) => reviewApi.exportRun(run.id, format)}
          />
        </div>
      </div>
      <div className="review-body">
        {run.status === 'completed' && run.source_recoverable ? (
          <DocumentViewer
            url={reviewApi.sourcePdfUrl(run.id)}
            fields={run.field_reviews}
            selectedId={selectedId}
            zoom={zoom}
            interactive={!readOnly}
            words={words}
            onPageVisible={onPageVisible}
            onZoom={setZoom}
            onSelect={select}
            onTakeWords={onTakeWords}
            onTakeRegion={onTakeRegion}
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
          {run.review_status === 'approved' && !run.synced_at ? (
            <div className="approved-next" role="status">
              <strong>Approved.</strong> Press <kbd>Enter</kbd> for the next run in the queue.
              <Button variant="primary" onClick={() => void openNextRun()}>
                Next run
              </Button>
            </div>
          ) : null}
          {!readOnly && run.review_status !== 'approved' ? (
            <div className="review-run-actions">
              <Button onClick={() => void queued(acceptConfident)}>
                Accept all confident <kbd>⇧A</kbd>
              </Button>
              <Button variant="primary" onClick={() => void queued(approve)}>
                Approve <kbd>⇧Enter</kbd>
              </Button>
            </div>
          ) : null}
          <FieldPanel readOnly={readOnly} />
          <p className="small muted">
            {saving > 0 ? 'Saving…' : 'Click a word or drag a box on the page to fill the selected field.'}{' '}
            <button type="button" className="link-button" onClick={() => setHelp(true)}>
              Shortcuts <kbd>?</kbd>
            </button>
          </p>
        </aside>
      </div>
      <RejectDialog open={rejecting} onClose={() => setRejecting(false)} />
      <RerunDialog open={rerunning} onClose={() => setRerunning(false)} />
      <ShortcutHelp />
    </div>
  )
}
