import { index, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { createdAt, idColumn, jsonText } from '../platform/db'

/** Append-only record of every admin write: who, what, on which target, before and after, and why. */
export const adminAuditLog = sqliteTable(
  'admin_audit_log',
  {
    id: idColumn(),
    actorId: text('actor_id').notNull(),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    before: jsonText<unknown>('before_json'),
    after: jsonText<unknown>('after_json'),
    /** Why the admin made the change, as they typed it beside it (a setting's reason, a moderation's). */
    reason: text('reason'),
    createdAt: createdAt(),
  },
  (t) => [
    index('admin_audit_log_by_time_idx').on(t.createdAt),
    index('admin_audit_log_by_actor_idx').on(t.actorId, t.createdAt),
    index('admin_audit_log_by_action_idx').on(t.action, t.createdAt),
  ],
)
