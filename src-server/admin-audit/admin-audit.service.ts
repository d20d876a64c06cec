import { desc } from 'drizzle-orm'
import type { Accounts } from '../app-context'
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

/**
 * Actors are named through `accounts`, not a join on the user table: every domain that writes users (auth among
 * them) records its actions here, so this log sits below them and imports none.
 */
export function listAdminActions(db: Queryable, accounts: Pick<Accounts, 'usernamesOf'>, query: PageQuery) {
  const listing = db.select().from(adminAuditLog).orderBy(desc(adminAuditLog.createdAt))
  const { rows, total } = selectPage(db, listing, { from: adminAuditLog }, pageWindow(query))
  const usernames = accounts.usernamesOf([...new Set(rows.map((row) => row.actorId))])
  return toPage(
    rows.map((row) => ({
      id: row.id,
      actor_id: row.actorId,
      actor_username: usernames.get(row.actorId) ?? null,
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
