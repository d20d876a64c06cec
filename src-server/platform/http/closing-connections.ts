import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'

/**
 * Once the server is closing, an answer to a request that was already running says `Connection: close`, so its
 * socket goes with it. Node closes only the sockets idle when the close starts: a kept-alive one that finishes
 * later would hold the close open for the keep-alive timeout (72 s), and a restart behind a balancer with it.
 */
export const closingConnections = fp(async (app: FastifyInstance) => {
  let closing = false
  app.addHook('preClose', async () => {
    closing = true
  })
  // A callback hook: it is synchronous, and an async hook costs a promise on every response.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close')
    done(null, payload)
  })
})
