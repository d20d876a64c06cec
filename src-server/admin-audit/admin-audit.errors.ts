import { defineErrors } from '../platform/errors'

export const AdminAuditErrors = defineErrors({
  INVALID_DATE_RANGE: { status: 400, message: 'The date range ends before it starts.' },
})
