import { desc, eq } from 'drizzle-orm'
import { user } from '../auth'
import { type Queryable, selectPage } from '../db'
import { type PageQuery, pageWindow, toPage } from '../http'
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

/** The name a person knows the target by, read from the entry's own snapshots (a listing's title, a user's name). */
function targetName(...snapshots: unknown[]): string | null {
  for (const snapshot of snapshots)
    if (snapshot && typeof snapshot === 'object')
      for (const key of ['title', 'name', 'display_name', 'username'] as const) {
        const value = (snapshot as Record<string, unknown>)[key]
        if (typeof value === 'string' && value) return value
      }
  return null
}

export function listAdminActions(db: Queryable, query: PageQuery) {
  const listing = db
    .select({ entry: adminAuditLog, actorUsername: user.username })
    .from(adminAuditLog)
    .leftJoin(user, eq(user.id, adminAuditLog.actorId))
    .orderBy(desc(adminAuditLog.createdAt))
  const { rows, total } = selectPage(db, listing, { from: adminAuditLog }, pageWindow(query))
  return toPage(
    rows.map(({ entry: row, actorUsername }) => ({
      id: row.id,
      actor_id: row.actorId,
      actor_username: actorUsername,
      action: row.action,
      target_type: row.targetType,
      target_id: row.targetId,
      target_name: targetName(row.after, row.before),
      before: row.before ?? null,
      after: row.after ?? null,
      created_at: row.createdAt,
    })),
    total,
    query,
  )
}
