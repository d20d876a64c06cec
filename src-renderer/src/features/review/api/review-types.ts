/**
 * Shapes of the document-recognition API as the contract (50-document-recognition.md) defines them.
 * Replace with the server's schema types once `src-server/document-recognition` exports them.
 */
export type ReviewStatus = 'pending' | 'flagged' | 'approved' | 'rejected'
export type FieldStatus = 'pending' | 'flagged' | 'accepted' | 'corrected'
export type RunStatus = 'queued' | 'running' | 'completed' | 'failed'

export interface UserRef {
  id: string
  username: string
}

export interface FieldReview {
  id: string
  field_key: string
  label: string
  value: string | null
  extracted_value: string | null
  confidence: number | null
  page_number: number | null
  bbox: [number, number, number, number] | null
  review_status: FieldStatus
  flag_reasons: string[]
  revision_count: number
  is_changed_from_extracted: boolean
  last_revised_at: string | null
  last_revised_by: UserRef | null
}

export interface RecognitionRun {
  id: string
  runtime_agent_id: string
  agent_version_id: string | null
  file_name: string
  mime_type: string
  page_count: number | null
  status: RunStatus
  review_status: ReviewStatus
  error_message: string | null
  rerun_source_run_id: string | null
  source_recoverable: boolean
  summary: {
    field_count: number
    flagged_count: number
    accepted_count: number
    corrected_count: number
    mean_confidence: number | null
  } | null
  issue_list: { field_key: string; kind: string; message: string }[]
  field_reviews: FieldReview[]
  preview_pages: { page_number: number; width: number; height: number; image_url: string }[]
  created_at: string
  updated_at: string
  completed_at: string | null
  reviewed_at: string | null
  synced_at: string | null
}

export interface RuntimeAgentSummary {
  id: string
  display_name?: string
  name?: string
}

export interface FieldRevision {
  revision: number
  value: string | null
  previous_value: string | null
  review_status: FieldStatus
  reviewer_note: string | null
  page_number: number | null
  bbox: [number, number, number, number] | null
  actor: UserRef | null
  created_at: string
}

export interface FieldRevisions {
  field_id: string
  field_key: string
  baseline: {
    value: string | null
    confidence: number | null
    page_number: number | null
    bbox: number[] | null
  }
  current_value: string | null
  current_review_status: FieldStatus
  current_reviewer_note: string | null
  history_status: 'recorded' | 'unrecorded'
  revisions: FieldRevision[]
}

export interface RerunResult {
  source_run_id: string
  target_run_id: string
  target_run: RecognitionRun
}
