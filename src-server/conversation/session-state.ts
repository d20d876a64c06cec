/**
 * Owns session state: who sees a session, who is assigned, takeover, release, assign and resolve, and the fencing
 * of replies in flight. Invariant: every state change bumps the session's epoch in the same transaction as its
 * `system` message, and a new epoch aborts the replies in flight on that session at once.
 */
import type { WebSocket } from 'ws'
import { mayAccess, reachesEvery, requireAccess } from '../access'
import { type AuthUser, permissionsOf, ROLES } from '../auth'
import { type Database, type EngineDb, nowIso } from '../platform/db'
import { CommonErrors } from '../platform/errors'
import type { AgentService } from './agents.service'
import { ConversationErrors } from './conversation.errors'
import type {
  AssignBody,
  HandoverBody,
  MessageListQuery,
  MessageView,
  SessionListQuery,
  SessionView,
} from './conversation.schemas'
import type { SessionState } from './conversation.tables'
import { handoffAcknowledgement } from './handoff'
import type { OperatorPresence } from './operator-presence'
import { loadMessage, type SessionPublisher } from './session-publisher'
import { presentMessage, presentSession, preview } from './sessions.presenters'
import * as repo from './sessions.repository'

/** Messages a WebSocket gets on connect. */
const HISTORY_LIMIT = 200

/** A reply in flight: the epoch it started under, and the fence a takeover aborts. */
export interface ActiveReply {
  epoch: number
  fence: AbortController
}

/** The replies in flight per session, so a state change made anywhere fences them everywhere. */
export class ReplyFences {
  private readonly active = new Map<string, Set<ActiveReply>>()

  /** Call synchronously after the transaction that read `epoch`: a takeover from then on finds this reply. */
  open(sessionId: string, epoch: number): ActiveReply {
    const reply: ActiveReply = { epoch, fence: new AbortController() }
    let replies = this.active.get(sessionId)
    if (!replies) {
      replies = new Set()
      this.active.set(sessionId, replies)
    }
    replies.add(reply)
    return reply
  }

  close(sessionId: string, reply: ActiveReply): void {
    const replies = this.active.get(sessionId)
    replies?.delete(reply)
    if (replies?.size === 0) this.active.delete(sessionId)
  }

  /** Aborts the session's replies started under an epoch older than `epoch` (a state change's new one). */
  fenceBefore(sessionId: string, epoch: number): void {
    for (const reply of this.active.get(sessionId) ?? []) if (reply.epoch < epoch) reply.fence.abort()
  }
}

/** An operator: one whom the access module lets reach every session (`session.use`). */
const canOperate = (user: Pick<AuthUser, 'permissions'>) => reachesEvery(user, 'session.use')
/** The roles whose holders operate: who can be assigned a session. */
const OPERATING_ROLES = ROLES.filter((role) => canOperate({ permissions: permissionsOf([role]) }))

const withNote = (text: string, note: string | undefined) =>
  note?.trim() ? `${text} Note: ${note.trim()}` : text

