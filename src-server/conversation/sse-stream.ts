import { PassThrough } from 'node:stream'
import type { FastifyBaseLogger, FastifyReply } from 'fastify'
import type { AuthUser } from '../auth'
import { asAppError, errorFrame, errorFrameOf, logFault } from '../platform/errors'
import type { ChatOrchestrator } from './chat-orchestrator'
import type { StreamBody } from './conversation.schemas'

/**
 * Answers `POST /stream` as `text/event-stream`: `data: {json}\n\n` events, `token` fragments as the model
 * produces them, an `error` event on failure, and `done` always last; a `: ping` comment every `pingIntervalMs`
 * while the model is silent. The client going away, or the caller's access being revoked, aborts the reply.
 */
export function streamChat(
  chat: ChatOrchestrator,
  user: AuthUser,
  body: StreamBody,
  reply: FastifyReply,
  log: FastifyBaseLogger,
  pingIntervalMs: number,
): FastifyReply {
  const stream = new PassThrough()
  const receiverGone = new AbortController()
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) receiverGone.abort()
  })
  const send = (event: object) => {
    if (!stream.writableEnded) stream.write(`data: ${JSON.stringify(event)}\n\n`)
  }
  const ping = setInterval(() => {
    if (!stream.writableEnded) stream.write(': ping\n\n')
  }, pingIntervalMs)
  // A revocation (sign-out, token deleted, account disabled) ends the stream at once: the reply stops as if the
  // receiver had left, and the last events say why.
  const held = reply.request.holdConnection({
    end: (revocation) => {
      send(errorFrame(revocation.code, revocation.reason))
      send({ type: 'done' })
      stream.end()
      receiverGone.abort()
    },
  })

  void chat
    .converse(
      user,
      {
        threadId: body.thread_id,
        agentId: body.agent_id,
        message: body.message,
        messageType: body.message_type,
        origin: body.origin,
        modelProvider: body.model_provider,
        modelName: body.model_name,
        modelTemperature: body.model_temperature,
      },
      { token: (content) => send({ type: 'token', content }), signal: receiverGone.signal },
    )
    .catch((error: unknown) => {
      const failure = asAppError(error)
      logFault(log, failure, error, {}, 'stream failed')
      return { error: failure } as const
    })
    .then((outcome) => {
      if (outcome.error) send(errorFrameOf(outcome.error))
      const done: Record<string, unknown> = { type: 'done' }
      if ('sessionId' in outcome) {
        done.session_id = outcome.sessionId
        done.message_id = outcome.messageId
        done.citations = outcome.citations
        if (outcome.state) done.state = outcome.state
      }
      send(done)
    })
    .finally(() => {
      clearInterval(ping)
      held.release()
      stream.end()
    })

  return reply
    .header('content-type', 'text/event-stream; charset=utf-8')
    .header('cache-control', 'no-cache')
    .header('x-accel-buffering', 'no')
    .send(stream)
}
