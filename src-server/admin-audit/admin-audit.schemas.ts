import { type Static, Type } from 'typebox'
import { Nullable, Timestamp, Uuid } from '../http/common.schemas'

export const AdminAuditEntry = Type.Object({
  id: Uuid,
  actor_id: Type.String(),
  action: Type.String(),
  target_type: Type.String(),
  target_id: Nullable(Type.String()),
  before: Type.Unknown(),
  after: Type.Unknown(),
  created_at: Timestamp,
})
export type AdminAuditEntry = Static<typeof AdminAuditEntry>
