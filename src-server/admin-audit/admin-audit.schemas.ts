import { type Static, Type } from 'typebox'
import { Nullable, Timestamp, Uuid } from '../http'

export const AdminAuditEntry = Type.Object({
  id: Uuid,
  actor_id: Type.String(),
  actor_username: Nullable(Type.String()),
  action: Type.String(),
  target_type: Type.String(),
  target_id: Nullable(Type.String()),
  target_name: Nullable(Type.String({ description: "the target's title or name when its snapshot has one" })),
  before: Type.Unknown(),
  after: Type.Unknown(),
  created_at: Timestamp,
})
export type AdminAuditEntry = Static<typeof AdminAuditEntry>
