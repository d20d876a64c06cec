import type { AgentRunRow } from '../../agent-runs'
import { type Db, nowIso, type Queryable } from '../../db'
import { RecognitionErrors } from '../document-recognition.errors'
import * as repo from '../document-recognition.repository'
import type { FieldReviewPatch } from '../document-recognition.schemas'
import type { FieldValue } from '../document-recognition.tables'
import { reviewStatusOf } from './views'

const FINAL = new Set(['accepted', 'corrected'])
const same = (a: FieldValue | undefined, b: FieldValue | undefined) =>
  JSON.stringify(a ?? null) === JSON.stringify(b ?? null)

function requireOpenReview(db: Db, run: AgentRunRow): repo.RunReviewRow {
  const review = repo.findRunReview(db, run.id)
  if (run.status !== 'completed' || !review)
    throw RecognitionErrors.RUN_NOT_REVIEWABLE({ status: run.status })
  if (review.syncedAt) throw RecognitionErrors.RUN_SYNCED()
  if (review.reviewStatus === 'rejected') throw RecognitionErrors.RUN_REJECTED()
  return review
}

/**
 * Applies a reviewer's correction: updates the field, appends a revision (never updated or deleted), and moves
 * the run's review_status: `approved` once every field is accepted or corrected; a changed value on an approved
 * run reopens it (back to pending/flagged, `reviewed_at` cleared) until the next review action confirms it.
 */
export function correctField(
  db: Db,
  run: AgentRunRow,
  fieldId: string,
  patch: FieldReviewPatch,
  actorId: string,
  /** Further writes of the same review action (learning from it), in the same transaction. */
  alongside?: (tx: Queryable, field: repo.FieldReviewRow) => void,
) {
  const review = requireOpenReview(db, run)
  const field = repo.findFieldReview(db, run.id, fieldId)
  if (!field) throw RecognitionErrors.FIELD_REVIEW_NOT_FOUND({ field_id: fieldId })
  const valueChanged = patch.value !== undefined && !same(patch.value, field.value)
  const value = patch.value !== undefined ? patch.value : (field.value ?? null)
  const reviewStatus = valueChanged ? 'corrected' : (patch.review_status ?? field.reviewStatus)
  const reviewerNote = patch.reviewer_note !== undefined ? patch.reviewer_note : field.reviewerNote
  const pageNumber = patch.page_number !== undefined ? patch.page_number : field.pageNumber
  const bbox = patch.bbox !== undefined ? (patch.bbox as typeof field.bbox) : field.bbox
  const now = nowIso()
  db.transaction((tx) => {
    const revision = field.revisionCount + 1
    repo.insertRevision(tx, {
      fieldReviewId: field.id,
      revision,
      value,
      previousValue: field.value ?? null,
      reviewStatus,
      reviewerNote,
      pageNumber,
      bbox,
      actorId,
      createdAt: now,
    })
    repo.updateFieldReview(tx, field.id, {
      value,
      reviewStatus,
      reviewerNote,
      pageNumber,
      bbox,
      ...(valueChanged ? { source: 'reviewer', learnedFromRunId: null } : {}),
      revisionCount: revision,
      lastRevisedAt: now,
      lastRevisedById: actorId,
    })
    alongside?.(tx, field)
    const fields = repo.listFieldReviews(tx, run.id)
    const open = fields.some((f) => f.reviewStatus === 'flagged') ? 'flagged' : 'pending'
    const allFinal = fields.every((f) => FINAL.has(f.reviewStatus))
    let next = review.reviewStatus
    if (review.reviewStatus === 'approved' && valueChanged) next = open
    else if (allFinal) next = 'approved'
    else next = open
    if (next !== review.reviewStatus) {
      repo.updateRunReview(tx, run.id, {
        reviewStatus: next,
        reviewedAt: next === 'approved' ? now : null,
        revisionTracking: true,
      })
      if (next === 'approved' || review.reviewStatus === 'approved')
        repo.insertReviewEvent(tx, {
          runId: run.id,
          kind: next === 'approved' ? 'approved' : 'reopened',
          actorId,
          previousStatus: review.reviewStatus,
          nextStatus: next,
        })
    } else if (!review.revisionTracking) repo.updateRunReview(tx, run.id, { revisionTracking: true })
  })
}

/** Marks an approved run delivered; from then on it is read-only. */
export function syncRun(db: Db, run: AgentRunRow, actorId: string): void {
  const review = requireOpenReview(db, run)
  if (review.reviewStatus !== 'approved')
    throw RecognitionErrors.RUN_NOT_APPROVED({ review_status: review.reviewStatus })
  db.transaction((tx) => {
    repo.updateRunReview(tx, run.id, { syncedAt: nowIso() })
    repo.insertReviewEvent(tx, {
      runId: run.id,
      kind: 'synced',
      actorId,
      previousStatus: review.reviewStatus,
      nextStatus: review.reviewStatus,
    })
  })
}

/** Rejects a completed, unsynced run still pending or flagged; the review event keeps the reason and actor. */
export function rejectRun(
  db: Db,
  run: AgentRunRow,
  input: { reason: string; reviewer?: string },
  actorId: string,
): void {
  const review = repo.findRunReview(db, run.id)
  const rejectable =
    run.status === 'completed' &&
    review !== null &&
    !review.syncedAt &&
    (review.reviewStatus === 'pending' || review.reviewStatus === 'flagged')
  if (!rejectable || !review)
    throw RecognitionErrors.RUN_NOT_REJECTABLE({
      status: run.status,
      review_status: reviewStatusOf(review),
    })
  db.transaction((tx) => {
    repo.updateRunReview(tx, run.id, { reviewStatus: 'rejected' })
    repo.insertReviewEvent(tx, {
      runId: run.id,
      kind: 'rejected',
      reason: input.reason,
      reviewerName: input.reviewer ?? null,
      actorId,
      previousStatus: review.reviewStatus,
      nextStatus: 'rejected',
    })
  })
}

export function isRerunnable(db: Db, run: AgentRunRow): boolean {
  return run.status === 'failed' || repo.findRunReview(db, run.id)?.reviewStatus === 'rejected'
}
