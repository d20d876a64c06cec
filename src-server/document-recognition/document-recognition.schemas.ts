import { type Static, Type } from 'typebox'
import { Nullable, PageQuery, Timestamp, UserRef, Uuid } from '../platform/http'
import { FIELD_REVIEW_STATUSES, FIELD_SOURCES, REVIEW_STATUSES } from './document-recognition.tables'
import { RUN_STATUSES } from './runs/runs.tables'

export const FieldValueSchema = Nullable(Type.Union([Type.String(), Type.Number(), Type.Boolean()]))
const Fraction = Type.Number({ minimum: 0, maximum: 1 })
export const BboxSchema = Type.Array(Fraction, {
  minItems: 4,
  maxItems: 4,
  description: '[x0, y0, x1, y1] from the top-left',
})
const FlagReason = Type.Enum(['missing', 'low_confidence', 'validation', 'sampled', 'unconfirmed_learning'])

export const RunParams = Type.Object({ run_id: Uuid })
export const FieldParams = Type.Object({ run_id: Uuid, field_id: Uuid })
export const PageParams = Type.Object({ run_id: Uuid, page_number: Type.Integer({ minimum: 1 }) })
export const AgentParams = Type.Object({ agent_id: Uuid })
export const RuntimeAgentParams = Type.Object({ runtime_agent_id: Uuid })

export const RegistryEntry = Type.Object({
  agent_id: Uuid,
  runtime_agent_id: Uuid,
  display_name: Type.String(),
  enabled: Type.Boolean(),
  review_sample_rate: Type.Number(),
  type: Type.String(),
  published_version_id: Nullable(Uuid),
  created_at: Timestamp,
  updated_at: Timestamp,
})

export const RegistryBody = Type.Object(
  {
    display_name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    enabled: Type.Optional(Type.Boolean()),
    /** Share of unflagged runs flagged `sampled` for a spot check; a version's own config rate wins. */
    review_sample_rate: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  },
  { additionalProperties: false },
)

export const RuntimeAgentDetail = Type.Object({
  ...RegistryEntry.properties,
  published_version: Nullable(Type.Object({ id: Uuid, version: Type.Integer() })),
  /** The versions a rerun may choose: the published one and the retired ones, oldest first. */
  versions: Type.Array(
    Type.Object({
      id: Uuid,
      version: Type.Integer(),
      status: Type.Enum(['published', 'retired']),
      created_at: Timestamp,
    }),
  ),
  upload_slot: Nullable(
    Type.Object({ key: Type.String(), accepts: Type.Array(Type.String()), max_file_mb: Type.Number() }),
  ),
  execution_policy: Nullable(
    Type.Object({
      timeout_ms: Type.Integer(),
      max_attempts: Type.Integer(),
      step_retries: Type.Integer(),
      max_pages: Type.Integer(),
      max_file_mb: Type.Number(),
    }),
  ),
})

export const FieldReview = Type.Object({
  id: Uuid,
  field_key: Type.String(),
  label: Type.String(),
  value: FieldValueSchema,
  extracted_value: FieldValueSchema,
  confidence: Type.Number(),
  page_number: Nullable(Type.Integer()),
  bbox: Nullable(BboxSchema),
  review_status: Type.Enum([...FIELD_REVIEW_STATUSES]),
  /** How the current value was found; `learned` names the run whose review taught it. */
  source: Nullable(Type.Enum([...FIELD_SOURCES])),
  learned_from_run_id: Nullable(Uuid),
  flag_reasons: Type.Array(FlagReason),
  reviewer_note: Nullable(Type.String()),
  revision_count: Type.Integer(),
  is_changed_from_extracted: Type.Boolean(),
  last_revised_at: Nullable(Timestamp),
  last_revised_by: Nullable(UserRef),
})
export type FieldReview = Static<typeof FieldReview>

