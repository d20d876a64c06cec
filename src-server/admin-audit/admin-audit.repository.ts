import { and, desc, eq, gte, lt, type SQL } from 'drizzle-orm'
import { type Queryable, type RowWindow, selectPage } from '../platform/db'
import { adminAuditLog } from './admin-audit.tables'

/** Which entries a read keeps: by whom, which action, from (inclusive) and until (exclusive) which instants. */
export interface AuditFilter {
  actorId?: string | undefined
  action?: string | undefined
  from?: string | undefined
  to?: string | undefined
}

export type AuditRow = typeof adminAuditLog.$inferSelect

export function insertAuditEntry(db: Queryable, entry: typeof adminAuditLog.$inferInsert): void {
  db.insert(adminAuditLog).values(entry).run()
}

function whereOf(filter: AuditFilter): SQL | undefined {
  return and(
    filter.actorId ? eq(adminAuditLog.actorId, filter.actorId) : undefined,
    filter.action ? eq(adminAuditLog.action, filter.action) : undefined,
    filter.from ? gte(adminAuditLog.createdAt, filter.from) : undefined,
    filter.to ? lt(adminAuditLog.createdAt, filter.to) : undefined,
  )
}

const listing = (db: Queryable, where: SQL | undefined) =>
  db.select().from(adminAuditLog).where(where).orderBy(desc(adminAuditLog.createdAt), desc(adminAuditLog.id))

export function findAuditPage(db: Queryable, filter: AuditFilter, window: RowWindow) {
  const where = whereOf(filter)
  return selectPage(db, listing(db, where), { from: adminAuditLog, where }, window)
}

/** Every matching entry, newest first, for an export. */
export function findAuditRows(db: Queryable, filter: AuditFilter): AuditRow[] {
  return listing(db, whereOf(filter)).all()
}
