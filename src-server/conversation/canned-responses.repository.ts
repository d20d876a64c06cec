import { and, asc, count, eq, isNull, or } from 'drizzle-orm'
import { user } from '../auth'
import type { Queryable } from '../db'
import { cannedResponse } from './conversation.tables'

export type CannedResponseRow = typeof cannedResponse.$inferSelect & { createdByUsername: string }

/** What an operator may use: their own responses and the shared ones. */
const usableBy = (operatorId: string) =>
  or(eq(cannedResponse.ownerId, operatorId), isNull(cannedResponse.ownerId))

const columns = { row: cannedResponse, createdByUsername: user.username }

export function listUsable(db: Queryable, operatorId: string, window: { limit: number; offset: number }) {
  const rows = db
    .select(columns)
    .from(cannedResponse)
    .innerJoin(user, eq(user.id, cannedResponse.createdById))
    .where(usableBy(operatorId))
    .orderBy(asc(cannedResponse.shortcut), asc(cannedResponse.id))
    .limit(window.limit)
    .offset(window.offset)
    .all()
    .map((entry) => ({ ...entry.row, createdByUsername: entry.createdByUsername }))
  const total = db.select({ n: count() }).from(cannedResponse).where(usableBy(operatorId)).get()?.n ?? 0
  return { rows, total }
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
