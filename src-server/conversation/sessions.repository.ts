import {
  and,
  asc,
  count,
  desc,
  eq,
  gt,
  inArray,
  isNotNull,
  isNull,
  lt,
  max,
  ne,
  or,
  type Placeholder,
  type SQL,
  sql,
} from 'drizzle-orm'
import { alias } from 'drizzle-orm/sqlite-core'
import { type Permission, permissionsOf, type Role, user } from '../auth'
import {
  literalLimit,
  nowIso,
  perHandle,
  perShape,
  preparePage,
  type Queryable,
  type RowWindow,
  selectPage,
} from '../platform/db'
import {
  agent,
  chatMessage,
  chatReadMarker,
  chatSession,
  type MessageStatus,
  type SessionOrigin,
  type SessionState,
  type StoredCitation,
} from './conversation.tables'

/** Private notes between operators: never sent to the user's socket nor listed to the user. */
export const OPERATOR_ONLY_ROLE = 'note'

export type SessionRow = typeof chatSession.$inferSelect
export type MessageRow = typeof chatMessage.$inferSelect
/** `readUserCount` is the viewing operator's read marker: null when nobody is viewing or nothing was read. */
export type SessionWithUsers = SessionRow & {
  ownerUsername: string
  operatorUsername: string | null
  agentName: string | null
  readUserCount: number | null
}
export type MessageWithAuthor = MessageRow & { authorUsername: string | null }

const p = sql.placeholder
const owner = alias(user, 'owner')
const operator = alias(user, 'operator')
const sessionColumns = {
  session: chatSession,
  ownerUsername: owner.username,
  operatorUsername: operator.username,
  agentName: agent.name,
  readUserCount: chatReadMarker.readUserCount,
}

/** Sessions with their owner, assignee and (for `viewerId`, a value or a placeholder) that operator's read marker. */
function sessionsQuery(db: Queryable, viewerId: string | Placeholder) {
  return db
    .select(sessionColumns)
    .from(chatSession)
    .innerJoin(owner, eq(owner.id, chatSession.ownerId))
    .leftJoin(operator, eq(operator.id, chatSession.assignedOperatorId))
    .leftJoin(agent, eq(agent.id, chatSession.agentId))
    .leftJoin(
      chatReadMarker,
      and(eq(chatReadMarker.sessionId, chatSession.id), eq(chatReadMarker.operatorId, viewerId)),
    )
}

const flattenSession = (row: {
  session: SessionRow
  ownerUsername: string
  operatorUsername: string | null
  agentName: string | null
  readUserCount: number | null
}): SessionWithUsers => ({
  ...row.session,
  ownerUsername: row.ownerUsername,
  operatorUsername: row.operatorUsername,
  agentName: row.agentName,
  readUserCount: row.readUserCount,
})

/** One session by id, prepared once per handle (every chat request reads its session). */
const sessionById = perHandle((db: Queryable) =>
  sessionsQuery(db, p('viewerId'))
    .where(eq(chatSession.id, p('id')))
    .prepare(),
)

export function findSession(
  db: Queryable,
  id: string,
  viewerId: string | null = null,
): SessionWithUsers | null {
  const row = sessionById(db).get({ id, viewerId: viewerId ?? '' })
  return row ? flattenSession(row) : null
}

/** Every operator's read marker on a session, for the operator feed's per-operator unread counts. */
export function readMarkers(db: Queryable, sessionId: string): Map<string, number> {
  const rows = db
    .select({ operatorId: chatReadMarker.operatorId, readUserCount: chatReadMarker.readUserCount })
    .from(chatReadMarker)
    .where(eq(chatReadMarker.sessionId, sessionId))
    .all()
  return new Map(rows.map((row) => [row.operatorId, row.readUserCount]))
}

/** The operator has read every user message the session holds now. */
export function markRead(db: Queryable, sessionId: string, operatorId: string): void {
  db.insert(chatReadMarker)
    .values({
      sessionId,
      operatorId,
      readUserCount: sql`(SELECT ${chatSession.userMessageCount} FROM ${chatSession} WHERE ${chatSession.id} = ${sessionId})`,
    })
    .onConflictDoUpdate({
      target: [chatReadMarker.sessionId, chatReadMarker.operatorId],
      set: { readUserCount: sql`excluded.read_user_count`, updatedAt: nowIso() },
    })
    .run()
}

