import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { createdAt, idColumn, jsonText, oneOf, updatedAt } from '../platform/db'
import { agentRun, runtimeAgent, runtimeAgentVersion } from './runs/runs.tables'

export const REVIEW_STATUSES = ['pending', 'flagged', 'approved', 'rejected'] as const
/** `not_on_document`: a reviewer's word that the document does not carry the field (not an accepted gap). */
export const FIELD_REVIEW_STATUSES = [
  'pending',
  'flagged',
  'accepted',
  'corrected',
  'not_on_document',
] as const
/** A field a reviewer has settled: the run is approved once every field is. */
export const SETTLED_FIELD_STATUSES: readonly string[] = ['accepted', 'corrected', 'not_on_document']
export type FieldValue = string | number | boolean | null
export type Bbox = [number, number, number, number]
/** Where a field review's current value came from. */
export const FIELD_SOURCES = ['rules', 'computed', 'e_invoice', 'llm', 'learned', 'reviewer'] as const
export interface PageWordRow {
  text: string
  bbox: Bbox
  confidence: number
}
export interface FieldIssue {
  kind: 'missing' | 'low_confidence' | 'validation' | 'unconfirmed_learning'
  message: string
}

/** The administrator registry: which runtime agents belong to document recognition. */
export const documentRecognitionAgent = sqliteTable('document_recognition_agent', {
  agentId: text('agent_id')
    .primaryKey()
    .references(() => runtimeAgent.id, { onDelete: 'cascade' }),
  displayName: text('display_name').notNull(),
  enabled: integer('enabled', { mode: 'boolean' }).notNull().default(true),
  reviewSampleRate: real('review_sample_rate').notNull().default(0.05),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
})

