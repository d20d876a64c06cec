/**
 * Owns the reply pipeline: the chat request's checks, storing the user message, generating the AI reply and
 * storing it. Invariant: nothing is saved when a check fails, and a reply whose epoch is no longer current when
 * it finishes (or whose fence a takeover aborted) is stored as a `draft` that only operators see, never pushed.
 */
import { randomUUID } from 'node:crypto'
import { requireAccess } from '../access'
import type { ModelRegistry, ResolvedModel } from '../ai'
import type { AuthUser } from '../auth'
import type { AppContext } from '../platform/app-context'
import { afterCommit } from '../platform/db'
import { AppError, asAppError, CommonErrors, logFault } from '../platform/errors'
import type { AgentService } from './agents.service'
import type { KnowledgeRetriever, ToolRuntime } from './chat-dependencies'
import { ConversationErrors } from './conversation.errors'
import type { SessionOrigin, SessionState, StoredCitation } from './conversation.tables'
import { handoffAcknowledgement } from './handoff'
import { asksForHuman, cannotAnswer } from './handoff-signals'
import type { OperatorPresence } from './operator-presence'
import { citedIn, generateReply } from './reply-generation'
import type { SessionPublisher } from './session-publisher'
import type { ActiveReply, ReplyFences } from './session-state'
import { preview } from './sessions.presenters'
import * as repo from './sessions.repository'

const MESSAGE_TYPES = ['user_chat', 'form', 'rule', 'other'] as const
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
  /** Why the reply failed, as the client may be told it. */
  error: AppError | null
}