export const DocumentRun = Type.Object({
  id: Uuid,
  runtime_agent_id: Uuid,
  agent_version_id: Uuid,
  runtime_agent_type_snapshot: Type.String(),
  file_name: Type.String(),
  mime_type: Type.String(),
  page_count: Nullable(Type.Integer()),
  source_document_url: Type.String(),
  source_pdf_url: Nullable(Type.String()),
  source_recoverable: Type.Boolean(),
  status: Type.Enum([...RUN_STATUSES]),
  review_status: Type.Enum([...REVIEW_STATUSES]),
  /** Why a rejected run was rejected (its latest rejection). */
  reject_reason: Nullable(Type.String()),
  error_message: Nullable(Type.String()),
  rerun_source_run_id: Nullable(Uuid),
  diff_from_source: Nullable(
    Type.Record(
      Type.String(),
      Type.Object({ source_value: FieldValueSchema, target_value: FieldValueSchema }),
    ),
  ),
  summary: Type.Object({
    field_count: Type.Integer(),
    flagged_count: Type.Integer(),
    accepted_count: Type.Integer(),
    corrected_count: Type.Integer(),
    mean_confidence: Nullable(Type.Number()),
  }),
  issue_list: Type.Array(
    Type.Object({
      field_key: Type.String(),
      kind: Type.Enum(['missing', 'low_confidence', 'validation', 'unconfirmed_learning']),
      message: Type.String(),
    }),
  ),
  field_reviews: Type.Array(FieldReview),
  preview_pages: Type.Array(
    Type.Object({
      page_number: Type.Integer(),
      width: Type.Number(),
      height: Type.Number(),
      image_url: Type.String(),
    }),
  ),
  workspace_output: Type.Unknown(),
  /** Where a running run is: its step, and in OCR the scanned pages read and to read. Null when not running. */
  progress: Nullable(
    Type.Object({
      step: Type.String(),
      page: Type.Optional(Type.Integer()),
      pages: Type.Optional(Type.Integer()),
      pages_read: Type.Optional(Type.Integer()),
    }),
  ),
  attempts: Type.Integer(),
  created_at: Timestamp,
  updated_at: Timestamp,
  completed_at: Nullable(Timestamp),
  reviewed_at: Nullable(Timestamp),
  synced_at: Nullable(Timestamp),
})
export type DocumentRun = Static<typeof DocumentRun>

export const RunListQuery = Type.Object({
  ...PageQuery.properties,
  status: Type.Optional(Type.Enum([...RUN_STATUSES])),
  review_status: Type.Optional(Type.Enum([...REVIEW_STATUSES])),
  runtime_agent_id: Type.Optional(Uuid),
  created_after: Type.Optional(Timestamp),
  created_before: Type.Optional(Timestamp),
  source_run_id: Type.Optional(Uuid),
})
export type RunListQuery = Static<typeof RunListQuery>

/** The queue's filters without paging: an export takes every approved run they match. */
export const RunExportQuery = Type.Object({
  ...Type.Omit(RunListQuery, ['page', 'size']).properties,
  format: Type.Enum(['csv', 'json']),
})
export type RunExportQuery = Static<typeof RunExportQuery>
export const RunExportOneQuery = Type.Object({ format: Type.Enum(['csv', 'json']) })
export const RunCountsQuery = Type.Omit(RunListQuery, ['page', 'size', 'review_status'])
export type RunCountsQuery = Static<typeof RunCountsQuery>
/** Runs per review status under the queue's other filters; `total` also counts runs not reviewable yet. */
export const RunCounts = Type.Object({
  total: Type.Integer(),
  by_review_status: Type.Object(
    Object.fromEntries(REVIEW_STATUSES.map((status) => [status, Type.Integer()])) as Record<
      (typeof REVIEW_STATUSES)[number],
      ReturnType<typeof Type.Integer>
    >,
  ),
})

export const FieldReviewPatch = Type.Object(
  {
    value: Type.Optional(FieldValueSchema),
    /** `not_on_document` clears the value and box: the document does not carry this field. */
    review_status: Type.Optional(Type.Enum(['accepted', 'corrected', 'not_on_document'])),
    reviewer_note: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
    page_number: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
    bbox: Type.Optional(Nullable(BboxSchema)),
  },
  { additionalProperties: false, minProperties: 1 },
)
export type FieldReviewPatch = Static<typeof FieldReviewPatch>

