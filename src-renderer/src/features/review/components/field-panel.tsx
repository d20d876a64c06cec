import { useEffect, useRef } from 'react'
import { Link } from 'react-router'
import { Badge, Button } from '../../../components/ui'
import { formatTime } from '../../../components/ui/data'
import { label } from '../../../lib/labels'
import type { FieldReview } from '../api/review-types'
import { isInFlight } from '../stores/review-queue-store'
import { queued, useReviewRun } from '../stores/review-run-store'
import { FIELD_TONE } from './status-tones'

const percent = (value: number | null) => (value === null ? '—' : `${Math.round(value * 100)}%`)

function FieldEditor({ field, readOnly }: { field: FieldReview; readOnly: boolean }) {
  const { editing, draft, fieldError, setDraft, startEdit, cancelEdit, save, accept, notOnDocument } =
    useReviewRun()
  const input = useRef<HTMLInputElement>(null)
  // E selects the whole value, so typing replaces it.
  useEffect(() => {
    if (editing) {
      input.current?.focus()
      input.current?.select()
    }
  }, [editing])
  const errorId = `field-error-${field.id}`
  if (editing)
    return (
      <form
        className="field-editor"
        onSubmit={(event) => {
          event.preventDefault()
          void queued(save)
        }}
      >
        <input
          ref={input}
          aria-label={`Value of ${field.label}`}
          aria-invalid={fieldError ? true : undefined}
          aria-describedby={fieldError ? errorId : undefined}
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => e.key === 'Escape' && cancelEdit()}
        />
        {fieldError ? (
          <p id={errorId} className="form-error field-error" role="alert">
            {fieldError}
          </p>
        ) : null}
        <Button type="submit" variant="primary">
          Save <kbd>Enter</kbd>
        </Button>
        <Button onClick={cancelEdit}>
          Cancel <kbd>Esc</kbd>
        </Button>
      </form>
    )
  return (
    <div className="field-actions">
      {fieldError ? (
        <p className="form-error field-error" role="alert">
          {fieldError}
        </p>
      ) : null}
      <Button variant="primary" disabled={readOnly} onClick={() => void queued(accept)}>
        Accept <kbd>A</kbd>
      </Button>
      <Button disabled={readOnly} onClick={() => void queued(startEdit)}>
        Edit <kbd>E</kbd>
      </Button>
      <Button
        variant="ghost"
        disabled={readOnly || field.review_status === 'not_on_document'}
        onClick={() => void queued(notOnDocument)}
      >
        Not on document <kbd>X</kbd>
      </Button>
    </div>
  )
}

/** Where the value came from; a learned one links to the run whose review taught it. */
function FieldSource({ field }: { field: FieldReview }) {
  if (field.source === 'learned' && field.learned_from_run_id)
    return (
      <p className="small muted">
        Learned from <Link to={`/console/review/${field.learned_from_run_id}`}>an earlier review</Link> of
        this layout
      </p>
    )
  return field.source ? <p className="small muted">{label('field_source', field.source)}</p> : null
}

function Timeline() {
  const timeline = useReviewRun((state) => state.timeline)
  if (!timeline) return null
  return (
    <section className="timeline" aria-label="Revision timeline">
      <h4>History</h4>
      <ol>
        <li>
          <span className="timeline-dot" />
          <div>
            <strong>{timeline.baseline.value ?? '(missing)'}</strong>
            <div className="muted small">Extracted · confidence {percent(timeline.baseline.confidence)}</div>
          </div>
        </li>
        {timeline.history_status === 'unrecorded' ? (
          <li className="muted small">
            This run predates revision tracking: earlier changes were not recorded.
          </li>
        ) : null}
        {timeline.revisions.map((revision) => (
          <li key={revision.revision}>
            <span className="timeline-dot" />
            <div>
              <strong>
                {revision.value ??
                  (revision.review_status === 'not_on_document' ? '(not on this document)' : '(missing)')}
              </strong>{' '}
              <Badge tone={FIELD_TONE[revision.review_status]}>
                {label('field_status', revision.review_status)}
              </Badge>
              <div className="muted small">
                #{revision.revision} · {revision.actor?.username ?? 'unknown'} ·{' '}
                {formatTime(revision.created_at)}
                {revision.previous_value !== revision.value
                  ? ` · was ${revision.previous_value ?? '(missing)'}`
                  : ''}
              </div>
              {revision.reviewer_note ? <div className="small">{revision.reviewer_note}</div> : null}
            </div>
          </li>
        ))}
      </ol>
    </section>
  )
}

/** The field list: every field with its value, confidence and status; the selected one opens its editor and history. */
export function FieldPanel({ readOnly }: { readOnly: boolean }) {
  const run = useReviewRun((state) => state.run)
  const selectedId = useReviewRun((state) => state.selectedId)
  const select = useReviewRun((state) => state.select)
  const fields = run?.field_reviews ?? []
  if (fields.length === 0)
    return (
      <p className="muted">
        {run && isInFlight(run)
          ? 'The fields appear here when the extraction finishes.'
          : 'This run produced no fields. Rerun it with another extractor, or reject it.'}
      </p>
    )
  return (
    <ul className="field-list" aria-label="Fields">
      {fields.map((field) => {
        const selected = field.id === selectedId
        return (
          <li
            key={field.id}
            className={selected ? 'field-item selected' : 'field-item'}
            aria-current={selected || undefined}
          >
            <button type="button" className="field-summary" onClick={() => select(field.id)}>
              <span className="field-label">{field.label}</span>
              <span className="field-value">
                {field.value ??
                  (field.review_status === 'not_on_document' ? (
                    <em className="muted">not on this document</em>
                  ) : (
                    <em className="muted">missing</em>
                  ))}
              </span>
              <span className="field-meta">
                <Badge tone={FIELD_TONE[field.review_status]}>
                  {label('field_status', field.review_status)}
                </Badge>
                <span className="muted small">{percent(field.confidence)}</span>
              </span>
            </button>
            {selected ? (
              <div className="field-detail">
                {field.flag_reasons.length > 0 ? (
                  <p className="small flag-reasons">
                    Flagged: {field.flag_reasons.map((reason) => label('flag_reason', reason)).join(', ')}
                  </p>
                ) : null}
                <FieldSource field={field} />
                <FieldEditor field={field} readOnly={readOnly} />
                <Timeline />
              </div>
            ) : null}
          </li>
        )
      })}
    </ul>
  )
}
