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
  type EngineDb,
  engineTables,
  isPostgres,
  jsonArrayHasAny,
  likeIgnoringCase,
  literalLimit,
  nowIso,
  preparedSelect,
  type RowWindow,
  readPage,
  runSql,
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
const engineSet = engineTables({ user, agent, chatMessage, chatReadMarker, chatSession })
const withUserAliases = (set: ReturnType<typeof engineSet>) => ({
  ...set,
  owner: alias(set.user, 'owner'),
  operator: alias(set.user, 'operator'),
})
const bySet = new Map<object, ReturnType<typeof withUserAliases>>()
/** The engine's tables, with the user table twice more: as a session's owner and as its assigned operator. */
function tables(db: EngineDb): ReturnType<typeof withUserAliases> {
  const set = engineSet(db)
  let found = bySet.get(set.user)
  if (!found) {
    found = withUserAliases(set)
    bySet.set(set.user, found)
  }
  return found
}

/** Sessions with their owner, assignee and (for `viewerId`, a value or a placeholder) that operator's read marker. */
function sessionsQuery(db: EngineDb, viewerId: string | Placeholder) {
  const { chatSession, owner, operator, agent, chatReadMarker } = tables(db)
  return db
    .select({
      session: chatSession,
      ownerUsername: owner.username,
      operatorUsername: operator.username,
      agentName: agent.name,
      readUserCount: chatReadMarker.readUserCount,
    })
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

/** One session by id, prepared once (every chat request reads its session). */
const sessionById = preparedSelect(
  'session_by_id',
  () => '',
  (db: EngineDb) => sessionsQuery(db, p('viewerId')).where(eq(tables(db).chatSession.id, p('id'))),
)

export async function findSession(
  db: EngineDb,
  id: string,
  viewerId: string | null = null,
): Promise<SessionWithUsers | null> {
  const [row] = await sessionById(db, null, { id, viewerId: viewerId ?? '' })
  return row ? flattenSession(row) : null
}

/** Every operator's read marker on a session, for the operator feed's per-operator unread counts. */
export async function readMarkers(db: EngineDb, sessionId: string): Promise<Map<string, number>> {
  const { chatReadMarker } = tables(db)
  const rows = await db
    .select({ operatorId: chatReadMarker.operatorId, readUserCount: chatReadMarker.readUserCount })
    .from(chatReadMarker)
    .where(eq(chatReadMarker.sessionId, sessionId))
  return new Map(rows.map((row) => [row.operatorId, row.readUserCount]))
}

/** The operator has read every user message the session holds now. */
export async function markRead(db: EngineDb, sessionId: string, operatorId: string): Promise<void> {
  const { chatReadMarker, chatSession } = tables(db)
  await db
    .insert(chatReadMarker)
    .values({
      sessionId,
      operatorId,
      readUserCount: sql`(SELECT ${chatSession.userMessageCount} FROM ${chatSession} WHERE ${chatSession.id} = ${sessionId})`,
    })
    .onConflictDoUpdate({
      target: [chatReadMarker.sessionId, chatReadMarker.operatorId],
      set: { readUserCount: sql`excluded.read_user_count`, updatedAt: nowIso() },
    })
}

/** A user message arrived: it is the inbox preview, counts toward unread, and reopens a resolved session. */
export async function recordUserMessage(
  db: EngineDb,
  id: string,
  message: { preview: string; at: string; asksForHuman: boolean },
): Promise<void> {
  const { chatSession } = tables(db)
  await db
    .update(chatSession)
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
}

/** The user asked for a person: the session waits (since the first time it did) and is open again. */
export async function requestHuman(db: EngineDb, id: string): Promise<void> {
  const { chatSession } = tables(db)
  await db
    .update(chatSession)
    .set({
      waitingSince: sql`coalesce(${chatSession.waitingSince}, ${nowIso()})`,
      resolvedAt: null,
      updatedAt: nowIso(),
    })
    .where(eq(chatSession.id, id))
}

/** Marks the session as waiting for a human, keeping the first time it started waiting. */
export async function markWaiting(db: EngineDb, id: string): Promise<void> {
  const { chatSession } = tables(db)
  await db
    .update(chatSession)
    .set({ waitingSince: sql`coalesce(${chatSession.waitingSince}, ${nowIso()})` })
    .where(eq(chatSession.id, id))
}

/** A user who can sign in, with their permissions (an assignee must hold `chat.operate`). */
export async function findActiveUser(
  db: EngineDb,
  id: string,
): Promise<{ username: string; permissions: Permission[] } | null> {
  const { user } = tables(db)
  const [row] = await db
    .select({ username: user.username, roles: user.roles, disabled: user.disabled })
    .from(user)
    .where(eq(user.id, id))
    .limit(1)
  return row && !row.disabled ? { username: row.username, permissions: permissionsOf(row.roles) } : null
}

/** Whether a session has the id (mcp's call audit of a session). */
export async function sessionExists(db: EngineDb, id: string): Promise<boolean> {
  const { chatSession } = tables(db)
  const rows = await db
    .select({ id: chatSession.id })
    .from(chatSession)
    .where(eq(chatSession.id, id))
    .limit(1)
  return rows.length > 0
}

/** Inserts the session unless its id is taken (two first messages racing): whether this call inserted it. */
export async function insertSession(db: EngineDb, values: typeof chatSession.$inferInsert): Promise<boolean> {
  const { chatSession } = tables(db)
  const inserted = await db
    .insert(chatSession)
    .values(values)
    .onConflictDoNothing()
    .returning({ id: chatSession.id })
  return inserted.length > 0
}

export async function updateSession(
  db: EngineDb,
  id: string,
  values: Partial<typeof chatSession.$inferInsert>,
): Promise<void> {
  const { chatSession } = tables(db)
  await db
    .update(chatSession)
    .set({ ...values, updatedAt: nowIso() })
    .where(eq(chatSession.id, id))
}

/** Moves a session to `state` and bumps its epoch, so replies started before the change are fenced. */
export async function changeSessionState(
  db: EngineDb,
  id: string,
  state: SessionState,
  extra: { assignedOperatorId: string | null; agentId?: string },
): Promise<number> {
  const { chatSession } = tables(db)
  const [row] = await db
    .update(chatSession)
    .set({ state, epoch: sql`${chatSession.epoch} + 1`, updatedAt: nowIso(), ...extra })
    .where(eq(chatSession.id, id))
    .returning({ epoch: chatSession.epoch })
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
function filterConditions(db: EngineDb, filter: SessionFilter): SQL[] {
  const { chatSession, chatMessage, owner } = tables(db)
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
        likeIgnoringCase(db, owner.username, p('pattern')),
        sql`EXISTS (SELECT 1 FROM ${chatMessage} WHERE ${chatMessage.sessionId} = ${chatSession.id}
            AND ${chatMessage.role} IN ('user', 'assistant', 'agent') AND ${chatMessage.status} != 'draft'
            AND ${likeIgnoringCase(db, chatMessage.content, p('pattern'))})`,
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

function viewCondition(db: EngineDb, view: InboxView): SQL | undefined {
  const { chatSession } = tables(db)
  if (view === 'mine') return eq(chatSession.assignedOperatorId, p('viewerId'))
  if (view === 'unassigned') return isNull(chatSession.assignedOperatorId)
  return undefined
}

/**
 * The three views' counts under one filter's conditions: one pass over the filter's sessions, where a count per
 * view (and the page's total on top) read them four times.
 */
const viewCounts = preparedSelect(
  'session_view_counts',
  filterShape,
  (db: EngineDb, filter: SessionFilter) => {
    const { chatSession, owner } = tables(db)
    return db
      .select({
        all: count(),
        mine: sql<number>`coalesce(sum(CASE WHEN ${chatSession.assignedOperatorId} = ${p('viewerId')} THEN 1 ELSE 0 END), 0)`.mapWith(
          Number,
        ),
        unassigned:
          sql<number>`coalesce(sum(CASE WHEN ${chatSession.assignedOperatorId} IS NULL THEN 1 ELSE 0 END), 0)`.mapWith(
            Number,
          ),
      })
      .from(chatSession)
      .innerJoin(owner, eq(owner.id, chatSession.ownerId))
      .where(and(...filterConditions(db, filter)))
  },
)

/** One page of one view under one filter shape and page size (see `literalLimit`). */
const sessionPages = preparedSelect(
  'session_page',
  ({ filter, view, limit }: { filter: SessionFilter; view: InboxView; limit: number }) =>
    `${filterShape(filter)}:${view}:${limit}`,
  (db: EngineDb, { filter, view, limit }: { filter: SessionFilter; view: InboxView; limit: number }) => {
    const { chatSession } = tables(db)
    return sessionsQuery(db, p('viewerId'))
      .where(and(...filterConditions(db, filter), viewCondition(db, view)))
      .orderBy(sql`${chatSession.waitingSince} IS NULL`, desc(chatSession.updatedAt), desc(chatSession.id))
      .limit(literalLimit(limit))
      .offset(p('offset'))
  },
)

/** Sessions waiting for a human first, then newest `updated_at` first; the page's total and every view's count. */
export async function listSessions(
  db: EngineDb,
  filter: SessionFilter,
  view: { name: InboxView; viewerId: string | null },
  window: RowWindow,
) {
  const values = filterValues(filter, view.viewerId)
  const rows = await sessionPages(
    db,
    { filter, view: view.name, limit: window.limit },
    { ...values, offset: window.offset },
  )
  const [found] = await viewCounts(db, filter, values)
  const counts = { mine: found?.mine ?? 0, unassigned: found?.unassigned ?? 0, all: found?.all ?? 0 }
  return { rows: rows.map(flattenSession), total: counts[view.name], counts }
}

/**
 * Stores a message as the session's next in order. On PostgreSQL the session's row is locked first, so two
 * messages stored at once on one session (two instances) number one after the other instead of colliding.
 */
export async function insertMessage(
  db: EngineDb,
  values: {
    sessionId: string
    role: string
    content: string
    messageType?: string
    status?: MessageStatus
    citations?: StoredCitation[]
    authorId?: string | null
  },
): Promise<MessageRow> {
  const { chatMessage, chatSession } = tables(db)
  if (isPostgres(db))
    await runSql(
      db,
      sql`SELECT 1 FROM ${chatSession} WHERE ${chatSession.id} = ${values.sessionId} FOR UPDATE`,
    )
  const [last] = await db
    .select({ seq: max(chatMessage.seq) })
    .from(chatMessage)
    .where(eq(chatMessage.sessionId, values.sessionId))
  const [row] = await db
    .insert(chatMessage)
    .values({ ...values, seq: Number(last?.seq ?? 0) + 1 })
    .returning()
  return row as MessageRow
}

function messagesQuery(db: EngineDb) {
  const { chatMessage, user } = tables(db)
  return db
    .select({ message: chatMessage, authorUsername: user.username })
    .from(chatMessage)
    .leftJoin(user, eq(user.id, chatMessage.authorId))
}

const flattenMessage = (row: { message: MessageRow; authorUsername: string | null }): MessageWithAuthor => ({
  ...row.message,
  authorUsername: row.authorUsername,
})

export async function findMessage(db: EngineDb, id: string): Promise<MessageWithAuthor | null> {
  const { chatMessage } = tables(db)
  const [row] = await messagesQuery(db).where(eq(chatMessage.id, id)).limit(1)
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
function messageWhere(db: EngineDb, filter: MessageFilter) {
  const { chatMessage } = tables(db)
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

/** Which of a message filter's conditions are present: never their values (see `perShape`). */
const messageShape = (filter: MessageFilter) =>
  [
    filter.includeOperatorOnly ? 'all' : 'public',
    filter.role ? 'role' : '',
    filter.createdAfter ? 'after' : '',
    filter.createdBefore ? 'before' : '',
  ].join(':')

const messagePages = preparedSelect(
  'message_page',
  ({ filter, limit }: { filter: MessageFilter; limit: number }) => `${messageShape(filter)}:${limit}`,
  (db: EngineDb, { filter, limit }: { filter: MessageFilter; limit: number }) =>
    messagesQuery(db)
      .where(messageWhere(db, filter))
      .orderBy(asc(tables(db).chatMessage.seq))
      .limit(literalLimit(limit))
      .offset(p('offset')),
)

const messageCounts = preparedSelect('message_count', messageShape, (db: EngineDb, filter: MessageFilter) =>
  db.select({ n: count() }).from(tables(db).chatMessage).where(messageWhere(db, filter)),
)

/** Messages oldest first, windowed (a limit of -1: all of them). */
export async function listMessages(
  db: EngineDb,
  sessionId: string,
  filter: MessageFilter,
  window: RowWindow,
) {
  const values = messageValues(sessionId, filter)
  // PostgreSQL has no negative LIMIT; all rows of a session are fewer than this.
  const limit = window.limit < 0 && isPostgres(db) ? Number.MAX_SAFE_INTEGER : window.limit
  const rows = await messagePages(db, { filter, limit }, { ...values, offset: window.offset })
  const [total] = await messageCounts(db, filter, values)
  return { rows: rows.map(flattenMessage), total: total?.n ?? 0 }
}

type RecentFilter = MessageFilter & { roles?: readonly string[] }

/**
 * The newest messages' statements, per filter shape, roles and count: the roles are part of the shape because
 * callers name them in code (the dialogue a model reads), never from a request.
 */
const recentStatements = preparedSelect(
  'recent_messages',
  ({ filter, limit }: { filter: RecentFilter; limit: number }) =>
    `${messageShape(filter)}:${limit}:${filter.roles?.join(',') ?? ''}`,
  (db: EngineDb, { filter, limit }: { filter: RecentFilter; limit: number }) => {
    const { chatMessage } = tables(db)
    return messagesQuery(db)
      .where(
        and(
          messageWhere(db, filter),
          filter.roles ? inArray(chatMessage.role, [...filter.roles]) : undefined,
        ),
      )
      .orderBy(desc(chatMessage.seq))
      .limit(literalLimit(limit))
  },
)

/** The newest `limit` messages, returned oldest first. */
export async function recentMessages(db: EngineDb, sessionId: string, filter: RecentFilter, limit: number) {
  const rows = await recentStatements(db, { filter, limit }, messageValues(sessionId, filter))
  return rows.map(flattenMessage).reverse()
}

/** The messages stored on a session after `seq` (all of them, operators' own included), oldest first. */
export async function messagesAfter(
  db: EngineDb,
  sessionId: string,
  seq: number,
): Promise<MessageWithAuthor[]> {
  const { chatMessage } = tables(db)
  const rows = await messagesQuery(db)
    .where(and(eq(chatMessage.sessionId, sessionId), gt(chatMessage.seq, seq)))
    .orderBy(asc(chatMessage.seq))
  return rows.map(flattenMessage)
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
  db: EngineDb,
  userId: string,
  documentId: string,
): Promise<CitationOfDocument[]> {
  // The citations are a JSON array per message: json_each on SQLite, jsonb_array_elements on PostgreSQL.
  return isPostgres(db)
    ? runSql<CitationOfDocument>(
        db,
        sql`SELECT DISTINCT s.agent_id AS "agentId", c.value->>'chunk_id' AS "chunkId",
            (c.value->>'page_number')::integer AS "pageNumber"
          FROM chat_message m JOIN chat_session s ON s.id = m.session_id,
            jsonb_array_elements(m.citations_json) AS c(value)
          WHERE s.owner_id = ${userId} AND m.status != 'draft' AND c.value->>'document_id' = ${documentId}`,
      )
    : runSql<CitationOfDocument>(
        db,
        sql`SELECT DISTINCT s.agent_id AS agentId, json_extract(c.value, '$.chunk_id') AS chunkId,
            json_extract(c.value, '$.page_number') AS pageNumber
          FROM chat_message m JOIN chat_session s ON s.id = m.session_id, json_each(m.citations_json) c
          WHERE s.owner_id = ${userId} AND m.status != 'draft' AND json_extract(c.value, '$.document_id') = ${documentId}`,
      )
}

/** Active people holding any of `roles` (the roles that operate, decided by the access module), by name. */
export function listOperators(db: EngineDb, roles: readonly Role[], window: RowWindow) {
  const { user } = tables(db)
  const operating = and(
    eq(user.isSystem, false),
    eq(user.disabled, false),
    jsonArrayHasAny(db, user.roles, roles),
  )
  return readPage(
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
