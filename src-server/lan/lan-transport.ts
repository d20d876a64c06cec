import type { TLSSocket } from 'node:tls'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { LanErrors } from './lan.errors'
import type { LanListener } from './lan.routes'

/** A client on this machine (the desktop window, local scripts): its plain HTTP never crosses the network. */
const LOOPBACK_PEER = /^(?:127\.|::1$|::ffff:127\.)/

/**
 * With LAN access on, nothing crosses the network in clear: a plain-HTTP request from another machine is sent to
 * the same path on the HTTPS listener (308, page loads and reads only) or refused with 426 `HTTPS_REQUIRED`
 * (everything else, WebSocket upgrades included), before authentication reads its token or a route its body.
 * Registered on the root, after the host allowlist, whose check makes `Host` safe to redirect to.
 */
export const lanTransport = fp(async (app: FastifyInstance, { lan }: { lan: LanListener }) => {
  app.addHook('onRequest', (request, reply, done) => {
    const socket = request.raw.socket as TLSSocket | null
    if (socket?.encrypted || LOOPBACK_PEER.test(socket?.remoteAddress ?? '')) return done()
    const location =
      lan.httpsPort === null
        ? null
        : `https://${(request.headers.host ?? '').replace(/:\d*$/, '')}:${lan.httpsPort}${request.url}`
    const isRead = request.method === 'GET' || request.method === 'HEAD'
    if (location && isRead && !request.headers.upgrade) reply.redirect(location, 308)
    else done(LanErrors.HTTPS_REQUIRED({ location }))
  })
})
