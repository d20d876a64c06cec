import type { FieldReviewRow, FieldRevisionRow, RunReviewRow } from '../document-recognition.repository'
import type { DocumentRun, FieldReview } from '../document-recognition.schemas'
import type { AgentRunRow } from '../runs/runs.repository'

/** A run without a review seed (queued, running, failed) reads `pending`. */
export const reviewStatusOf = (review: RunReviewRow | null | undefined) =>
  (review?.reviewStatus ?? 'pending') as DocumentRun['review_status']

type Usernames = Map<string, string>
const userRef = (id: string | null, usernames: Usernames) =>
  id ? { id, username: usernames.get(id) ?? 'deleted user' } : null

export function presentFieldReview(row: FieldReviewRow, usernames: Usernames): FieldReview {
  return {
    id: row.id,
    field_key: row.fieldKey,
    label: row.label,
    value: row.value ?? null,
    extracted_value: row.extractedValue ?? null,
    confidence: row.confidence,
    page_number: row.pageNumber,
    bbox: row.bbox ?? null,
    review_status: row.reviewStatus as FieldReview['review_status'],
    source: (row.source ?? null) as FieldReview['source'],
    learned_from_run_id: row.learnedFromRunId,
    flag_reasons: row.flagReasons as FieldReview['flag_reasons'],
    reviewer_note: row.reviewerNote,
    revision_count: row.revisionCount,
    is_changed_from_extracted:
      JSON.stringify(row.value ?? null) !== JSON.stringify(row.extractedValue ?? null),
    last_revised_at: row.lastRevisedAt,
    last_revised_by: userRef(row.lastRevisedById, usernames),
  }
}

export function presentRevision(row: FieldRevisionRow, usernames: Usernames) {
  return {
    revision: row.revision,
    value: row.value ?? null,
    previous_value: row.previousValue ?? null,
    review_status: row.reviewStatus as FieldReview['review_status'],
    reviewer_note: row.reviewerNote,
    page_number: row.pageNumber,
    bbox: row.bbox ?? null,
    actor: userRef(row.actorId, usernames),
    created_at: row.createdAt,
  }
}

export function presentDocumentRun(
  run: AgentRunRow,
  review: RunReviewRow | null,
  fields: FieldReviewRow[],
  sourceRecoverable: boolean,
  usernames: Usernames,
  rejectReason: string | null,
  progress: DocumentRun['progress'],
): DocumentRun {
  const base = `/document-recognition/runs/${run.id}`
  const confidences = fields.filter((f) => f.value !== null).map((f) => f.confidence)
  return {
    id: run.id,
    runtime_agent_id: run.runtimeAgentId,
    agent_version_id: run.agentVersionId,
    runtime_agent_type_snapshot: run.agentTypeSnapshot,
    file_name: run.fileName,
    mime_type: run.mimeType,
    page_count: run.pageCount,
    source_document_url: `${base}/source-document`,
    source_pdf_url: run.pdfSha256 ? `${base}/source-pdf` : null,
    source_recoverable: sourceRecoverable,
    status: run.status as DocumentRun['status'],
    review_status: reviewStatusOf(review),
    reject_reason: review?.reviewStatus === 'rejected' ? rejectReason : null,
    error_message: run.errorMessage,
    rerun_source_run_id: run.rerunSourceRunId,
    diff_from_source: review?.diffFromSource ?? null,
    summary: {
      field_count: fields.length,
      flagged_count: fields.filter((f) => f.reviewStatus === 'flagged').length,
      accepted_count: fields.filter((f) => f.reviewStatus === 'accepted').length,
      corrected_count: fields.filter((f) => f.reviewStatus === 'corrected').length,
      mean_confidence: confidences.length
        ? Math.round((confidences.reduce((a, b) => a + b, 0) / confidences.length) * 1000) / 1000
        : null,
    },
    issue_list: fields.flatMap((f) => f.issues.map((issue) => ({ field_key: f.fieldKey, ...issue }))),
    field_reviews: fields.map((f) => presentFieldReview(f, usernames)),
    preview_pages: (review?.pages ?? []).map((page) => ({
      ...page,
      image_url: `${base}/pages/${page.page_number}/image`,
    })),
    workspace_output: run.output ?? null,
    progress,
    attempts: run.attempts,
    created_at: run.createdAt,
    updated_at: run.updatedAt,
    completed_at: run.completedAt,
    reviewed_at: review?.reviewedAt ?? null,
    synced_at: review?.syncedAt ?? null,
  }
}
