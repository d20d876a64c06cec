import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import fp from 'fastify-plugin'
import { CommonErrors } from '../platform/errors'
import type { AuthUser, Permission } from '../platform/identity'
import { AuthErrors } from './auth.errors'
import type { AuthService } from './auth.service'
import type { HeldConnection, HoldOptions } from './live-connections'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Reachable without a token (login, register, health, docs, the console's files). */
    public?: boolean
    /** The permission a caller needs; without it the route needs only a valid token. */
    permission?: Permission
    /** Open to a user whose password is temporary (their profile, the change itself, sign-out); others answer 403. */
    beforePasswordChange?: boolean
  }
  interface FastifyRequest {
    user: AuthUser | null
    /** The signed-in user; throws 401 where a route is public. */
    requireUser(): AuthUser
    /**
     * Ties a WebSocket or an event stream to the caller and the route's permission: `end` runs the moment a
     * revocation (sign-out, token deleted, user disabled, roles changed) takes either away.
     */
    holdConnection(options: HoldOptions): HeldConnection
  }
}

/** The bearer token of a request: the Authorization header, or `access_token` for WebSocket upgrades. */
export function bearerToken(request: FastifyRequest, allowQuery: boolean): string | null {
  const header = request.headers.authorization
  if (header) {
    const match = /^Bearer\s+(\S+)$/i.exec(header)
    return match?.[1] ?? null
  }
  if (allowQuery) {
    const value = (request.query as Record<string, unknown> | undefined)?.access_token
    if (typeof value === 'string' && value.length > 0) return value
  }
  return null
}

/**
 * Every route needs a valid bearer token unless its config says `public`; a route's `permission` is checked
 * right after. Both run on `onRequest`, before body parsing and validation, so a stranger learns nothing
 * from a 422.
 */
export const authentication = fp(async (app: FastifyInstance, { auth }: { auth: AuthService }) => {
  app.decorateRequest('user', null)
  app.decorateRequest('requireUser', function (this: FastifyRequest) {
    if (!this.user) throw CommonErrors.UNAUTHORIZED()
    return this.user
  })
  app.decorateRequest('holdConnection', function (this: FastifyRequest, options: HoldOptions) {
    const user = this.requireUser()
    const permission = this.routeOptions.config.permission
    const allows = options.allows
    // The token the request authenticated with (the auth hook found it, so it is there).
    return auth.holdConnection(bearerToken(this, true) as string, user, {
      end: options.end,
      allows: (current) =>
        (!permission || current.permissions.includes(permission)) && (!allows || allows(current)),
    })
  })

  app.addHook('onRoute', (route) => {
    const config = route.config ?? {}
    if (config.public) return
    const permission = config.permission
    const beforePasswordChange = Boolean(config.beforePasswordChange)
    const allowQueryToken = Boolean(route.websocket)
    const admit = (request: FastifyRequest, user: AuthUser | null, done: HookHandlerDoneFunction) => {
      if (!user) return done(CommonErrors.UNAUTHORIZED())
      request.user = user
      if (user.mustChangePassword && !beforePasswordChange) return done(AuthErrors.PASSWORD_CHANGE_REQUIRED())
      if (permission && !user.permissions.includes(permission))
        return done(CommonErrors.FORBIDDEN({ permission }))
      done()
    }
    // A callback hook, not an async one: a cached caller is checked synchronously, and a promise per request is
    // measurable; only a caller not cached is read from the database.
    const check = (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
      const token = bearerToken(request, allowQueryToken)
      if (!token) return done(CommonErrors.UNAUTHORIZED())
      const cached = auth.cachedCaller(token)
      if (cached !== undefined) return admit(request, cached, done)
      auth.authenticate(token).then((user) => admit(request, user, done), done)
    }
    const existing = route.onRequest
      ? Array.isArray(route.onRequest)
        ? route.onRequest
        : [route.onRequest]
      : []
    route.onRequest = [check, ...existing]
    // Documented in OpenAPI too (`x-permission`), so clients and the access tests know what each route needs.
    route.schema = {
      ...route.schema,
      security: [{ bearerAuth: [] }],
      ...(permission ? { 'x-permission': permission } : {}),
    }
  })
})
