import { type Db, nowIso, type Queryable } from '../../platform/db'
import { RecognitionErrors } from '../document-recognition.errors'
import * as repo from '../document-recognition.repository'
import type { FieldReviewPatch } from '../document-recognition.schemas'
import { type FieldValue, SETTLED_FIELD_STATUSES } from '../document-recognition.tables'
import type { AgentRunRow } from '../runs/runs.repository'
import { reviewStatusOf } from './review.presenters'

const isSettled = (field: repo.FieldReviewRow) => SETTLED_FIELD_STATUSES.includes(field.reviewStatus)
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

type FieldChange = Pick<
  repo.FieldReviewRow,
  'value' | 'reviewStatus' | 'reviewerNote' | 'pageNumber' | 'bbox'
> &
  Partial<Pick<repo.FieldReviewRow, 'source' | 'learnedFromRunId'>>

/** Writes a field's next state and the revision that records it. */
function reviseField(
  tx: Queryable,
  field: repo.FieldReviewRow,
  actorId: string,
  now: string,
  next: FieldChange,
) {
  const revision = field.revisionCount + 1
  repo.insertRevision(tx, {
    fieldReviewId: field.id,
    revision,
    value: next.value ?? null,
    previousValue: field.value ?? null,
    reviewStatus: next.reviewStatus,
    reviewerNote: next.reviewerNote,
    pageNumber: next.pageNumber,
    bbox: next.bbox,
    actorId,
    createdAt: now,
  })
  repo.updateFieldReview(tx, field.id, {
    ...next,
    revisionCount: revision,
    lastRevisedAt: now,
    lastRevisedById: actorId,
  })
}

/** The run's review_status after a review action on its fields, with an approved/reopened event when it moves. */
function moveRunReview(
  tx: Queryable,
  runId: string,
  review: repo.RunReviewRow,
  actorId: string,
  now: string,
  valueChanged: boolean,
) {
  const fields = repo.listFieldReviews(tx, runId)
  const open = fields.some((f) => f.reviewStatus === 'flagged') ? 'flagged' : 'pending'
  let next: string
  if (review.reviewStatus === 'approved' && valueChanged) next = open
  else if (fields.every(isSettled)) next = 'approved'
  else next = open
  if (next !== review.reviewStatus) {
    repo.updateRunReview(tx, runId, {
      reviewStatus: next,
      reviewedAt: next === 'approved' ? now : null,
      revisionTracking: true,
    })
    if (next === 'approved' || review.reviewStatus === 'approved')
      repo.insertReviewEvent(tx, {
        runId,
        kind: next === 'approved' ? 'approved' : 'reopened',
        actorId,
        previousStatus: review.reviewStatus,
        nextStatus: next,
      })
  } else if (!review.revisionTracking) repo.updateRunReview(tx, runId, { revisionTracking: true })
}

/** A run's review: the reviewer's actions on its fields and on the run, each one transaction. */
export function createReviewService(db: Db) {
  return {
    /**
     * Applies a reviewer's correction: updates the field, appends a revision (never updated or deleted), and moves the
     * run's review_status: `approved` once every field is settled (accepted, corrected or not on the document); a
     * changed value on an approved run reopens it (back to pending/flagged, `reviewed_at` cleared) until the next
     * review action confirms it. `not_on_document` clears the value and its box. A value sent corrects the field when
     * it differs and accepts an open one when it is the value already there.
     */
    correctField(
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
      const notOnDocument = patch.review_status === 'not_on_document'
      if (notOnDocument) patch = { ...patch, value: null, page_number: null, bbox: null }
      const valueChanged = patch.value !== undefined && !same(patch.value, field.value)
      const value = patch.value !== undefined ? patch.value : (field.value ?? null)
      // Sending the value already there (taken from the page by a box or a click, or typed again) is a decision too:
      // it accepts an open field, as a confirmed value is validated in Rossum.
      const confirmsValue =
        patch.value !== undefined && patch.value !== null && !valueChanged && !isSettled(field)
      const reviewStatus =
        valueChanged && !notOnDocument
          ? 'corrected'
          : (patch.review_status ?? (confirmsValue ? 'accepted' : field.reviewStatus))
      const now = nowIso()
      db.transaction((tx) => {
        reviseField(tx, field, actorId, now, {
          value,
          reviewStatus,
          reviewerNote: patch.reviewer_note !== undefined ? patch.reviewer_note : field.reviewerNote,
          pageNumber: patch.page_number !== undefined ? patch.page_number : field.pageNumber,
          bbox: patch.bbox !== undefined ? (patch.bbox as typeof field.bbox) : field.bbox,
          ...(valueChanged ? { source: 'reviewer', learnedFromRunId: null } : {}),
        })
        alongside?.(tx, field)
        moveRunReview(tx, run.id, review, actorId, now, valueChanged)
      })
    },

    /**
     * Accepts, in one action, every field not yet reviewed (`pending`: not flagged) that holds a value read at
     * `minConfidence` or above, one revision each. With `approve`, the run is approved too, which needs every other
     * field settled already: a flagged field left is a 409 naming it. Returns the accepted fields.
     */
    acceptOpenFields(
      run: AgentRunRow,
      actorId: string,
      options: { minConfidence: number; approve: boolean },
      /** Further writes of the same action (confirming learned hints), in the same transaction. */
      alongside?: (tx: Queryable, accepted: repo.FieldReviewRow[]) => void,
    ): repo.FieldReviewRow[] {
      const review = requireOpenReview(db, run)
      const fields = repo.listFieldReviews(db, run.id)
      const accepted = fields.filter(
        (f) => f.reviewStatus === 'pending' && f.value !== null && f.confidence >= options.minConfidence,
      )
      if (options.approve) {
        const open = fields.filter((f) => !isSettled(f) && !accepted.includes(f))
        if (open.length)
          throw RecognitionErrors.RUN_NOT_APPROVABLE({ open_fields: open.map((f) => f.fieldKey) })
      }
      const now = nowIso()
      db.transaction((tx) => {
        for (const field of accepted)
          reviseField(tx, field, actorId, now, {
            value: field.value ?? null,
            reviewStatus: 'accepted',
            reviewerNote: field.reviewerNote,
            pageNumber: field.pageNumber,
            bbox: field.bbox,
          })
        alongside?.(tx, accepted)
        moveRunReview(tx, run.id, review, actorId, now, false)
      })
      return accepted
    },

    /** Marks an approved run delivered; from then on it is read-only. */
    sync(run: AgentRunRow, actorId: string): void {
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
    },

    /** Rejects a completed, unsynced run still pending or flagged; the review event keeps the reason and actor. */
    reject(run: AgentRunRow, input: { reason: string; reviewer?: string }, actorId: string): void {
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
    },

    isRerunnable(run: AgentRunRow): boolean {
      return run.status === 'failed' || repo.findRunReview(db, run.id)?.reviewStatus === 'rejected'
    },
  }
}

export type ReviewService = ReturnType<typeof createReviewService>