/** The review state of one run, written when its review seed is generated. */
export const documentRunReview = sqliteTable(
  'document_run_review',
  {
    runId: text('run_id')
      .primaryKey()
      .references(() => agentRun.id, { onDelete: 'cascade' }),
    reviewStatus: text('review_status').notNull().default('pending'),
    /** False for runs projected from data written before revisions were tracked. */
    revisionTracking: integer('revision_tracking', { mode: 'boolean' }).notNull().default(true),
    pages: jsonText<{ page_number: number; width: number; height: number }[]>('pages_json').notNull(),
    diffFromSource:
      jsonText<Record<string, { source_value: FieldValue; target_value: FieldValue }>>(
        'diff_from_source_json',
      ),
    reviewedAt: text('reviewed_at'),
    syncedAt: text('synced_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    oneOf('document_run_review_status_check', t.reviewStatus, REVIEW_STATUSES),
    index('document_run_review_status_idx').on(t.reviewStatus),
  ],
)

export const documentFieldReview = sqliteTable(
  'document_field_review',
  {
    id: idColumn(),
    runId: text('run_id')
      .notNull()
      .references(() => agentRun.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    fieldKey: text('field_key').notNull(),
    label: text('label').notNull(),
    value: jsonText<FieldValue>('value_json'),
    extractedValue: jsonText<FieldValue>('extracted_value_json'),
    confidence: real('confidence').notNull(),
    pageNumber: integer('page_number'),
    bbox: jsonText<Bbox>('bbox_json'),
    baselinePageNumber: integer('baseline_page_number'),
    baselineBbox: jsonText<Bbox>('baseline_bbox_json'),
    reviewStatus: text('review_status').notNull(),
    /** Null when nothing was extracted; `reviewer` once a reviewer set the value. */
    source: text('source'),
    /** The run whose correction taught the learned hint this value came from. */
    learnedFromRunId: text('learned_from_run_id'),
    flagReasons: jsonText<string[]>('flag_reasons_json').notNull(),
    issues: jsonText<FieldIssue[]>('issues_json').notNull(),
    reviewerNote: text('reviewer_note'),
    revisionCount: integer('revision_count').notNull().default(0),
    lastRevisedAt: text('last_revised_at'),
    lastRevisedById: text('last_revised_by_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    oneOf('document_field_review_status_check', t.reviewStatus, FIELD_REVIEW_STATUSES),
    uniqueIndex('document_field_review_run_key_idx').on(t.runId, t.fieldKey),
  ],
)

/** Append-only: revisions are inserted and never updated or deleted. */
export const documentFieldRevision = sqliteTable(
  'document_field_revision',
  {
    id: idColumn(),
    fieldReviewId: text('field_review_id')
      .notNull()
      .references(() => documentFieldReview.id, { onDelete: 'cascade' }),
    revision: integer('revision').notNull(),
    value: jsonText<FieldValue>('value_json'),
    previousValue: jsonText<FieldValue>('previous_value_json'),
    reviewStatus: text('review_status').notNull(),
    reviewerNote: text('reviewer_note'),
    pageNumber: integer('page_number'),
    bbox: jsonText<Bbox>('bbox_json'),
    actorId: text('actor_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('document_field_revision_number_idx').on(t.fieldReviewId, t.revision)],
)

/** Review events of a run (rejection): reason, actor, previous and next review_status. */
export const documentReviewEvent = sqliteTable(
  'document_review_event',
  {
    id: idColumn(),
    runId: text('run_id')
      .notNull()
      .references(() => agentRun.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    reason: text('reason'),
    actorId: text('actor_id').notNull(),
    /** The reviewer name a client may send alongside the signed-in actor. */
    reviewerName: text('reviewer_name'),
    previousStatus: text('previous_status').notNull(),
    nextStatus: text('next_status').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    oneOf('document_review_event_kind_check', t.kind, ['rejected', 'approved', 'reopened', 'synced']),
    index('document_review_event_run_idx').on(t.runId),
  ],
)

/**
 * The words of each page of a completed run as the pipeline read them (text layer or OCR), so review can take
 * values from the page and learn from it without reading the PDF again.
 */
export const documentPageText = sqliteTable(
  'document_page_text',
  {
    runId: text('run_id')
      .notNull()
      .references(() => agentRun.id, { onDelete: 'cascade' }),
    pageNumber: integer('page_number').notNull(),
    origin: text('origin').notNull(),
    words: jsonText<PageWordRow[]>('words_json').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.runId, t.pageNumber] }),
    oneOf('document_page_text_origin_check', t.origin, ['text_layer', 'ocr']),
  ],
)

/**
 * Where a reviewer found a field on one layout: the label words next to it and its region, under the layout's
 * fingerprint, per runtime agent version. One hint per (version, fingerprint, field); a new lesson replaces it.
 */
export const documentLearnedHint = sqliteTable(
  'document_learned_hint',
  {
    id: idColumn(),
    runtimeAgentId: text('runtime_agent_id')
      .notNull()
      .references(() => runtimeAgent.id, { onDelete: 'cascade' }),
    agentVersionId: text('agent_version_id')
      .notNull()
      .references(() => runtimeAgentVersion.id, { onDelete: 'cascade' }),
    fingerprint: text('fingerprint').notNull(),
    fieldKey: text('field_key').notNull(),
    pageNumber: integer('page_number').notNull(),
    /** Folded label words next to the value (left on its line, else the line above); empty when none. */
    label: jsonText<string[]>('label_json').notNull(),
    labelBbox: jsonText<Bbox>('label_bbox_json'),
    valueBbox: jsonText<Bbox>('value_bbox_json').notNull(),
    /** How many words the value took when its phrase went on past it; null: the value runs to its phrase's end. */
    valueWords: integer('value_words'),
    /** How many times reviewers taught or confirmed it: the confidence it earned grows with it. */
    confirmations: integer('confirmations').notNull().default(1),
    learnedFromRunId: text('learned_from_run_id')
      .notNull()
      .references(() => agentRun.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('document_learned_hint_layout_field_idx').on(t.agentVersionId, t.fingerprint, t.fieldKey),
    index('document_learned_hint_agent_idx').on(t.runtimeAgentId),
  ],
)
