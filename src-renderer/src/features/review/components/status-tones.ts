import type { FieldStatus, ReviewStatus, RunStatus } from '../api/review-types'

type Tone = 'neutral' | 'info' | 'success' | 'warning' | 'danger'

export const RUN_TONE: Record<RunStatus, Tone> = {
  queued: 'neutral',
  running: 'info',
  completed: 'success',
  failed: 'danger',
}
export const REVIEW_TONE: Record<ReviewStatus, Tone> = {
  pending: 'neutral',
  flagged: 'warning',
  approved: 'success',
  rejected: 'danger',
}
export const FIELD_TONE: Record<FieldStatus, Tone> = {
  pending: 'neutral',
  flagged: 'warning',
  accepted: 'success',
  corrected: 'info',
  not_on_document: 'neutral',
}
