import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { startTestServer } from '../../../test/helpers/server'
import { eagerValidatorCompiler, validatorCompiler } from './validation'

/**
 * Route validators are compiled on each route's first request, so a schema Ajv cannot compile would only show when
 * that route is first called. Here every route's schemas are compiled up front, as a server start would.
 */
describe('route schemas', () => {
  it('compile for every route of the whole server', async () => {
    const server = await startTestServer({ compileValidatorsAtStart: true, runJobs: false })
    try {
      // Built and ready: Fastify compiled each route's body, query, params and headers schemas on the way.
      const health = await server.app.inject({ method: 'GET', url: '/healthz' })
      expect(health.statusCode).toBe(200)
      // The eagerly compiled validators answer as the lazy ones do.
      const bad = await server.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: 7 },
      })
      expect(bad.statusCode).toBe(422)
    } finally {
      await server.close()
    }
  })

  it('fail the start, naming the route, when a schema cannot compile; the lazy compiler would let it start', async () => {
    const withBrokenRoute = (compiler: typeof validatorCompiler) => {
      const app = Fastify()
      app.setValidatorCompiler(compiler)
      app.post(
        '/broken',
        { schema: { body: { type: 'object', properties: { a: { type: 'no-such-type' } } } } },
        () => ({}),
      )
      return app
    }
    await expect(withBrokenRoute(eagerValidatorCompiler).ready()).rejects.toThrow(/POST: \/broken/)
    const lazy = withBrokenRoute(validatorCompiler)
    await expect(lazy.ready()).resolves.toBeDefined()
    await lazy.close()
  })
})
