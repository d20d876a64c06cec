import cors from '@fastify/cors'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { CommonErrors } from '../errors'

/** Same origin as the server itself (the console it serves, the desktop window), or a configured LAN origin. */
export function isAllowedOrigin(
  origin: string | undefined,
  host: string | undefined,
  allowed: readonly string[],
) {
  if (!origin) return true
  if (host && (origin === `http://${host}` || origin === `https://${host}`)) return true
  return allowed.includes(origin)
}

/** Response headers a granted origin's scripts may read. */
const EXPOSED = 'Idempotent-Replayed, Content-Disposition'

/**
 * Browsers from other origins get no CORS grant, and WebSocket upgrades from them are refused: a web page
 * someone opens must not drive this server with the user's token.
 */
export const originPolicy = fp(
  async (app: FastifyInstance, { allowedOrigins }: { allowedOrigins: string[] }) => {
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
        if (!isAllowedOrigin(request.headers.origin, request.headers.host, allowedOrigins))
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
