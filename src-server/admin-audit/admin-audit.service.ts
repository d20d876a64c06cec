import { count, desc } from 'drizzle-orm'
import type { Queryable } from '../db/client'
import type { PageQuery } from '../http/common.schemas'
import { pageWindow, toPage } from '../http/pagination'
import { adminAuditLog } from './admin-audit.tables'

export interface AdminAction {
  actorId: string
  action: string
  targetType: string
  targetId?: string | null
  before?: unknown
  after?: unknown
}

/** Call inside the same transaction as the admin write it describes, so the log and the change agree. */
export function recordAdminAction(db: Queryable, entry: AdminAction): void {
  db.insert(adminAuditLog)
    .values({
      actorId: entry.actorId,
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId ?? null,
      before: entry.before ?? null,
      after: entry.after ?? null,
    })
    .run()
}

export function listAdminActions(db: Queryable, query: PageQuery) {
  const { limit, offset } = pageWindow(query)
  const rows = db
    .select()
    .from(adminAuditLog)
    .orderBy(desc(adminAuditLog.createdAt))
    .limit(limit)
    .offset(offset)
    .all()
  const total = db.select({ n: count() }).from(adminAuditLog).get()?.n ?? 0
  return toPage(
    rows.map((row) => ({
      id: row.id,
      actor_id: row.actorId,
      action: row.action,
      target_type: row.targetType,
      target_id: row.targetId,
      before: row.before ?? null,
      after: row.after ?? null,
      created_at: row.createdAt,
    })),
    total,
    query,
  )
}
