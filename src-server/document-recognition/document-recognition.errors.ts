import { defineErrors } from '../platform/errors'

export const RecognitionErrors = defineErrors({
  FIELD_REVIEW_NOT_FOUND: { status: 404, message: 'No such field review in this run.' },
  INVALID_FIELD_VALUE: { status: 422, message: 'The value does not fit the type of this field.' },
  PAGE_NOT_FOUND: { status: 404, message: 'This run has no such page.' },
  RUN_NOT_REVIEWABLE: { status: 409, message: 'Only a completed run can be reviewed.' },
  RUN_SYNCED: { status: 409, message: 'This run has been synced and is read-only.' },
  RUN_REJECTED: { status: 409, message: 'This run has been rejected; rerun it instead.' },
  RUN_NOT_APPROVED: { status: 409, message: 'Only an approved run can be synced.' },
  RUN_NOT_APPROVABLE: {
    status: 409,
    message: 'Flagged fields must be accepted, corrected or marked not on the document before approving.',
  },
  RESULT_NOT_APPROVED: { status: 409, message: 'Only an approved run can be exported.' },
  NOT_ON_DOCUMENT_WITH_VALUE: {
    status: 422,
    message: 'A field marked not on the document has no value; send no value with it.',
  },
  RUN_NOT_REJECTABLE: {
    status: 409,
    message: 'Only a completed, unsynced run that is pending or flagged can be rejected.',
  },
  RUN_NOT_RERUNNABLE: { status: 409, message: 'Only a failed or rejected run can be rerun.' },
  VERSION_NOT_FOUND: { status: 404, message: 'This extractor has no such version.' },
  VERSION_NOT_RUNNABLE: { status: 409, message: 'A draft version cannot run; publish it first.' },
  SOURCE_UNRECOVERABLE: { status: 410, message: 'The stored source of this run no longer exists.' },
  PDF_NOT_AVAILABLE: { status: 404, message: 'This run has no PDF yet.' },
  RESULT_NOT_AVAILABLE: { status: 409, message: 'This run has no result yet.' },
})
