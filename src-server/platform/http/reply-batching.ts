import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'

type Send = () => void

/**
 * Answers are written once per turn of the event loop, after every request that turn read has been handled, as
 * Redis writes its replies just before it waits for more input: each answer written as soon as it was ready woke
 * the client for it alone, and a client woken for one answer sends one request, so requests and answers went
 * back and forth one by one (with 32 clients, ~25% of the server's CPU for `GET /api/auth/me`, measured with the
 * two side by side). Held answers wait for the turn's check phase (`setImmediate`), microseconds later.
 */
export const replyBatching = fp(async (app: FastifyInstance) => {
  let held: Send[] = []
  const writeHeld = () => {
    const sends = held
    held = []
    for (const send of sends) send()
  }
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (held.length === 0) setImmediate(writeHeld)
    held.push(() => {
      // Sent in this hook's own call, a throw after it (an invalid header) would reach Fastify's hook runner,
      // which answers it as an error: held, it is handed over the same way. Should that answer throw too, only
      // its own connection is lost, never the others held with it.
      try {
        done(null, payload)
      } catch (error) {
        try {
          done(error as Error)
        } catch (again) {
          reply.log.error({ err: again }, 'an answer could not be written')
          reply.raw.destroy()
        }
      }
    })
  })
})
