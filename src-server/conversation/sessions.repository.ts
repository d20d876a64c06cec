import { and, asc, count, desc, eq, gt, inArray, lt, max, ne, type SQL, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/sqlite-core'
import { user } from '../auth/auth.tables'
import { perShape, type Queryable } from '../db/client'
import { nowIso } from '../db/columns'
import {
  chatMessage,
  chatSession,
  type MessageStatus,
  type SessionState,
  type StoredCitation,
} from './conversation.tables'

export type SessionRow = typeof chatSession.$inferSelect
export type MessageRow = typeof chatMessage.$inferSelect
export type SessionWithUsers = SessionRow & { ownerUsername: string; operatorUsername: string | null }
export type MessageWithAuthor = MessageRow & { authorUsername: string | null }

const owner = alias(user, 'owner')
const operator = alias(user, 'operator')
const sessionColumns = {
  session: chatSession,
  ownerUsername: owner.username,
  operatorUsername: operator.username,
}

function sessionsQuery(db: Queryable) {
  return db
    .select(sessionColumns)
    .from(chatSession)
    .innerJoin(owner, eq(owner.id, chatSession.ownerId))
    .leftJoin(operator, eq(operator.id, chatSession.assignedOperatorId))
}

const flattenSession = (row: {
  session: SessionRow
  ownerUsername: string
  operatorUsername: string | null
}) => ({
  ...row.session,
  ownerUsername: row.ownerUsername,
  operatorUsername: row.operatorUsername,
})

export function findSession(db: Queryable, id: string): SessionWithUsers | null {
  const row = sessionsQuery(db).where(eq(chatSession.id, id)).get()
  return row ? flattenSession(row) : null
}

export function sessionExists(db: Queryable, id: string): boolean {
  return db.select({ id: chatSession.id }).from(chatSession).where(eq(chatSession.id, id)).get() !== undefined
}

export function insertSession(db: Queryable, values: typeof chatSession.$inferInsert): void {
  db.insert(chatSession).values(values).run()
}

export function updateSession(
  db: Queryable,
  id: string,
  values: Partial<typeof chatSession.$inferInsert>,
): void {
  db.update(chatSession)
    .set({ ...values, updatedAt: nowIso() })
    .where(eq(chatSession.id, id))
    .run()
}

/** Moves a session to `state` and bumps its epoch, so replies started before the change are fenced. */
export function changeSessionState(
  db: Queryable,
  id: string,
  state: SessionState,
  extra: { assignedOperatorId: string | null; agentId?: string },
): number {
  const row = db
    .update(chatSession)
    .set({ state, epoch: sql`${chatSession.epoch} + 1`, updatedAt: nowIso(), ...extra })
    .where(eq(chatSession.id, id))
    .returning({ epoch: chatSession.epoch })
    .get()
  return row?.epoch ?? 0
}

export interface SessionFilter {
  ownerId?: string
  status?: SessionState
  updatedAfter?: string
  updatedBefore?: string
}

const p = sql.placeholder

/** The list's statements per filter shape (which filters are present), with placeholders for the values. */
const sessionListStatements = perShape(
  (filter: SessionFilter) =>
    [filter.ownerId, filter.status, filter.updatedAfter, filter.updatedBefore]
      .map((value) => (value === undefined ? '-' : '+'))
      .join(''),
  (db: Queryable, filter: SessionFilter) => {
    const conditions: SQL[] = []
    if (filter.ownerId !== undefined) conditions.push(eq(chatSession.ownerId, p('ownerId')))
    if (filter.status !== undefined) conditions.push(eq(chatSession.state, p('status')))
    if (filter.updatedAfter !== undefined) conditions.push(gt(chatSession.updatedAt, p('updatedAfter')))
    if (filter.updatedBefore !== undefined) conditions.push(lt(chatSession.updatedAt, p('updatedBefore')))
    const where = and(...conditions)
    return {
      page: sessionsQuery(db)
        .where(where)
        .orderBy(desc(chatSession.updatedAt), desc(chatSession.id))
        .limit(p('limit'))
        .offset(p('offset'))
        .prepare(),
      total: db.select({ n: count() }).from(chatSession).where(where).prepare(),
    }
  },
)

export function listSessions(
  db: Queryable,
  filter: SessionFilter,
  window: { limit: number; offset: number },
) {
  const statements = sessionListStatements(db, filter)
  const values = { ...filter, ...window }
  return {
    rows: statements.page.all(values).map(flattenSession),
    total: statements.total.get(values)?.n ?? 0,
  }
}

export function insertMessage(
  db: Queryable,
  values: {
    sessionId: string
    role: string
    content: string
    messageType?: string
    status?: MessageStatus
    citations?: StoredCitation[]
    authorId?: string | null
  },
): MessageRow {
  const last = db
    .select({ seq: max(chatMessage.seq) })
    .from(chatMessage)
    .where(eq(chatMessage.sessionId, values.sessionId))
    .get()
  return db
    .insert(chatMessage)
    .values({ ...values, seq: (last?.seq ?? 0) + 1 })
    .returning()
    .get()
}

const messageColumns = { message: chatMessage, authorUsername: user.username }
const flattenMessage = (row: { message: MessageRow; authorUsername: string | null }): MessageWithAuthor => ({
  ...row.message,
  authorUsername: row.authorUsername,
})

export function findMessage(db: Queryable, id: string): MessageWithAuthor | null {
  const row = db
    .select(messageColumns)
    .from(chatMessage)
    .leftJoin(user, eq(user.id, chatMessage.authorId))
    .where(eq(chatMessage.id, id))
    .get()
  return row ? flattenMessage(row) : null
}

export interface MessageFilter {
  includeDrafts: boolean
  role?: string
  createdAfter?: string
  createdBefore?: string
}

function messageWhere(sessionId: string, filter: MessageFilter) {
  const conditions: SQL[] = [eq(chatMessage.sessionId, sessionId)]
  if (!filter.includeDrafts) conditions.push(ne(chatMessage.status, 'draft'))
  if (filter.role) conditions.push(eq(chatMessage.role, filter.role))
  if (filter.createdAfter) conditions.push(gt(chatMessage.createdAt, filter.createdAfter))
  if (filter.createdBefore) conditions.push(lt(chatMessage.createdAt, filter.createdBefore))
  return and(...conditions)
}

/** Messages oldest first, windowed. */
export function listMessages(
  db: Queryable,
  sessionId: string,
  filter: MessageFilter,
  window: { limit: number; offset: number },
) {
  const where = messageWhere(sessionId, filter)
  const rows = db
    .select(messageColumns)
    .from(chatMessage)
    .leftJoin(user, eq(user.id, chatMessage.authorId))
    .where(where)
    .orderBy(asc(chatMessage.seq))
    .limit(window.limit)
    .offset(window.offset)
    .all()
    .map(flattenMessage)
  const total = db.select({ n: count() }).from(chatMessage).where(where).get()?.n ?? 0
  return { rows, total }
}

/** The newest `limit` messages, returned oldest first. */
export function recentMessages(
  db: Queryable,
  sessionId: string,
  filter: MessageFilter & { roles?: string[] },
  limit: number,
) {
  const where = filter.roles
    ? and(messageWhere(sessionId, filter), inArray(chatMessage.role, filter.roles))
    : messageWhere(sessionId, filter)
  return db
    .select(messageColumns)
    .from(chatMessage)
    .leftJoin(user, eq(user.id, chatMessage.authorId))
    .where(where)
    .orderBy(desc(chatMessage.seq))
    .limit(limit)
    .all()
    .map(flattenMessage)
    .reverse()
}