/** A user message arrived: it is the inbox preview, counts toward unread, and reopens a resolved session. */
export function recordUserMessage(
  db: Queryable,
  id: string,
  message: { preview: string; at: string; asksForHuman: boolean },
): void {
  db.update(chatSession)
    .set({
      lastUserMessage: message.preview,
      lastUserMessageAt: message.at,
      userMessageCount: sql`${chatSession.userMessageCount} + 1`,
      topic: sql`coalesce(${chatSession.topic}, ${message.preview})`,
      resolvedAt: null,
      ...(message.asksForHuman && {
        waitingSince: sql`coalesce(${chatSession.waitingSince}, ${message.at})`,
      }),
      updatedAt: nowIso(),
    })
    .where(eq(chatSession.id, id))
    .run()
}

/** The user asked for a person: the session waits (since the first time it did) and is open again. */
export function requestHuman(db: Queryable, id: string): void {
  db.update(chatSession)
    .set({
      waitingSince: sql`coalesce(${chatSession.waitingSince}, ${nowIso()})`,
      resolvedAt: null,
      updatedAt: nowIso(),
    })
    .where(eq(chatSession.id, id))
    .run()
}

/** Marks the session as waiting for a human, keeping the first time it started waiting. */
export function markWaiting(db: Queryable, id: string): void {
  db.update(chatSession)
    .set({ waitingSince: sql`coalesce(${chatSession.waitingSince}, ${nowIso()})` })
    .where(eq(chatSession.id, id))
    .run()
}

