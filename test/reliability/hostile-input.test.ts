import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../helpers/server'
import { hostileRequests, type Operation, operationsOf } from './openapi-fuzz'

/**
 * Every route in /openapi.json, probed without a token, as a user without permissions, and with a bounded set
 * of hostile inputs as an admin: no answer may be a 5xx, and every 4xx carries the error envelope.
 */
let server: TestServer
let operations: Operation[]
let admin: Record<string, string>
let plainUser: Record<string, string>
const RANDOM_ID = '00000000-0000-4000-8000-000000000000'

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.adminHeaders()
  plainUser = await server.headersFor('fuzz-user', ['user'])
  // Logging out would end the very sessions this suite probes with; logout has its own tests.
  operations = operationsOf((await server.app.inject({ method: 'GET', url: '/openapi.json' })).json()).filter(
    (operation) => operation.path !== '/api/auth/logout',
  )
})
afterAll(async () => server.close())

function expectEnvelope(status: number, body: string, label: string) {
  expect(status, `${label} answered ${status}: ${body.slice(0, 300)}`).toBeLessThan(500)
  if (status >= 400) {
    const parsed = JSON.parse(body)
    expect(parsed.error, label).toMatchObject({
      code: expect.stringMatching(/^[A-Z_]+$/),
      message: expect.any(String),
      details: expect.any(Object),
    })
  }
}

describe('hostile input over every published route', () => {
  it('publishes the routes it serves', () => {
    expect(operations.length).toBeGreaterThan(10)
  })

  it('answers 401 with the envelope to every private route called without a token', async () => {
    for (const operation of operations.filter((o) => !o.public)) {
      const url = operation.path.replace(/\{[^}]+\}/g, RANDOM_ID)
      const response = await server.app.inject({ method: operation.method as 'GET', url })
      expect(response.statusCode, `${operation.method} ${operation.path}`).toBe(401)
      expect(response.json().error.code).toBe('UNAUTHORIZED')
    }
  })

  it("answers 403 to a user lacking a route's permission, and never 5xx to a plain user", async () => {
    const me = (await server.app.inject({ method: 'GET', url: '/api/auth/me', headers: plainUser })).json()
    let forbidden = 0
    for (const operation of operations.filter((o) => !o.public)) {
      const url = operation.path.replace(/\{[^}]+\}/g, RANDOM_ID)
      const response = await server.app.inject({
        method: operation.method as 'GET',
        url,
        headers: plainUser,
        payload: operation.method === 'GET' || operation.method === 'DELETE' ? undefined : {},
      })
      expectEnvelope(response.statusCode, response.body, `${operation.method} ${operation.path} as a user`)
      if (operation.permission && !me.permissions.includes(operation.permission)) {
        expect(
          response.statusCode,
          `${operation.method} ${operation.path} needs ${operation.permission}`,
        ).toBe(403)
        forbidden += 1
      }
    }
    expect(forbidden).toBeGreaterThan(20)
  })

  it('never answers 5xx to hostile input, and every 4xx is an envelope', async () => {
    let tried = 0
    for (const operation of operations) {
      for (const request of hostileRequests(operation, RANDOM_ID, admin)) {
        const response = await server.app.inject(request)
        tried += 1
        expectEnvelope(
          response.statusCode,
          response.body,
          `${request.method} ${String(request.url).slice(0, 120)}`,
        )
      }
    }
    console.log(`hostile inputs tried: ${tried} over ${operations.length} operations, 0 answered 5xx`)
    expect(tried).toBeGreaterThan(100)
    // The hostile pass changed no credentials: the admin can still sign in and read itself.
    expect((await server.app.inject({ method: 'GET', url: '/api/auth/me', headers: admin })).statusCode).toBe(
      200,
    )
  }, 120_000)
})
