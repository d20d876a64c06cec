import { randomUUID } from 'node:crypto'
import type { WebSocket } from 'ws'
import { requireAccess } from '../access'
import type { ModelRegistry, ResolvedModel } from '../ai'
import type { AppContext } from '../app-context'
import type { AuthUser } from '../auth'
import { nowIso, type Queryable } from '../db'
import { AppError, CommonErrors } from '../errors'
import { createAgentService } from './agents.service'
import { createCannedResponses } from './canned-responses.service'
import type { KnowledgeRetriever, ToolRuntime } from './chat-dependencies'
import { ConversationErrors } from './conversation.errors'
import type {
  AssignBody,
  HandoverBody,
  MessageListQuery,
  MessageView,
  SessionListQuery,
  SessionView,
} from './conversation.schemas'
import type { SessionOrigin, SessionState, StoredCitation } from './conversation.tables'
import { asksForHuman, cannotAnswer } from './handoff-signals'
import { generateReply } from './reply-generation'
import { SessionHub } from './session-hub'
import { preview, toMessageView, toSessionView } from './session-views'
import * as repo from './sessions.repository'

export const MESSAGE_TYPES = ['user_chat', 'form', 'rule', 'other'] as const
/** Messages a WebSocket gets on connect. */
export const HISTORY_LIMIT = 200
/** Messages of context handed to the model. */
const MODEL_HISTORY = 30

export interface ChatRequest {
  threadId?: string | undefined
  agentId?: string | undefined
  message: string
  messageType?: string | undefined
  modelProvider?: string | undefined
  modelName?: string | undefined
  modelTemperature?: number | undefined
  /** Only for a new session: `live` unless the console's test panel or an evaluation run says otherwise. */
  origin?: SessionOrigin | undefined
}

/** Where a reply's tokens go as they are produced, and the signal that the receiver went away. */
export interface ReplySink {
  token(text: string): void
  signal: AbortSignal
}

export interface ChatOutcome {
  sessionId: string
  /** The saved assistant message (complete or interrupted); null when none was saved. */
  messageId: string | null
  content: string
  citations: StoredCitation[]
  state: SessionState | null
  error: { code: string; message: string } | null
}

interface ActiveReply {
  epoch: number
  fence: AbortController
}

const canOperate = (user: AuthUser) => user.permissions.includes('chat.operate')

function asError(error: unknown): { code: string; message: string } {
  if (error instanceof AppError) return { code: error.code, message: error.publicMessage }
  return { code: 'INTERNAL_ERROR', message: 'The reply failed on the server.' }
}

/**
 * The one owner of session state and the reply pipeline. `/stream`, the WebSocket and evaluation runs all call
 * it, so a takeover made anywhere fences replies everywhere. Invariants:
 * - every state change bumps the session's epoch in the same transaction as its system message;
 * - a takeover aborts the replies in flight on that session at once (no further tokens), and a reply whose
 *   epoch is no longer current when it finishes is stored as a `draft` that only operators see, never pushed.
 */