export const RejectBody = Type.Object(
  {
    reason: Type.String({ minLength: 1, maxLength: 2000 }),
    reviewer: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
)

export const Revision = Type.Object({
  revision: Type.Integer(),
  value: FieldValueSchema,
  previous_value: FieldValueSchema,
  review_status: Type.Enum([...FIELD_REVIEW_STATUSES]),
  reviewer_note: Nullable(Type.String()),
  page_number: Nullable(Type.Integer()),
  bbox: Nullable(BboxSchema),
  actor: Nullable(UserRef),
  created_at: Timestamp,
})

export const FieldTimeline = Type.Object({
  field_id: Uuid,
  field_key: Type.String(),
  baseline: Type.Object({
    value: FieldValueSchema,
    confidence: Type.Number(),
    page_number: Nullable(Type.Integer()),
    bbox: Nullable(BboxSchema),
  }),
  current_value: FieldValueSchema,
  current_review_status: Type.Enum([...FIELD_REVIEW_STATUSES]),
  current_reviewer_note: Nullable(Type.String()),
  history_status: Type.Enum(['recorded', 'unrecorded']),
  revisions: Type.Array(Revision),
})

/** Without a body, a rerun uses the source's extractor at its published version. */
export const RerunBody = Type.Object(
  {
    runtime_agent_id: Type.Optional(Uuid),
    version: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: false },
)
export type RerunBody = Static<typeof RerunBody>

export const RerunResponse = Type.Object({
  source_run_id: Uuid,
  target_run_id: Uuid,
  target_run: DocumentRun,
})

const Counts = Type.Record(Type.String(), Type.Integer())
export const Overview = Type.Object({
  total_runs: Type.Integer(),
  by_status: Counts,
  by_review_status: Counts,
  per_runtime_agent: Type.Array(
    Type.Object({
      runtime_agent_id: Uuid,
      name: Type.String(),
      runs: Type.Integer(),
      flagged: Type.Integer(),
    }),
  ),
  flagged_rate: Nullable(Type.Number()),
  correction_rate_by_field: Type.Record(Type.String(), Type.Number()),
  mean_confidence: Nullable(Type.Number()),
  runs_per_day: Type.Array(Type.Object({ date: Type.String(), runs: Type.Integer() })),
  median_processing_ms: Nullable(Type.Number()),
})

const PageWordSchema = Type.Object({ text: Type.String(), bbox: BboxSchema, confidence: Type.Number() })
const TextOrigin = Type.Enum(['text_layer', 'ocr'])

export const ReadRegionBody = Type.Object(
  { page_number: Type.Integer({ minimum: 1 }), bbox: BboxSchema },
  { additionalProperties: false },
)
export type ReadRegionBody = Static<typeof ReadRegionBody>

export const RegionRead = Type.Object({
  page_number: Type.Integer(),
  origin: TextOrigin,
  text: Type.String(),
  /** The text read as the field's type (the first amount, date, ...), null when none is there. */
  value: FieldValueSchema,
  /** The box of the value's words when the text reads as the field's type, else of all words; null when none. */
  bbox: Nullable(BboxSchema),
  words: Type.Array(PageWordSchema),
})

export const PageWords = Type.Object({
  page_number: Type.Integer(),
  origin: TextOrigin,
  words: Type.Array(PageWordSchema),
})

export const LearnedHint = Type.Object({
  id: Uuid,
  runtime_agent_id: Uuid,
  agent_version_id: Uuid,
  fingerprint: Type.String({ description: 'iban:..., vat:... or header:<hash>' }),
  field_key: Type.String(),
  page_number: Type.Integer(),
  label: Type.Array(Type.String()),
  label_bbox: Nullable(BboxSchema),
  value_bbox: BboxSchema,
  value_words: Nullable(
    Type.Integer({ description: 'words the value took from a line that goes on past it; null: to its end' }),
  ),
  confirmations: Type.Integer(),
  confidence: Type.Number(),
  learned_from_run_id: Uuid,
  created_at: Timestamp,
  updated_at: Timestamp,
})
