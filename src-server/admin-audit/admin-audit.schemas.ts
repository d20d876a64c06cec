import { type Static, Type } from 'typebox'
import { Nullable, PageQuery, Timestamp, Uuid } from '../platform/http'

export const AdminAuditEntry = Type.Object({
  id: Uuid,
  actor_id: Type.String(),
  actor_username: Nullable(Type.String()),
  action: Type.String(),
  target_type: Type.String(),
  target_id: Nullable(Type.String()),
  target_name: Nullable(Type.String({ description: "the target's title or name when its snapshot has one" })),
  reason: Nullable(Type.String({ description: 'why, as the admin typed it beside the change' })),
  before: Type.Unknown(),
  after: Type.Unknown(),
  created_at: Timestamp,
})
export type AdminAuditEntry = Static<typeof AdminAuditEntry>

/** The audit log's filters: all optional, combined with AND; `from` inclusive, `to` exclusive. */
export const AuditFilterQuery = Type.Object({
  actor_id: Type.Optional(Uuid),
  action: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  from: Type.Optional(Timestamp),
  to: Type.Optional(Timestamp),
})

export const AuditQuery = Type.Object({ ...PageQuery.properties, ...AuditFilterQuery.properties })
export type AuditQuery = Static<typeof AuditQuery>
