import { type Database, type EngineDb, nowIso } from '../../platform/db'
import { RecognitionErrors } from '../document-recognition.errors'
import * as repo from '../document-recognition.repository'
import type { FieldReviewPatch } from '../document-recognition.schemas'
import { type FieldValue, SETTLED_FIELD_STATUSES } from '../document-recognition.tables'
import type { AgentRunRow } from '../runs/runs.repository'
import { reviewStatusOf } from './review.presenters'
import type { RunFeed } from './run-feed'

const isSettled = (field: repo.FieldReviewRow) => SETTLED_FIELD_STATUSES.includes(field.reviewStatus)
const same = (a: FieldValue | undefined, b: FieldValue | undefined) =>
  JSON.stringify(a ?? null) === JSON.stringify(b ?? null)

/**
 * The run's review, held for the transaction `tx` (see `holdRunReview`), when it is open to review actions. Every
 * review action reads here first, so two actions on one run (two reviewers, two instances) take turns.
 */
async function requireOpenReview(tx: EngineDb, run: AgentRunRow): Promise<repo.RunReviewRow> {
  const review = await repo.holdRunReview(tx, run.id)
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
async function reviseField(
  tx: EngineDb,
  field: repo.FieldReviewRow,
  actorId: string,
  now: string,
  next: FieldChange,
) {
  const revision = field.revisionCount + 1
  await repo.insertRevision(tx, {
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
  await repo.updateFieldReview(tx, field.id, {
    ...next,
    revisionCount: revision,
    lastRevisedAt: now,
    lastRevisedById: actorId,
  })
}

/** The run's review_status after a review action on its fields, with an approved/reopened event when it moves. */
async function moveRunReview(
  tx: EngineDb,
  runId: string,
  review: repo.RunReviewRow,
  actorId: string,
  now: string,
  valueChanged: boolean,
) {
  const fields = await repo.listFieldReviews(tx, runId)
  const open = fields.some((f) => f.reviewStatus === 'flagged') ? 'flagged' : 'pending'
  let next: string
  if (review.reviewStatus === 'approved' && valueChanged) next = open
  else if (fields.every(isSettled)) next = 'approved'
  else next = open
  if (next !== review.reviewStatus) {
    await repo.updateRunReview(tx, runId, {
      reviewStatus: next,
      reviewedAt: next === 'approved' ? now : null,
      revisionTracking: true,
    })
    if (next === 'approved' || review.reviewStatus === 'approved')
      await repo.insertReviewEvent(tx, {
        runId,
        kind: next === 'approved' ? 'approved' : 'reopened',
        actorId,
        previousStatus: review.reviewStatus,
        nextStatus: next,
      })
  } else if (!review.revisionTracking) await repo.updateRunReview(tx, runId, { revisionTracking: true })
}

/** A run's review: the reviewer's actions on its fields and on the run, each one transaction the feed announces. */
export function createReviewService(database: Database, feed: RunFeed) {
  const db = database.reader
  return {
    /**
     * Applies a reviewer's correction: updates the field, appends a revision (never updated or deleted), and moves the
     * run's review_status: `approved` once every field is settled (accepted, corrected or not on the document); a
     * changed value on an approved run reopens it (back to pending/flagged, `reviewed_at` cleared) until the next
     * review action confirms it. `not_on_document` clears the value and its box. A value sent corrects the field when
     * it differs and accepts an open one when it is the value already there.
     */
    async correctField(
      run: AgentRunRow,
      fieldId: string,
      patch: FieldReviewPatch,
      actorId: string,
      /** Further writes of the same review action (learning from it), in the same transaction. */
      alongside?: (tx: EngineDb, field: repo.FieldReviewRow) => Promise<void>,
    ) {
      await database.transact(async (tx) => {
        const review = await requireOpenReview(tx, run)
        const field = await repo.findFieldReview(tx, run.id, fieldId)
        if (!field) throw RecognitionErrors.FIELD_REVIEW_NOT_FOUND({ field_id: fieldId })
        const notOnDocument = patch.review_status === 'not_on_document'
        const change = notOnDocument ? { ...patch, value: null, page_number: null, bbox: null } : patch
        const valueChanged = change.value !== undefined && !same(change.value, field.value)
        const value = change.value !== undefined ? change.value : (field.value ?? null)
        // Sending the value already there (taken from the page by a box or a click, or typed again) is a decision too:
        // it accepts an open field, as a confirmed value is validated in Rossum.
        const confirmsValue =
          change.value !== undefined && change.value !== null && !valueChanged && !isSettled(field)
        const reviewStatus =
          valueChanged && !notOnDocument
            ? 'corrected'
            : (change.review_status ?? (confirmsValue ? 'accepted' : field.reviewStatus))
        const now = nowIso()
        await reviseField(tx, field, actorId, now, {
          value,
          reviewStatus,
          reviewerNote: change.reviewer_note !== undefined ? change.reviewer_note : field.reviewerNote,
          pageNumber: change.page_number !== undefined ? change.page_number : field.pageNumber,
          bbox: change.bbox !== undefined ? (change.bbox as typeof field.bbox) : field.bbox,
          ...(valueChanged ? { source: 'reviewer', learnedFromRunId: null } : {}),
        })
        await alongside?.(tx, field)
        await moveRunReview(tx, run.id, review, actorId, now, valueChanged)
        await feed.publishIn(tx, run.id)
      })
    },

    /**
     * Accepts, in one action, every field not yet reviewed (`pending`: not flagged) that holds a value read at
     * `minConfidence` or above, one revision each. With `approve`, the run is approved too, which needs every other
     * field settled already: a flagged field left is a 409 naming it. Returns the accepted fields.
     */
    async acceptOpenFields(
      run: AgentRunRow,
      actorId: string,
      options: { minConfidence: number; approve: boolean },
      /** Further writes of the same action (confirming learned hints), in the same transaction. */
      alongside?: (tx: EngineDb, accepted: repo.FieldReviewRow[]) => Promise<void>,
    ): Promise<repo.FieldReviewRow[]> {
      return database.transact(async (tx) => {
        const review = await requireOpenReview(tx, run)
        const fields = await repo.listFieldReviews(tx, run.id)
        const accepted = fields.filter(
          (f) => f.reviewStatus === 'pending' && f.value !== null && f.confidence >= options.minConfidence,
        )
        if (options.approve) {
          const open = fields.filter((f) => !isSettled(f) && !accepted.includes(f))
          if (open.length)
            throw RecognitionErrors.RUN_NOT_APPROVABLE({ open_fields: open.map((f) => f.fieldKey) })
        }
        const now = nowIso()
        for (const field of accepted)
          await reviseField(tx, field, actorId, now, {
            value: field.value ?? null,
            reviewStatus: 'accepted',
            reviewerNote: field.reviewerNote,
            pageNumber: field.pageNumber,
            bbox: field.bbox,
          })
        await alongside?.(tx, accepted)
        await moveRunReview(tx, run.id, review, actorId, now, false)
        await feed.publishIn(tx, run.id)
        return accepted
      })
    },

    /** Marks an approved run delivered; from then on it is read-only. */
    async sync(run: AgentRunRow, actorId: string): Promise<void> {
      await database.transact(async (tx) => {
        const review = await requireOpenReview(tx, run)
        if (review.reviewStatus !== 'approved')
          throw RecognitionErrors.RUN_NOT_APPROVED({ review_status: review.reviewStatus })
        await repo.updateRunReview(tx, run.id, { syncedAt: nowIso() })
        await repo.insertReviewEvent(tx, {
          runId: run.id,
          kind: 'synced',
          actorId,
          previousStatus: review.reviewStatus,
          nextStatus: review.reviewStatus,
        })
        await feed.publishIn(tx, run.id)
      })
    },

    /** Rejects a completed, unsynced run still pending or flagged; the review event keeps the reason and actor. */
    async reject(
      run: AgentRunRow,
      input: { reason: string; reviewer?: string },
      actorId: string,
    ): Promise<void> {
      await database.transact(async (tx) => {
        const review = await repo.holdRunReview(tx, run.id)
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
        await repo.updateRunReview(tx, run.id, { reviewStatus: 'rejected' })
        await repo.insertReviewEvent(tx, {
          runId: run.id,
          kind: 'rejected',
          reason: input.reason,
          reviewerName: input.reviewer ?? null,
          actorId,
          previousStatus: review.reviewStatus,
          nextStatus: 'rejected',
        })
        await feed.publishIn(tx, run.id)
      })
    },

    async isRerunnable(run: AgentRunRow): Promise<boolean> {
      return run.status === 'failed' || (await repo.findRunReview(db, run.id))?.reviewStatus === 'rejected'
    },
  }
}

export type ReviewService = ReturnType<typeof createReviewService>