/** A user who can sign in, with their permissions (an assignee must hold `chat.operate`). */
export function findActiveUser(
  db: Queryable,
  id: string,
): { username: string; permissions: Permission[] } | null {
  const row = db
    .select({ username: user.username, roles: user.roles, disabled: user.disabled })
    .from(user)
    .where(eq(user.id, id))
    .get()
  return row && !row.disabled ? { username: row.username, permissions: permissionsOf(row.roles) } : null
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

export const INBOX_VIEWS = ['mine', 'unassigned', 'all'] as const
export type InboxView = (typeof INBOX_VIEWS)[number]

export interface SessionFilter {
  ownerId?: string
  status?: SessionState
  updatedAfter?: string
  updatedBefore?: string
  origin?: SessionOrigin
  /** `open` leaves resolved sessions out, `resolved` shows only them. */
  resolved?: 'open' | 'resolved' | 'any'
  /** User name or the text of a user, AI or operator message (notes and drafts are not searched). */
  q?: string
}

const escapeLike = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/** The conditions a filter has, with placeholders for their values (filled by `filterValues`). */
function filterConditions(filter: SessionFilter): SQL[] {
  const conditions: SQL[] = []
  if (filter.ownerId) conditions.push(eq(chatSession.ownerId, p('ownerId')))
  if (filter.status) conditions.push(eq(chatSession.state, p('status')))
  if (filter.updatedAfter) conditions.push(gt(chatSession.updatedAt, p('updatedAfter')))
  if (filter.updatedBefore) conditions.push(lt(chatSession.updatedAt, p('updatedBefore')))
  if (filter.origin) conditions.push(eq(chatSession.origin, p('origin')))
  if (filter.resolved === 'open') conditions.push(isNull(chatSession.resolvedAt))
  if (filter.resolved === 'resolved') conditions.push(isNotNull(chatSession.resolvedAt))
  if (filter.q)
    conditions.push(
      or(
        sql`${owner.username} LIKE ${p('pattern')} ESCAPE '\\'`,
        sql`EXISTS (SELECT 1 FROM ${chatMessage} WHERE ${chatMessage.sessionId} = ${chatSession.id}
            AND ${chatMessage.role} IN ('user', 'assistant', 'agent') AND ${chatMessage.status} != 'draft'
            AND ${chatMessage.content} LIKE ${p('pattern')} ESCAPE '\\')`,
      ) as SQL,
    )
  return conditions
}

function filterValues(filter: SessionFilter, viewerId: string | null) {
  return {
    ownerId: filter.ownerId,
    status: filter.status,
    updatedAfter: filter.updatedAfter,
    updatedBefore: filter.updatedBefore,
    origin: filter.origin,
    pattern: filter.q ? escapeLike(filter.q) : undefined,
    viewerId: viewerId ?? '',
  }
}

/** Which conditions a filter has, never their values (see `perShape`). */
const filterShape = (filter: SessionFilter) =>
  [
    filter.ownerId && 'owner',
    filter.status && 'status',
    filter.updatedAfter && 'after',
    filter.updatedBefore && 'before',
    filter.origin && 'origin',
    filter.resolved,
    filter.q && 'q',
  ].join(',')

function viewCondition(view: InboxView): SQL | undefined {
  if (view === 'mine') return eq(chatSession.assignedOperatorId, p('viewerId'))
  if (view === 'unassigned') return isNull(chatSession.assignedOperatorId)
  return undefined
}

/**
 * The three views' counts under one filter's conditions, built on first use: one pass over the filter's sessions,
 * where a count per view (and the page's total on top) read them four times.
 */
const viewCountStatements = perShape(filterShape, (db: Queryable, filter: SessionFilter) =>
  db
    .select({
      all: count(),
      mine: sql<number>`coalesce(sum(${chatSession.assignedOperatorId} = ${p('viewerId')}), 0)`.mapWith(
        Number,
      ),
      unassigned: sql<number>`coalesce(sum(${chatSession.assignedOperatorId} IS NULL), 0)`.mapWith(Number),
    })
    .from(chatSession)
    .innerJoin(owner, eq(owner.id, chatSession.ownerId))
    .where(and(...filterConditions(filter)))
    .prepare(),
)

/** How many sessions each inbox view holds under the filter (`viewerId`: whose are `mine`, none for nobody). */
function countViews(
  db: Queryable,
  filter: SessionFilter,
  viewerId: string | null,
): Record<InboxView, number> {
  const counts = viewCountStatements(db, filter).get(filterValues(filter, viewerId))
  return { mine: counts?.mine ?? 0, unassigned: counts?.unassigned ?? 0, all: counts?.all ?? 0 }
}

/** One statement per inbox view under a filter's conditions, built by `build` from each view's WHERE. */
function perView<T>(filter: SessionFilter, build: (where: SQL | undefined) => T): Record<InboxView, T> {
  const base = filterConditions(filter)
  return Object.fromEntries(
    INBOX_VIEWS.map((view) => [view, build(and(...base, viewCondition(view)))]),
  ) as Record<InboxView, T>
}

/** The pages of one filter shape and page size, one per view, built on first use (see `literalLimit`). */
const pageStatements = perShape(
  ({ filter, limit }: { filter: SessionFilter; limit: number }) => `${filterShape(filter)}:${limit}`,
  (db: Queryable, { filter, limit }: { filter: SessionFilter; limit: number }) =>
    perView(filter, (where) =>
      sessionsQuery(db, p('viewerId'))
        .where(where)
        .orderBy(sql`${chatSession.waitingSince} IS NULL`, desc(chatSession.updatedAt), desc(chatSession.id))
        .limit(literalLimit(limit))
        .offset(p('offset'))
        .prepare(),
    ),
)

/** Sessions waiting for a human first, then newest `updated_at` first; the page's total and every view's count. */
export function listSessions(
  db: Queryable,
  filter: SessionFilter,
  view: { name: InboxView; viewerId: string | null },
  window: RowWindow,
) {
  const values = filterValues(filter, view.viewerId)
  const page = pageStatements(db, { filter, limit: window.limit })[view.name]
  const rows = page.all({ ...values, offset: window.offset }).map(flattenSession)
  const counts = countViews(db, filter, view.viewerId)
  return { rows, total: counts[view.name], counts }
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
  /** Drafts and notes are for operators only. */
  includeOperatorOnly: boolean
  role?: string
  createdAfter?: string
  createdBefore?: string
}

/** The conditions of a message filter, with placeholders for its values (filled by `messageValues`). */
function messageWhere(filter: MessageFilter) {
  const conditions: SQL[] = [eq(chatMessage.sessionId, p('sessionId'))]
  if (!filter.includeOperatorOnly)
    conditions.push(ne(chatMessage.status, 'draft'), ne(chatMessage.role, OPERATOR_ONLY_ROLE))
  if (filter.role) conditions.push(eq(chatMessage.role, p('role')))
  if (filter.createdAfter) conditions.push(gt(chatMessage.createdAt, p('createdAfter')))
  if (filter.createdBefore) conditions.push(lt(chatMessage.createdAt, p('createdBefore')))
  return and(...conditions)
}

const messageValues = (sessionId: string, filter: MessageFilter) => ({
  sessionId,
  role: filter.role,
  createdAfter: filter.createdAfter,
  createdBefore: filter.createdBefore,
})

const messagesQuery = (db: Queryable) =>
  db.select(messageColumns).from(chatMessage).leftJoin(user, eq(user.id, chatMessage.authorId))

/** Which of a message filter's conditions are present, and the page size: never their values (see `perShape`). */
const messagePageShape = ({ filter, limit }: { filter: MessageFilter; limit: number }) =>
  [
    filter.includeOperatorOnly ? 'all' : 'public',
    filter.role ? 'role' : '',
    filter.createdAfter ? 'after' : '',
    filter.createdBefore ? 'before' : '',
    limit,
  ].join(':')

const messagePages = perShape(
  messagePageShape,
  (db: Queryable, { filter, limit }: { filter: MessageFilter; limit: number }) => {
    const where = messageWhere(filter)
    const listing = messagesQuery(db).where(where).orderBy(asc(chatMessage.seq))
    return preparePage(listing, db.select({ n: count() }).from(chatMessage).where(where), limit)
  },
)

/** Messages oldest first, windowed. */
export function listMessages(db: Queryable, sessionId: string, filter: MessageFilter, window: RowWindow) {
  const page = messagePages(db, { filter, limit: window.limit })
  const values = messageValues(sessionId, filter)
  return { rows: page.rows(values, window.offset).map(flattenMessage), total: page.total(values) }
}

type RecentFilter = MessageFilter & { roles?: readonly string[] }

/**
 * The newest messages' statements, per filter shape, roles and count: the roles are part of the shape because
 * callers name them in code (the dialogue a model reads), never from a request.
 */
const recentStatements = perShape(
  ({ filter, limit }: { filter: RecentFilter; limit: number }) =>
    `${messagePageShape({ filter, limit })}:${filter.roles?.join(',') ?? ''}`,
  (db: Queryable, { filter, limit }: { filter: RecentFilter; limit: number }) =>
    messagesQuery(db)
      .where(
        and(messageWhere(filter), filter.roles ? inArray(chatMessage.role, [...filter.roles]) : undefined),
      )
      .orderBy(desc(chatMessage.seq))
      .limit(literalLimit(limit))
      .prepare(),
)

/** The newest `limit` messages, returned oldest first. */
export function recentMessages(db: Queryable, sessionId: string, filter: RecentFilter, limit: number) {
  return recentStatements(db, { filter, limit })
    .all(messageValues(sessionId, filter))
    .map(flattenMessage)
    .reverse()
}

/** A passage of a document an answer delivered to a user cited, and the agent of the session it was cited in. */
export interface CitationOfDocument {
  agentId: string | null
  chunkId: string
  pageNumber: number | null
}

/**
 * The passages of the document that answers delivered in the user's own sessions cited (drafts were never
 * delivered), each with its session's agent, so the caller can tell whether the citation still stands.
 */
export function citationsOfDocumentTo(
  db: Queryable,
  userId: string,
  documentId: string,
): CitationOfDocument[] {
  return db.all<CitationOfDocument>(
    sql`SELECT DISTINCT s.agent_id AS agentId, json_extract(c.value, '$.chunk_id') AS chunkId,
        json_extract(c.value, '$.page_number') AS pageNumber
      FROM chat_message m JOIN chat_session s ON s.id = m.session_id, json_each(m.citations_json) c
      WHERE s.owner_id = ${userId} AND m.status != 'draft' AND json_extract(c.value, '$.document_id') = ${documentId}`,
  )
}

/** Active people holding any of `roles` (the roles that operate, decided by the access module), by name. */
export function listOperators(db: Queryable, roles: readonly Role[], window: RowWindow) {
  const operating = and(
    eq(user.isSystem, false),
    eq(user.disabled, false),
    sql`EXISTS (SELECT 1 FROM json_each(${user.roles}) r WHERE r.value IN (${sql.join(
      roles.map((role) => sql`${role}`),
      sql`, `,
    )}))`,
  )
  return selectPage(
    db,
    db
      .select({ id: user.id, username: user.username })
      .from(user)
      .where(operating)
      .orderBy(asc(user.username)),
    { from: user, where: operating },
    window,
  )
}