export function createChatOrchestrator(
  ctx: AppContext,
  deps: { models: ModelRegistry; retriever?: KnowledgeRetriever; tools?: ToolRuntime },
) {
  const db = ctx.db
  const hub = new SessionHub()
  const active = new Map<string, Set<ActiveReply>>()
  const closing = new AbortController()
  const agents = createAgentService(db, {
    checkModel: (config) => {
      if (config.provider || config.model || config.temperature !== null)
        deps.models.resolve(
          { provider: config.provider, model: config.model, temperature: config.temperature },
          'chat',
        )
    },
  })

  /** The session as `user` may see it (with their read marker when they operate); anyone else's is 404. */
  function visibleSession(user: AuthUser, sessionId: string): repo.SessionWithUsers {
    const session = repo.findSession(db, sessionId, canOperate(user) ? user.id : null)
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

  function loadMessage(messageId: string): MessageView {
    return toMessageView(repo.findMessage(db, messageId) as repo.MessageWithAuthor)
  }

  function loadSession(sessionId: string, viewer: AuthUser): SessionView {
    return toSessionView(visibleSession(viewer, sessionId), canOperate(viewer))
  }

  /** Pushes a saved message to the session's sockets (built only when someone listens). */
  function publishMessage(sessionId: string, messageId: string, operatorsOnly = false): void {
    if (hub.watchesSession(sessionId))
      hub.toSession(sessionId, { type: 'message', message: loadMessage(messageId) }, { operatorsOnly })
  }

  /**
   * Pushes the session to the operator feed, each operator with their own unread count (built only when an
   * operator listens). Test and evaluation sessions never reach the feed.
   */
  function publishSession(sessionId: string): void {
    if (!hub.hasOperators()) return
    const row = repo.findSession(db, sessionId)
    if (row?.origin !== 'live') return
    const markers = repo.readMarkers(db, sessionId)
    hub.toOperators((operatorId) => ({
      type: 'session_updated',
      session: toSessionView({ ...row, readUserCount: markers.get(operatorId) ?? null }, true),
    }))
  }

  function supportsTools(model: ResolvedModel): boolean {
    return (
      deps.models
        .listModels()
        .providers.find((provider) => provider.id === model.provider)
        ?.models.find((entry) => entry.id === model.model)
        ?.capabilities.includes('tools') ?? false
    )
  }

  /** Request values, then the session's saved overrides, then the agent's, then the global defaults. */
  function resolveModel(
    request: ChatRequest,
    layers: { modelProvider: string | null; modelName: string | null; modelTemperature: number | null }[],
  ): ResolvedModel {
    const all = [
      {
        modelProvider: request.modelProvider ?? null,
        modelName: request.modelName ?? null,
        modelTemperature: request.modelTemperature ?? null,
      },
      ...layers,
    ]
    const provider = all.find((layer) => layer.modelProvider)?.modelProvider ?? null
    // A model name only counts from a layer that names no other provider.
    const model =
      all.find((layer) => layer.modelName && (!layer.modelProvider || layer.modelProvider === provider))
        ?.modelName ?? null
    const temperature = all.find((layer) => layer.modelTemperature !== null)?.modelTemperature ?? null
    return deps.models.resolve({ provider, model, temperature }, 'chat')
  }

  /**
   * The chat request of the spec: validates everything first (nothing is saved on failure), stores the user
   * message, and unless a human holds the session, produces the AI reply through `sink`.
   */
  async function converse(user: AuthUser, request: ChatRequest, sink: ReplySink): Promise<ChatOutcome> {
    const sessionId = request.threadId ?? randomUUID()
    const outcome: ChatOutcome = {
      sessionId,
      messageId: null,
      content: '',
      citations: [],
      state: null,
      error: null,
    }
    const messageType = MESSAGE_TYPES.find((type) => type === (request.messageType || 'user_chat')) ?? 'other'

    let agent: ReturnType<typeof agents.usable> | null = null
    let model: ResolvedModel
    let existing: repo.SessionWithUsers | null
    try {
      existing = repo.findSession(db, sessionId)
      if (existing)
        requireAccess(user, 'session.use', {
          ownerId: existing.ownerId,
          denied: () => CommonErrors.SESSION_NOT_FOUND({ thread_id: sessionId }),
        })
      const agentId = request.agentId ?? existing?.agentId ?? null
      if (agentId) {
        agent = agents.usable(user, agentId)
        if (agent.agentType !== 'chat') throw ConversationErrors.AGENT_NOT_CHAT({ agent_id: agentId })
      }
      model = resolveModel(request, [...(existing ? [existing] : []), ...(agent ? [agent] : [])])
    } catch (error) {
      outcome.error = asError(error)
      return outcome
    }

    // Nothing awaits between the checks above and this transaction, so `existing` is still what is stored.
    const { userMessageId, session } = db.transaction((tx) => {
      const changes = {
        agentId: agent?.id ?? null,
        lastMessage: preview(request.message),
        ...(request.modelProvider !== undefined && { modelProvider: request.modelProvider }),
        ...(request.modelName !== undefined && { modelName: request.modelName }),
        ...(request.modelTemperature !== undefined && { modelTemperature: request.modelTemperature }),
      }
      if (existing) repo.updateSession(tx, sessionId, changes)
      else
        repo.insertSession(tx, {
          id: sessionId,
          ownerId: user.id,
          origin: request.origin ?? 'live',
          ...changes,
        })
      const message = repo.insertMessage(tx, {
        sessionId,
        role: 'user',
        content: request.message,
        messageType,
        authorId: user.id,
      })
      repo.recordUserMessage(tx, sessionId, {
        preview: preview(request.message),
        at: message.createdAt,
        // Under a human the user is already talking to one.
        asksForHuman: existing?.state !== 'HUMAN_ACTIVE' && asksForHuman(request.message),
      })
      return {
        userMessageId: message.id,
        session: { state: existing?.state ?? 'AI_ACTIVE', epoch: existing?.epoch ?? 0 },
      }
    })
    publishMessage(sessionId, userMessageId)
    publishSession(sessionId)
    outcome.state = session.state
    if (session.state === 'HUMAN_ACTIVE') return outcome

    // Registered synchronously after the transaction: a takeover from here on finds and fences this reply.
    const reply: ActiveReply = { epoch: session.epoch, fence: new AbortController() }
    let replies = active.get(sessionId)
    if (!replies) {
      replies = new Set()
      active.set(sessionId, replies)
    }
    replies.add(reply)
    const signal = AbortSignal.any([sink.signal, reply.fence.signal, closing.signal])
    // What has been produced so far: kept when the model fails mid-reply, so the partial answer is saved.
    let produced = ''
    try {
      outcome.content = await generateReply(deps, {
        model,
        supportsTools: supportsTools(model),
        sessionId,
        agent: agent ? { id: agent.id, name: agent.name, systemPrompt: agent.systemPrompt } : null,
        history: repo.recentMessages(
          db,
          sessionId,
          { includeOperatorOnly: false, roles: ['user', 'assistant', 'agent'] },
          MODEL_HISTORY,
        ),
        question: request.message,
        signal,
        onToken: (text) => {
          produced += text
          if (!signal.aborted) sink.token(text)
        },
        onCitations: (citations) => {
          outcome.citations = citations
        },
      })
    } catch (error) {
      outcome.content = produced
      if (!signal.aborted) {
        outcome.error = asError(error)
        // A provider's own words (its URL, its error text) go to the log; the user reads the public message.
        if (!(error instanceof AppError) || error.statusCode >= 500)
          ctx.log.error({ err: error, sessionId }, 'chat reply failed')
      }
    } finally {
      replies.delete(reply)
      if (replies.size === 0) active.delete(sessionId)
    }
    if (closing.signal.aborted && !outcome.error)
      outcome.error = { code: 'SERVER_CLOSING', message: 'The server is shutting down.' }
    return finishReply(outcome, reply, sink.signal.aborted)
  }

  /** Stores the reply: complete, interrupted (receiver gone, failure or shutdown) or a fenced draft. */
  function finishReply(outcome: ChatOutcome, reply: ActiveReply, receiverGone: boolean): ChatOutcome {
    const { sessionId, content } = outcome
    if (content.length === 0) {
      if (reply.fence.signal.aborted) outcome.state = 'HUMAN_ACTIVE'
      return outcome
    }
    const saved = db.transaction((tx) => {
      const current = repo.findSession(tx, sessionId)
      const fenced = reply.fence.signal.aborted || !current || current.epoch !== reply.epoch
      const status = fenced ? 'draft' : receiverGone || outcome.error ? 'interrupted' : 'complete'
      const message = repo.insertMessage(tx, {
        sessionId,
        role: 'assistant',
        content,
        status,
        citations: outcome.citations,
      })
      if (!fenced) {
        repo.updateSession(tx, sessionId, { lastMessage: preview(content) })
        if (cannotAnswer(content)) repo.markWaiting(tx, sessionId)
      }
      return { id: message.id, fenced, state: current?.state ?? null }
    })
    outcome.state = saved.state
    if (saved.fenced) return outcome
    outcome.messageId = saved.id
    publishMessage(sessionId, saved.id)
    publishSession(sessionId)
    return outcome
  }

  /**
   * One operator action on a session, recorded as a `system` message in the same transaction: `apply` checks
   * the stored session and makes its changes. Every open view gets the system message at once, and the
   * operator feed the updated session.
   */
  function recordAction(
    user: AuthUser,
    sessionId: string,
    apply: (tx: Queryable, current: repo.SessionWithUsers) => string,
  ): SessionView {
    requireOperate(user)
    visibleSession(user, sessionId)
    const { messageId, before } = db.transaction((tx) => {
      const current = repo.findSession(tx, sessionId) as repo.SessionWithUsers
      const text = apply(tx, current)
      const message = repo.insertMessage(tx, { sessionId, role: 'system', content: text, authorId: user.id })
      repo.updateSession(tx, sessionId, { lastMessage: preview(text) })
      return { messageId: message.id, before: current }
    })
    const after = repo.findSession(db, sessionId) as repo.SessionWithUsers
    // A new epoch fences the replies in flight at once.
    if (after.epoch !== before.epoch) for (const reply of active.get(sessionId) ?? []) reply.fence.abort()
    if (hub.watchesSession(sessionId))
      hub.toSession(sessionId, {
        type: 'system',
        status: after.state,
        epoch: after.epoch,
        assigned_operator: toSessionView(after).assigned_operator,
        message: loadMessage(messageId),
      })
    publishSession(sessionId)
    return loadSession(sessionId, user)
  }

  const withNote = (text: string, note: string | undefined) =>
    note?.trim() ? `${text} Note: ${note.trim()}` : text

  /** Takeover (assigns the session to the operator) or release (clears the assignment). */
  function changeState(
    user: AuthUser,
    sessionId: string,
    target: SessionState,
    body: HandoverBody,
  ): SessionView {
    if (canOperate(user) && body.agent_id) agents.usable(user, body.agent_id)
    return recordAction(user, sessionId, (tx, current) => {
      const assignee = target === 'HUMAN_ACTIVE' ? user.id : null
      if (current.state === target && current.assignedOperatorId === assignee)
        throw ConversationErrors.INVALID_SESSION_STATE(
          { state: current.state },
          `The session is already ${current.state}.`,
        )
      if (!body.force) assertNotAssignedElsewhere(user, current)
      repo.changeSessionState(tx, sessionId, target, {
        assignedOperatorId: assignee,
        ...(body.agent_id && { agentId: body.agent_id }),
      })
      const from =
        current.assignedOperatorId && current.assignedOperatorId !== user.id
          ? ` from ${current.operatorUsername}`
          : ''
      if (target === 'AI_ACTIVE')
        return withNote(`Operator ${user.username} handed the conversation${from} back to the AI.`, body.note)
      repo.updateSession(tx, sessionId, { waitingSince: null, resolvedAt: null })
      return withNote(`Operator ${user.username} took over the conversation${from}.`, body.note)
    })
  }

  return {
    agents,
    cannedResponses: createCannedResponses(db),
    converse,

    /** The `/stream` pipeline without a live receiver, for evaluation runs (kept out of the live inbox). */
    async complete(input: { user: AuthUser; agentId: string; message: string; threadId?: string }) {
      const outcome = await converse(
        input.user,
        { agentId: input.agentId, message: input.message, threadId: input.threadId, origin: 'evaluation' },
        { token: () => {}, signal: new AbortController().signal },
      )
      return {
        sessionId: outcome.sessionId,
        messageId: outcome.messageId,
        content: outcome.content,
        citations: outcome.citations,
        error:
          outcome.error?.message ??
          (outcome.state === 'HUMAN_ACTIVE' ? 'A human operator holds this session.' : null),
      }
    },

    takeover: (user: AuthUser, sessionId: string, body: HandoverBody) =>
      changeState(user, sessionId, 'HUMAN_ACTIVE', body),
    release: (user: AuthUser, sessionId: string, body: HandoverBody) =>
      changeState(user, sessionId, 'AI_ACTIVE', body),

    /** Hands the session to a colleague (or leaves it unassigned); only its assignee, unless `force`. */
    assign(user: AuthUser, sessionId: string, body: AssignBody): SessionView {
      const target = body.operator_id ? repo.findActiveUser(db, body.operator_id) : null
      if (body.operator_id && !target?.permissions.includes('chat.operate'))
        throw ConversationErrors.OPERATOR_NOT_FOUND({ operator_id: body.operator_id })
      return recordAction(user, sessionId, (tx, current) => {
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
        repo.updateSession(tx, sessionId, { assignedOperatorId: body.operator_id })
        return target
          ? `Operator ${user.username} assigned the conversation to ${target.username}.`
          : `Operator ${user.username} left the conversation unassigned.`
      })
    },

    /** Who a session can be handed to. */
    listOperators(user: AuthUser, query: { page: number; size: number }) {
      requireOperate(user)
      const { rows, total } = repo.listOperators(db, {
        limit: query.size,
        offset: (query.page - 1) * query.size,
      })
      return { items: rows, total, page: query.page, size: query.size }
    },

    /** Closes the conversation: back to the AI, nobody assigned, out of the default inbox until the user writes. */
    resolve(user: AuthUser, sessionId: string, body: HandoverBody): SessionView {
      return recordAction(user, sessionId, (tx, current) => {
        if (current.resolvedAt)
          throw ConversationErrors.INVALID_SESSION_STATE(
            { resolved_at: current.resolvedAt },
            'The session is already resolved.',
          )
        if (!body.force) assertNotAssignedElsewhere(user, current)
        if (current.state === 'HUMAN_ACTIVE')
          repo.changeSessionState(tx, sessionId, 'AI_ACTIVE', { assignedOperatorId: null })
        repo.updateSession(tx, sessionId, {
          assignedOperatorId: null,
          waitingSince: null,
          resolvedAt: nowIso(),
        })
        return withNote(`Operator ${user.username} resolved the conversation.`, body.note)
      })
    },

    agentMessage(user: AuthUser, sessionId: string, content: string): MessageView {
      requireOperate(user)
      visibleSession(user, sessionId)
      const id = db.transaction((tx) => {
        assertNotAssignedElsewhere(user, repo.findSession(tx, sessionId) as repo.SessionWithUsers)
        const message = repo.insertMessage(tx, { sessionId, role: 'agent', content, authorId: user.id })
        // A human answered: the session no longer waits for one.
        repo.updateSession(tx, sessionId, { lastMessage: preview(content), waitingSince: null })
        return message.id
      })
      publishMessage(sessionId, id)
      publishSession(sessionId)
      return loadMessage(id)
    },

    /** A private note between operators: pushed to operators' sockets only, never listed to the user. */
    addNote(user: AuthUser, sessionId: string, content: string): MessageView {
      requireOperate(user)
      visibleSession(user, sessionId)
      const message = repo.insertMessage(db, {
        sessionId,
        role: repo.OPERATOR_ONLY_ROLE,
        content,
        authorId: user.id,
      })
      publishMessage(sessionId, message.id, true)
      return loadMessage(message.id)
    },

    /** The operator has read the session up to now: their unread count drops to 0 on every console. */
    markRead(user: AuthUser, sessionId: string): SessionView {
      requireOperate(user)
      visibleSession(user, sessionId)
      repo.markRead(db, sessionId, user.id)
      publishSession(sessionId)
      return loadSession(sessionId, user)
    },

    /** Relays a typing indicator to the other people on the session; nothing is stored. */
    typing(user: AuthUser, sessionId: string, typing: boolean): void {
      hub.toSession(
        sessionId,
        {
          type: 'typing',
          role: canOperate(user) ? 'agent' : 'user',
          user: { id: user.id, username: user.username },
          typing,
        },
        { exceptUser: user.id },
      )
    },

    getSession: (user: AuthUser, sessionId: string) => loadSession(sessionId, user),

    listSessions(user: AuthUser, query: SessionListQuery) {
      const operates = canOperate(user)
      const filter: repo.SessionFilter = {
        ...(!operates && { ownerId: user.id }),
        ...(query.status && { status: query.status }),
        ...(query.updated_after && { updatedAfter: new Date(query.updated_after).toISOString() }),
        ...(query.updated_before && { updatedBefore: new Date(query.updated_before).toISOString() }),
        origin: query.origin,
        resolved: query.resolved ?? (operates ? 'open' : 'any'),
        ...(query.q?.trim() && { q: query.q.trim() }),
      }
      const { rows, total } = repo.listSessions(
        db,
        filter,
        { name: operates ? query.view : 'all', viewerId: operates ? user.id : null },
        { limit: query.limit, offset: query.offset },
      )
      return {
        items: rows.map((row) => toSessionView(row, operates)),
        total,
        limit: query.limit,
        offset: query.offset,
        counts: operates ? repo.countViews(db, filter, user.id) : null,
      }
    },

    listMessages(user: AuthUser, sessionId: string, query: MessageListQuery) {
      visibleSession(user, sessionId)
      const { rows, total } = repo.listMessages(
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
      return { items: rows.map(toMessageView), total, limit: query.limit, offset: query.offset }
    },

    /** The whole session with every message (drafts for operators only), oldest first. */
    exportSession(user: AuthUser, sessionId: string) {
      const session = toSessionView(visibleSession(user, sessionId))
      const { rows } = repo.listMessages(
        db,
        sessionId,
        { includeOperatorOnly: canOperate(user) },
        { limit: -1, offset: 0 },
      )
      return { session, messages: rows.map(toMessageView) }
    },

    /** Joins a socket to a session's hub and returns its history (at most HISTORY_LIMIT, oldest first). */
    attachSocket(user: AuthUser, sessionId: string, socket: WebSocket): MessageView[] {
      const session = repo.findSession(db, sessionId)
      if (session)
        requireAccess(user, 'session.use', {
          ownerId: session.ownerId,
          denied: () => CommonErrors.SESSION_NOT_FOUND({ session_id: sessionId }),
        })
      hub.join(sessionId, socket, { userId: user.id, operator: canOperate(user) })
      return session
        ? repo
            .recentMessages(db, sessionId, { includeOperatorOnly: canOperate(user) }, HISTORY_LIMIT)
            .map(toMessageView)
        : []
    },

    attachOperatorFeed: (user: AuthUser, socket: WebSocket) => hub.joinOperatorFeed(socket, user.id),

    /** Server shutdown: stop every reply in flight, close every socket with a message, stop tool servers. */
    async close(): Promise<void> {
      closing.abort()
      hub.closeAll('The server is shutting down.')
      await deps.tools?.close()
    },
  }
}

export type ChatOrchestrator = ReturnType<typeof createChatOrchestrator>
