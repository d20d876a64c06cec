import { and, asc, eq, isNull, or } from 'drizzle-orm'
import { user } from '../auth'
import { type Queryable, type RowWindow, selectPage } from '../platform/db'
import { cannedResponse } from './conversation.tables'

export type CannedResponseRow = typeof cannedResponse.$inferSelect & { createdByUsername: string }

/** What an operator may use: their own responses and the shared ones. */
const usableBy = (operatorId: string) =>
  or(eq(cannedResponse.ownerId, operatorId), isNull(cannedResponse.ownerId))

const columns = { row: cannedResponse, createdByUsername: user.username }

export function listUsable(db: Queryable, operatorId: string, window: RowWindow) {
  const where = usableBy(operatorId)
  const listing = db
    .select(columns)
    .from(cannedResponse)
    .innerJoin(user, eq(user.id, cannedResponse.createdById))
    .where(where)
    .orderBy(asc(cannedResponse.shortcut), asc(cannedResponse.id))
  const page = selectPage(db, listing, { from: cannedResponse, where }, window)
  return {
    ...page,
    rows: page.rows.map((entry) => ({ ...entry.row, createdByUsername: entry.createdByUsername })),
  }
}

export function findUsable(db: Queryable, id: string, operatorId: string): CannedResponseRow | null {
  const entry = db
    .select(columns)
    .from(cannedResponse)
    .innerJoin(user, eq(user.id, cannedResponse.createdById))
    .where(and(eq(cannedResponse.id, id), usableBy(operatorId)))
    .get()
  return entry ? { ...entry.row, createdByUsername: entry.createdByUsername } : null
}

export function insert(db: Queryable, values: typeof cannedResponse.$inferInsert): string {
  return db.insert(cannedResponse).values(values).returning({ id: cannedResponse.id }).get().id
}

export function remove(db: Queryable, id: string): void {
  db.delete(cannedResponse).where(eq(cannedResponse.id, id)).run()
}
