import { and, desc, eq, gte, lt, type SQL } from 'drizzle-orm'
import { type EngineDb, engineTables, type RowWindow, readPage } from '../platform/db'
import { adminAuditLog } from './admin-audit.tables'

/** Which entries a read keeps: by whom, which action, from (inclusive) and until (exclusive) which instants. */
export interface AuditFilter {
  actorId?: string | undefined
  action?: string | undefined
  from?: string | undefined
  to?: string | undefined
}

export type AuditRow = typeof adminAuditLog.$inferSelect
export type AuditInsert = typeof adminAuditLog.$inferInsert

const tables = engineTables({ adminAuditLog })

export async function insertAuditEntry(db: EngineDb, entry: AuditInsert): Promise<void> {
  const { adminAuditLog } = tables(db)
  await db.insert(adminAuditLog).values(entry)
}

function whereOf(log: typeof adminAuditLog, filter: AuditFilter): SQL | undefined {
  return and(
    filter.actorId ? eq(log.actorId, filter.actorId) : undefined,
    filter.action ? eq(log.action, filter.action) : undefined,
    filter.from ? gte(log.createdAt, filter.from) : undefined,
    filter.to ? lt(log.createdAt, filter.to) : undefined,
  )
}

const listing = (db: EngineDb, log: typeof adminAuditLog, where: SQL | undefined) =>
  db.select().from(log).where(where).orderBy(desc(log.createdAt), desc(log.id))

export function findAuditPage(db: EngineDb, filter: AuditFilter, window: RowWindow) {
  const { adminAuditLog } = tables(db)
  const where = whereOf(adminAuditLog, filter)
  return readPage(db, listing(db, adminAuditLog, where), { from: adminAuditLog, where }, window)
}

/** Every matching entry, newest first, for an export. */
export async function findAuditRows(db: EngineDb, filter: AuditFilter): Promise<AuditRow[]> {
  const { adminAuditLog } = tables(db)
  return listing(db, adminAuditLog, whereOf(adminAuditLog, filter))
}