export function createReplyPipeline(
  ctx: AppContext,
  deps: {
    models: ModelRegistry
    retriever?: KnowledgeRetriever
    tools?: ToolRuntime
    agents: AgentService
    publisher: SessionPublisher
    fences: ReplyFences
    presence: OperatorPresence
  },
) {
  const { database } = ctx
  const db = database.reader
  const { agents, publisher, fences } = deps
  const closing = new AbortController()

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

    const denied = () => CommonErrors.SESSION_NOT_FOUND({ thread_id: sessionId })
    let agent: Awaited<ReturnType<typeof agents.usable>> | null = null
    let model: ResolvedModel
    let existing: repo.SessionWithUsers | null
    try {
      existing = await repo.findSession(db, sessionId)
      if (existing) requireAccess(user, 'session.use', { ownerId: existing.ownerId, denied })
      const agentId = request.agentId ?? existing?.agentId ?? null
      if (agentId) {
        agent = await agents.usable(user, agentId)
        if (agent.agentType !== 'chat') throw ConversationErrors.AGENT_NOT_CHAT({ agent_id: agentId })
      }
      model = resolveModel(request, [...(existing ? [existing] : []), ...(agent ? [agent] : [])])
    } catch (error) {
      outcome.error = asAppError(error)
      return outcome
    }

    // The session is read again inside the transaction: another request (or instance) may have created it, or
    // taken it over, since the checks above.
    let reply = null as ActiveReply | null
    const stored = await database
      .transact(async (tx) => {
        const current = await repo.findSession(tx, sessionId)
        if (current) requireAccess(user, 'session.use', { ownerId: current.ownerId, denied })
        // Under a human the user is already talking to one.
        const handoff = current?.state !== 'HUMAN_ACTIVE' && asksForHuman(request.message)
        const changes = {
          agentId: agent?.id ?? null,
          lastMessage: preview(request.message),
          ...(request.modelProvider !== undefined && { modelProvider: request.modelProvider }),
          ...(request.modelName !== undefined && { modelName: request.modelName }),
          ...(request.modelTemperature !== undefined && { modelTemperature: request.modelTemperature }),
        }
        if (current) await repo.updateSession(tx, sessionId, changes)
        else if (
          !(await repo.insertSession(tx, {
            id: sessionId,
            ownerId: user.id,
            origin: request.origin ?? 'live',
            ...changes,
          }))
        )
          // Created at this moment by someone else's request: theirs, not this caller's.
          throw denied()
        const message = await repo.insertMessage(tx, {
          sessionId,
          role: 'user',
          content: request.message,
          messageType,
          authorId: user.id,
        })
        await repo.recordUserMessage(tx, sessionId, {
          preview: preview(request.message),
          at: message.createdAt,
          asksForHuman: handoff,
        })
        const session = { state: current?.state ?? 'AI_ACTIVE', epoch: current?.epoch ?? 0 }
        // Registered at the commit, before anything after it runs (this instance's delivery of the events below
        // included): a takeover from then on finds and fences this reply (one committed just before is caught by
        // the epoch check when the reply is stored).
        afterCommit(tx, () => {
          if (session.state !== 'HUMAN_ACTIVE') reply = fences.open(sessionId, session.epoch)
        })
        await publisher.message(tx, sessionId, message.id)
        await publisher.session(tx, sessionId)
        return { handoff, state: session.state }
      })
      .catch((error: unknown) => {
        if (!(error instanceof AppError)) throw error
        outcome.error = error
        return null
      })
    if (!stored) return outcome
    const { handoff } = stored
    outcome.state = stored.state
    if (!reply) return outcome

    const signal = AbortSignal.any([sink.signal, reply.fence.signal, closing.signal])
    // What has been produced so far: kept when the model fails mid-reply, so the partial answer is saved.
    let produced = ''
    try {
      // A request for a person is answered with the hand-off, not by the model.
      if (handoff) {
        outcome.content = await handoffAcknowledgement(db, deps.presence)
        sink.token(outcome.content)
      } else
        outcome.content = await generateReply(deps, {
          model,
          supportsTools: supportsTools(model),
          sessionId,
          agent: agent ? { id: agent.id, name: agent.name, systemPrompt: agent.systemPrompt } : null,
          history: await repo.recentMessages(
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
        outcome.error = asAppError(error)
        // A provider's own words (its URL, its error text) go to the log; the user reads the public message.
        logFault(ctx.log, outcome.error, error, { sessionId }, 'chat reply failed')
      }
    } finally {
      fences.close(sessionId, reply)
    }
    outcome.citations = citedIn(outcome.content, outcome.citations)
    if (closing.signal.aborted && !outcome.error) outcome.error = ConversationErrors.SERVER_CLOSING()
    return finishReply(outcome, reply, sink.signal.aborted)
  }

  /** Stores the reply: complete, interrupted (receiver gone, failure or shutdown) or a fenced draft. */
  async function finishReply(
    outcome: ChatOutcome,
    reply: ActiveReply,
    receiverGone: boolean,
  ): Promise<ChatOutcome> {
    const { sessionId, content } = outcome
    if (content.length === 0) {
      if (reply.fence.signal.aborted) outcome.state = 'HUMAN_ACTIVE'
      return outcome
    }
    const saved = await database.transact(async (tx) => {
      const current = await repo.findSession(tx, sessionId)
      const fenced = reply.fence.signal.aborted || !current || current.epoch !== reply.epoch
      const status = fenced ? 'draft' : receiverGone || outcome.error ? 'interrupted' : 'complete'
      const message = await repo.insertMessage(tx, {
        sessionId,
        role: 'assistant',
        content,
        status,
        citations: outcome.citations,
      })
      if (!fenced) {
        await repo.updateSession(tx, sessionId, { lastMessage: preview(content) })
        if (cannotAnswer(content)) await repo.markWaiting(tx, sessionId)
        await publisher.message(tx, sessionId, message.id)
        await publisher.session(tx, sessionId)
      }
      return { id: message.id, fenced, state: current?.state ?? null }
    })
    outcome.state = saved.state
    if (saved.fenced) return outcome
    outcome.messageId = saved.id
    return outcome
  }

  return {
    converse,

    /**
     * The `/stream` pipeline without a live receiver, for evaluation runs (kept out of the live inbox); `signal`
     * stops the reply as a receiver going away would (the run's job stopping).
     */
    async complete(input: {
      user: AuthUser
      agentId: string
      message: string
      threadId?: string
      signal?: AbortSignal
    }) {
      const outcome = await converse(
        input.user,
        { agentId: input.agentId, message: input.message, threadId: input.threadId, origin: 'evaluation' },
        { token: () => {}, signal: input.signal ?? new AbortController().signal },
      )
      return {
        sessionId: outcome.sessionId,
        messageId: outcome.messageId,
        content: outcome.content,
        citations: outcome.citations,
        error:
          outcome.error?.publicMessage ??
          (outcome.state === 'HUMAN_ACTIVE' ? 'A human operator holds this session.' : null),
      }
    },

    /** Server shutdown: every reply in flight stops and is stored as interrupted. */
    stop(): void {
      closing.abort()
    },
  }
}

export type ReplyPipeline = ReturnType<typeof createReplyPipeline>
