import { and, asc, eq, isNull, or } from 'drizzle-orm'
import { user } from '../auth'
import { type EngineDb, engineTables, type RowWindow, readPage } from '../platform/db'
import { cannedResponse } from './conversation.tables'

export type CannedResponseRow = typeof cannedResponse.$inferSelect & { createdByUsername: string }

const tables = engineTables({ cannedResponse, user })

/** What an operator may use: their own responses and the shared ones. */
function usableBy(db: EngineDb, operatorId: string) {
  const { cannedResponse } = tables(db)
  return or(eq(cannedResponse.ownerId, operatorId), isNull(cannedResponse.ownerId))
}

function withAuthor(db: EngineDb) {
  const { cannedResponse, user } = tables(db)
  return db
    .select({ row: cannedResponse, createdByUsername: user.username })
    .from(cannedResponse)
    .innerJoin(user, eq(user.id, cannedResponse.createdById))
}

export async function listUsable(db: EngineDb, operatorId: string, window: RowWindow) {
  const { cannedResponse } = tables(db)
  const where = usableBy(db, operatorId)
  const listing = withAuthor(db).where(where).orderBy(asc(cannedResponse.shortcut), asc(cannedResponse.id))
  const page = await readPage(db, listing, { from: cannedResponse, where }, window)
  return {
    ...page,
    rows: page.rows.map((entry) => ({ ...entry.row, createdByUsername: entry.createdByUsername })),
  }
}

export async function findUsable(
  db: EngineDb,
  id: string,
  operatorId: string,
): Promise<CannedResponseRow | null> {
  const { cannedResponse } = tables(db)
  const [entry] = await withAuthor(db)
    .where(and(eq(cannedResponse.id, id), usableBy(db, operatorId)))
    .limit(1)
  return entry ? { ...entry.row, createdByUsername: entry.createdByUsername } : null
}

export async function insert(db: EngineDb, values: typeof cannedResponse.$inferInsert): Promise<string> {
  const { cannedResponse } = tables(db)
  const [row] = await db.insert(cannedResponse).values(values).returning({ id: cannedResponse.id })
  return (row as { id: string }).id
}

export async function remove(db: EngineDb, id: string): Promise<void> {
  const { cannedResponse } = tables(db)
  await db.delete(cannedResponse).where(eq(cannedResponse.id, id))
}