export function createSessionState(
  database: Database,
  deps: {
    agents: AgentService
    publisher: SessionPublisher
    presence: OperatorPresence
  },
) {
  const { agents, publisher, presence } = deps
  const hub = publisher.hub
  const db = database.reader

  /** The session as `user` may see it (with their read marker when they operate); anyone else's is 404. */
  async function visibleSession(user: AuthUser, sessionId: string): Promise<repo.SessionWithUsers> {
    const session = await repo.findSession(db, sessionId, canOperate(user) ? user.id : null)
    const denied = () => CommonErrors.SESSION_NOT_FOUND({ session_id: sessionId })
    if (!session) throw denied()
    requireAccess(user, 'session.use', { ownerId: session.ownerId, denied })
    return session
  }

  /** Only the assigned operator answers; anyone else must take the session over explicitly. */
  function assertNotAssignedElsewhere(user: AuthUser, session: repo.SessionWithUsers): void {
    if (session.assignedOperatorId && session.assignedOperatorId !== user.id)
      throw ConversationErrors.SESSION_ASSIGNED(
        { assigned_operator: { id: session.assignedOperatorId, username: session.operatorUsername } },
        `${session.operatorUsername} is assigned to this session. Take it over to answer it yourself.`,
      )
  }

  function requireOperate(user: AuthUser): void {
    if (!canOperate(user)) throw CommonErrors.FORBIDDEN({ permission: 'chat.operate' })
  }

  async function loadSession(sessionId: string, viewer: AuthUser): Promise<SessionView> {
    return presentSession(await visibleSession(viewer, sessionId), canOperate(viewer))
  }

  /**
   * One operator action on a session, recorded as a `system` message in the same transaction: `apply` checks
   * the stored session and makes its changes. Every open view gets the system message at once, and the
   * operator feed the updated session.
   */
  async function recordAction(
    user: AuthUser,
    sessionId: string,
    apply: (tx: EngineDb, current: repo.SessionWithUsers) => Promise<string>,
  ): Promise<SessionView> {
    requireOperate(user)
    await visibleSession(user, sessionId)
    await database.transact(async (tx) => {
      const current = (await repo.findSession(tx, sessionId)) as repo.SessionWithUsers
      const text = await apply(tx, current)
      const message = await repo.insertMessage(tx, {
        sessionId,
        role: 'system',
        content: text,
        authorId: user.id,
      })
      await repo.updateSession(tx, sessionId, { lastMessage: preview(text) })
      const after = (await repo.findSession(tx, sessionId)) as repo.SessionWithUsers
      // Its new epoch fences the replies in flight here at the commit, on other instances as they hear of it.
      await publisher.stateChange(tx, { id: sessionId, epoch: after.epoch }, message.id)
      await publisher.session(tx, sessionId)
    })
    return loadSession(sessionId, user)
  }

  /** Takeover (assigns the session to the operator) or release (clears the assignment). */
  async function changeState(
    user: AuthUser,
    sessionId: string,
    target: SessionState,
    body: HandoverBody,
  ): Promise<SessionView> {
    if (canOperate(user) && body.agent_id) await agents.usable(user, body.agent_id)
    return recordAction(user, sessionId, async (tx, current) => {
      const assignee = target === 'HUMAN_ACTIVE' ? user.id : null
      if (current.state === target && current.assignedOperatorId === assignee)
        throw ConversationErrors.INVALID_SESSION_STATE(
          { state: current.state },
          `The session is already ${current.state}.`,
        )
      if (!body.force) assertNotAssignedElsewhere(user, current)
      await repo.changeSessionState(tx, sessionId, target, {
        assignedOperatorId: assignee,
        ...(body.agent_id && { agentId: body.agent_id }),
      })
      const from =
        current.assignedOperatorId && current.assignedOperatorId !== user.id
          ? ` from ${current.operatorUsername}`
          : ''
      if (target === 'AI_ACTIVE')
        return withNote(`Operator ${user.username} handed the conversation${from} back to the AI.`, body.note)
      await repo.updateSession(tx, sessionId, { waitingSince: null, resolvedAt: null })
      return withNote(`Operator ${user.username} took over the conversation${from}.`, body.note)
    })
  }

  return {
    takeover: (user: AuthUser, sessionId: string, body: HandoverBody) =>
      changeState(user, sessionId, 'HUMAN_ACTIVE', body),
    release: (user: AuthUser, sessionId: string, body: HandoverBody) =>
      changeState(user, sessionId, 'AI_ACTIVE', body),

    /** Hands the session to a colleague (or leaves it unassigned); only its assignee, unless `force`. */
    async assign(user: AuthUser, sessionId: string, body: AssignBody): Promise<SessionView> {
      const target = body.operator_id ? await repo.findActiveUser(db, body.operator_id) : null
      if (body.operator_id && !(target && canOperate(target)))
        throw ConversationErrors.OPERATOR_NOT_FOUND({ operator_id: body.operator_id })
      return recordAction(user, sessionId, async (tx, current) => {
        if (current.assignedOperatorId === body.operator_id)
          throw ConversationErrors.INVALID_SESSION_STATE(
            { assigned_operator_id: current.assignedOperatorId },
            'The session already has this assignment.',
          )
        if (!body.operator_id && current.state === 'HUMAN_ACTIVE')
          throw ConversationErrors.INVALID_SESSION_STATE(
            { state: current.state },
            'A session a human is answering needs an operator: hand it back to the AI instead.',
          )
        if (!body.force) assertNotAssignedElsewhere(user, current)
        await repo.updateSession(tx, sessionId, { assignedOperatorId: body.operator_id })
        return target
          ? `Operator ${user.username} assigned the conversation to ${target.username}.`
          : `Operator ${user.username} left the conversation unassigned.`
      })
    },

    /** Who a session can be handed to. */
    async listOperators(user: AuthUser, query: { page: number; size: number }) {
      requireOperate(user)
      const { rows, total } = await repo.listOperators(db, OPERATING_ROLES, {
        limit: query.size,
        offset: (query.page - 1) * query.size,
      })
      return { items: rows, total, page: query.page, size: query.size }
    },

    /** Closes the conversation: back to the AI, nobody assigned, out of the default inbox until the user writes. */
    resolve(user: AuthUser, sessionId: string, body: HandoverBody): Promise<SessionView> {
      return recordAction(user, sessionId, async (tx, current) => {
        if (current.resolvedAt)
          throw ConversationErrors.INVALID_SESSION_STATE(
            { resolved_at: current.resolvedAt },
            'The session is already resolved.',
          )
        if (!body.force) assertNotAssignedElsewhere(user, current)
        if (current.state === 'HUMAN_ACTIVE')
          await repo.changeSessionState(tx, sessionId, 'AI_ACTIVE', { assignedOperatorId: null })
        await repo.updateSession(tx, sessionId, {
          assignedOperatorId: null,
          waitingSince: null,
          resolvedAt: nowIso(),
        })
        return withNote(`Operator ${user.username} resolved the conversation.`, body.note)
      })
    },

    async agentMessage(user: AuthUser, sessionId: string, content: string): Promise<MessageView> {
      requireOperate(user)
      await visibleSession(user, sessionId)
      const id = await database.transact(async (tx) => {
        assertNotAssignedElsewhere(user, (await repo.findSession(tx, sessionId)) as repo.SessionWithUsers)
        const message = await repo.insertMessage(tx, { sessionId, role: 'agent', content, authorId: user.id })
        // A human answered: the session no longer waits for one.
        await repo.updateSession(tx, sessionId, { lastMessage: preview(content), waitingSince: null })
        await publisher.message(tx, sessionId, message.id)
        await publisher.session(tx, sessionId)
        return message.id
      })
      return loadMessage(db, id)
    },

    /**
     * The user asks for a person ("Talk to a person"): the session waits for one, reaches the top of the
     * inbox, and the user is told so in the configured words. Asking again right after the answer changes nothing.
     */
    async requestHuman(
      user: AuthUser,
      sessionId: string,
    ): Promise<{ session: SessionView; message: MessageView | null }> {
      await visibleSession(user, sessionId)
      const messageId = await database.transact(async (tx) => {
        const current = (await repo.findSession(tx, sessionId)) as repo.SessionWithUsers
        if (current.state === 'HUMAN_ACTIVE')
          throw ConversationErrors.INVALID_SESSION_STATE(
            { state: current.state },
            'A person is already answering this conversation.',
          )
        const text = await handoffAcknowledgement(tx, presence)
        // Asked twice in a row: the user was just told.
        if (current.waitingSince && !current.resolvedAt && current.lastMessage === preview(text)) {
          await publisher.session(tx, sessionId)
          return null
        }
        await repo.requestHuman(tx, sessionId)
        const message = await repo.insertMessage(tx, { sessionId, role: 'assistant', content: text })
        await repo.updateSession(tx, sessionId, { lastMessage: preview(text) })
        await publisher.message(tx, sessionId, message.id)
        await publisher.session(tx, sessionId)
        return message.id
      })
      return {
        session: await loadSession(sessionId, user),
        message: messageId ? await loadMessage(db, messageId) : null,
      }
    },

    /** A private note between operators: pushed to operators' sockets only, never listed to the user. */
    async addNote(user: AuthUser, sessionId: string, content: string): Promise<MessageView> {
      requireOperate(user)
      await visibleSession(user, sessionId)
      const message = await database.transact(async (tx) => {
        const note = await repo.insertMessage(tx, {
          sessionId,
          role: repo.OPERATOR_ONLY_ROLE,
          content,
          authorId: user.id,
        })
        await publisher.message(tx, sessionId, note.id)
        return note
      })
      return loadMessage(db, message.id)
    },

    /** The operator has read the session up to now: their unread count drops to 0 on every console. */
    async markRead(user: AuthUser, sessionId: string): Promise<SessionView> {
      requireOperate(user)
      await visibleSession(user, sessionId)
      await database.transact(async (tx) => {
        await repo.markRead(tx, sessionId, user.id)
        await publisher.session(tx, sessionId)
      })
      return loadSession(sessionId, user)
    },

    /** Relays a typing indicator to the other people on the session; nothing is stored. */
    typing(user: AuthUser, sessionId: string, typing: boolean): Promise<void> {
      const role = canOperate(user) ? 'agent' : 'user'
      return publisher.typing(sessionId, { id: user.id, username: user.username, role }, typing)
    },

    getSession: (user: AuthUser, sessionId: string) => loadSession(sessionId, user),

    async listSessions(user: AuthUser, query: SessionListQuery) {
      const operates = canOperate(user)
      const filter: repo.SessionFilter = {
        // A user's own sessions are all they may list, whatever owner they name.
        ...((!operates || query.owner_id) && { ownerId: operates ? query.owner_id : user.id }),
        ...(query.status && { status: query.status }),
        ...(query.updated_after && { updatedAfter: new Date(query.updated_after).toISOString() }),
        ...(query.updated_before && { updatedBefore: new Date(query.updated_before).toISOString() }),
        origin: query.origin,
        resolved: query.resolved ?? (operates ? 'open' : 'any'),
        ...(query.q?.trim() && { q: query.q.trim() }),
      }
      const { rows, total, counts } = await repo.listSessions(
        db,
        filter,
        { name: operates ? query.view : 'all', viewerId: operates ? user.id : null },
        { limit: query.limit, offset: query.offset },
      )
      return {
        items: rows.map((row) => presentSession(row, operates)),
        total,
        limit: query.limit,
        offset: query.offset,
        counts: operates ? counts : null,
      }
    },

    async listMessages(user: AuthUser, sessionId: string, query: MessageListQuery) {
      await visibleSession(user, sessionId)
      const { rows, total } = await repo.listMessages(
        db,
        sessionId,
        {
          includeOperatorOnly: canOperate(user),
          ...(query.role && { role: query.role }),
          ...(query.created_after && { createdAfter: new Date(query.created_after).toISOString() }),
          ...(query.created_before && { createdBefore: new Date(query.created_before).toISOString() }),
        },
        { limit: query.limit, offset: query.offset },
      )
      return { items: rows.map(presentMessage), total, limit: query.limit, offset: query.offset }
    },

    /** The whole session with every message (drafts for operators only), oldest first. */
    async exportSession(user: AuthUser, sessionId: string) {
      const session = presentSession(await visibleSession(user, sessionId))
      const { rows } = await repo.listMessages(
        db,
        sessionId,
        { includeOperatorOnly: canOperate(user) },
        { limit: -1, offset: 0 },
      )
      return { session, messages: rows.map(presentMessage) }
    },

    /**
     * Before a WebSocket opens on a session: the caller's own session or one they operate on; with `create`, an
     * unused id becomes the caller's new, empty session in this same step. Anyone else's session, or an unknown
     * id without `create`, is 404, so no socket ever waits on a session someone else may create later.
     */
    async openSessionSocket(user: AuthUser, sessionId: string, create: boolean): Promise<void> {
      const denied = () => CommonErrors.SESSION_NOT_FOUND({ session_id: sessionId })
      const ownerId = await database.transact(async (tx) => {
        const session = await repo.findSession(tx, sessionId)
        if (session) return session.ownerId
        if (!create) return null
        // Someone else may create the id at the same moment: whoever inserted it owns it.
        if (await repo.insertSession(tx, { id: sessionId, ownerId: user.id, origin: 'live' })) return user.id
        return (await repo.findSession(tx, sessionId))?.ownerId ?? null
      })
      if (ownerId === null) throw denied()
      requireAccess(user, 'session.use', { ownerId, denied })
    },

    /**
     * Joins a socket to the hub of a session `openSessionSocket` let the caller open, and returns its history (at
     * most HISTORY_LIMIT, oldest first) and whether a user, as they are later, may still use it.
     */
    async attachSocket(user: AuthUser, sessionId: string, socket: WebSocket) {
      const ownerId = (await repo.findSession(db, sessionId))?.ownerId
      const denied = () => CommonErrors.SESSION_NOT_FOUND({ session_id: sessionId })
      const mayUse = (current: AuthUser) =>
        ownerId !== undefined && mayAccess(current, 'session.use', { ownerId, denied })
      if (!mayUse(user)) throw denied()
      // Joined before the history is read, its pushes held until `ready`: a message saved meanwhile is in the
      // history or pushed after it, never lost nor ahead of it.
      const ready = hub.join(sessionId, socket, { userId: user.id, operator: canOperate(user) })
      const rows = await repo.recentMessages(
        db,
        sessionId,
        { includeOperatorOnly: canOperate(user) },
        HISTORY_LIMIT,
      )
      const last = rows.at(-1)
      if (last) hub.sent(sessionId, last.seq)
      return { history: rows.map(presentMessage), mayUse, ready }
    },

    /** Joins a socket to the operator feed; while it is open, the hand-off counts its operator as online. */
    attachOperatorFeed(user: AuthUser, socket: WebSocket): void {
      hub.joinOperatorFeed(socket, user.id)
      presence.changed()
      // After the hub's own listener (registered on joining) has let the socket go.
      socket.once('close', () => presence.changed())
    },
  }
}

export type SessionStateService = ReturnType<typeof createSessionState>
