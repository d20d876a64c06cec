import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyBaseLogger } from 'fastify'
import type { WebSocket } from 'ws'
import { type AuthUser, closeCodeOf, type Revocation } from '../auth'
import type { AppContext } from '../platform/app-context'
import { AppError, asAppError, errorFrame, logFault } from '../platform/errors'
import type { ChatOrchestrator } from './chat-orchestrator'
import { SessionIdParams, SessionSocketQuery } from './conversation.schemas'

function sendError(socket: WebSocket, code: string, content: string): void {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(errorFrame(code, content)))
}

/** Reads one inbound frame as `{event, content}`; anything else is reported on the socket, which stays open. */
function parseInbound(socket: WebSocket, data: unknown): { event: string; content: string } | null {
  let parsed: unknown
  try {
    parsed = JSON.parse(String(data))
  } catch {
    sendError(
      socket,
      'INVALID_JSON',
      'Messages must be JSON objects like {"event": "user_message", "content": "..."}.',
    )
    return null
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    sendError(socket, 'VALIDATION_ERROR', 'Messages must be JSON objects with "event" and "content".')
    return null
  }
  const { event = '', content = '' } = parsed as Record<string, unknown>
  if (typeof event !== 'string' || typeof content !== 'string') {
    sendError(socket, 'VALIDATION_ERROR', '"event" and "content" must be strings.')
    return null
  }
  return { event, content }
}

async function handleInbound(
  chat: ChatOrchestrator,
  user: AuthUser,
  sessionId: string,
  socket: WebSocket,
  data: unknown,
  log: FastifyBaseLogger,
) {
  const inbound = parseInbound(socket, data)
  if (!inbound) return
  const { event, content } = inbound
  try {
    switch (event) {
      case '':
      case 'user_message': {
        if (!content.trim()) return sendError(socket, 'VALIDATION_ERROR', 'A user message needs content.')
        // The reply reaches every socket of the session through the hub; only failures are reported here.
        const outcome = await chat.converse(
          user,
          { threadId: sessionId, message: content },
          { token: () => {}, signal: new AbortController().signal },
        )
        if (outcome.error) sendError(socket, outcome.error.code, outcome.error.publicMessage)
        return
      }
      case 'agent_takeover':
      case 'agent_release':
        try {
          const body = content.trim() ? { note: content } : {}
          if (event === 'agent_takeover') await chat.takeover(user, sessionId, body)
          else await chat.release(user, sessionId, body)
        } catch (error) {
          // The spec answers every takeover/release event with one system message carrying the current state,
          // also when the session already is in it (nothing changes and nothing is written).
          if (!(error instanceof AppError) || error.code !== 'INVALID_SESSION_STATE') throw error
          socket.send(JSON.stringify({ type: 'system', status: error.details.state, message: null }))
        }
        return
      case 'typing':
        // `content` "false" (or "stop") ends the indicator; anything else starts it.
        await chat.typing(user, sessionId, !['false', 'stop'].includes(content.trim()))
        return
      case 'agent_message':
        if (!content.trim()) return sendError(socket, 'VALIDATION_ERROR', 'An agent message needs content.')
        await chat.agentMessage(user, sessionId, content)
        return
      default:
        sendError(
          socket,
          'UNKNOWN_EVENT',
          `Unknown event "${event}". Known: user_message, agent_takeover, agent_release, agent_message, typing.`,
        )
    }
  } catch (error) {
    const failure = asAppError(error)
    logFault(log, failure, error, { sessionId, event }, 'socket message failed')
    sendError(socket, failure.code, failure.publicMessage)
  }
}

/** Closes a socket whose caller's access was revoked, saying why first (4401: signed out, 4403: not allowed). */
function closeRevoked(socket: WebSocket) {
  return (revocation: Revocation) => {
    sendError(socket, revocation.code, revocation.reason)
    socket.close(closeCodeOf(revocation), revocation.reason)
  }
}

/**
 * `WS /ws/{session_id}` (the session's hub) and `WS /ws-operator` (the live session list for operators). Each
 * socket is held with auth's live connections: a revocation closes it at once, and every inbound message is
 * handled for the caller as they are at that moment.
 */
export const conversationSockets: FastifyPluginAsyncTypebox<{
  ctx: AppContext
  chat: ChatOrchestrator
}> = async (app, { ctx, chat }) => {
  app.get(
    '/ws/:session_id',
    {
      websocket: true,
      schema: { tags: ['chat'], params: SessionIdParams, querystring: SessionSocketQuery },
      // Before the upgrade, so a session the caller may not open is a 404 answer and never an open socket.
      preHandler: async (request) => {
        const { session_id: sessionId } = request.params
        await chat.openSessionSocket(request.requireUser(), sessionId, request.query.create ?? false)
      },
    },
    async (socket, request) => {
      const sessionId = request.params.session_id
      // Frames that arrive while the history is read are handled in order once it is sent.
      const early: unknown[] = []
      const hold = (data: unknown) => early.push(data)
      socket.on('message', hold)
      let attached: Awaited<ReturnType<ChatOrchestrator['attachSocket']>>
      try {
        attached = await chat.attachSocket(request.requireUser(), sessionId, socket)
      } catch (error) {
        // The session went away between the upgrade and now.
        const failure = asAppError(error)
        sendError(socket, failure.code, failure.publicMessage)
        socket.close(1008, failure.code)
        return
      } finally {
        socket.off('message', hold)
      }
      const { history, mayUse, ready } = attached
      const held = request.holdConnection({ allows: mayUse, end: closeRevoked(socket) })
      socket.once('close', held.release)
      // A revocation that landed between the upgrade's authentication and now closes the socket here.
      if (!held.current()) return
      socket.send(JSON.stringify({ type: 'history', messages: history }))
      ready()
      const onMessage = (data: unknown) =>
        held.withCurrent((user) =>
          handleInbound(chat, user, sessionId, socket, data, request.log).catch((error: unknown) =>
            ctx.log.error({ err: error, sessionId }, 'websocket message failed'),
          ),
        )
      for (const data of early) onMessage(data)
      socket.on('message', onMessage)
    },
  )

  app.get(
    '/ws-operator',
    { websocket: true, config: { permission: 'chat.operate' }, schema: { tags: ['chat'] } },
    (socket, request) => {
      const held = request.holdConnection({ end: closeRevoked(socket) })
      socket.once('close', held.release)
      if (!held.current()) return
      chat.attachOperatorFeed(request.requireUser(), socket)
      socket.send(JSON.stringify({ type: 'ready' }))
    },
  )

  app.addHook('preClose', async () => chat.close())
}
