import cors from '@fastify/cors'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { CommonErrors } from '../errors'
import type { HostAllowlist } from './hosts'

/**
 * This server's own pages (the console it serves, the desktop window): an origin on the host allowlist whose port
 * is the one the connection reached, or a configured LAN origin. Never judged by `Host`, which a rebound page
 * sets to its own name along with its origin.
 */
export function isAllowedOrigin(
  origin: string | undefined,
  connection: { localAddress?: string | undefined; localPort?: number | undefined },
  hosts: HostAllowlist,
  allowed: readonly string[],
) {
  if (!origin) return true
  if (allowed.includes(origin)) return true
  const url = URL.canParse(origin) ? new URL(origin) : null
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return false
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80))
  return port === connection.localPort && hosts.allows(url.host, connection.localAddress)
}

/** Response headers a granted origin's scripts may read. */
const EXPOSED = 'Idempotent-Replayed, Content-Disposition'

/**
 * Browsers from other origins get no CORS grant, and WebSocket upgrades from them are refused: a web page
 * someone opens must not drive this server with the user's token.
 */
export const originPolicy = fp(
  async (
    app: FastifyInstance,
    { allowedOrigins, hosts }: { allowedOrigins: string[]; hosts: HostAllowlist },
  ) => {
    // Every answer varies by origin; an allowed origin is granted and may read these headers. Precomputed here:
    // @fastify/cors built its options object, its origin resolver and a merged `Vary` on every request.
    app.addHook('onRequest', (request, reply, done) => {
      reply.header('vary', 'Origin')
      const origin = request.headers.origin
      if (origin && allowedOrigins.includes(origin))
        reply.header('access-control-allow-origin', origin).header('access-control-expose-headers', EXPOSED)
      done()
    })
    // Preflights stay with @fastify/cors, scoped to its own OPTIONS route (it answers them in its hook): the
    // headers above come first, and it grants the same origins.
    await app.register(async (preflight) => {
      await preflight.register(cors, {
        origin: (origin, callback) => callback(null, origin ? allowedOrigins.includes(origin) : false),
        credentials: false,
        exposedHeaders: EXPOSED,
      })
    })
    app.addHook('onRoute', (route) => {
      if (!route.websocket) return
      const check = async (request: FastifyRequest) => {
        if (!isAllowedOrigin(request.headers.origin, request.raw.socket ?? {}, hosts, allowedOrigins))
          throw CommonErrors.FORBIDDEN(
            { origin: request.headers.origin },
            'This origin may not open a WebSocket here.',
          )
      }
      const existing = route.onRequest
        ? Array.isArray(route.onRequest)
          ? route.onRequest
          : [route.onRequest]
        : []
      route.onRequest = [check, ...existing]
    })
  },
)
