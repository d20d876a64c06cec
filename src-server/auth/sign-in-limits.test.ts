import { sql } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { postFrom } from '../../test/helpers/http-from'
import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../../test/helpers/server'
import { REGISTRATIONS_PER_ADDRESS } from './auth.service'
import { FAILURES_BEFORE_SLOWDOWN, FAILURES_PER_ADDRESS, FAILURES_PER_USER_AT_ADDRESS } from './login-limits'
import { PASSWORD_COST } from './password'

// Attacks as a LAN client would make them: real HTTP on loopback, each 127.0.0.x a distinct client.
// At the real scrypt cost: the limits bound how many hashes run and wait, so their cost is part of what is tested.
const realCost = { passwordCost: PASSWORD_COST }
let server: TestServer
afterEach(async () => server?.close())

const login = (base: string, from: string, username: string, password: string) =>
  postFrom(base, from, '/api/auth/login', { username, password })
const register = (base: string, from: string, username: string, password = 'a long password') =>
  postFrom(base, from, '/api/auth/register', { username, password })

function countOf(statuses: number[], status: number) {
  return statuses.filter((s) => s === status).length
}

async function sessionsOf(username: string): Promise<number> {
  const [row] = await server.rows<{ n: number }>(
    sql`SELECT CAST(count(*) AS integer) AS n FROM auth_token t JOIN "user" u ON u.id = t.user_id
        WHERE u.username = ${username} AND t.kind = 'session'`,
  )
  return row?.n ?? 0
}

/** Users whose name matches the LIKE pattern, ignoring case as SQLite's LIKE does. */
async function usersNamed(pattern: string): Promise<number> {
  const [row] = await server.rows<{ n: number }>(
    sql`SELECT CAST(count(*) AS integer) AS n FROM "user" WHERE lower(username) LIKE lower(${pattern})`,
  )
  return row?.n ?? 0
}

describe('sign-in limits under parallel attack', () => {
  it('checks at most the threshold of 40 parallel wrong logins, and then refuses even the right password from that address', async () => {
    server = await startTestServer(realCost)
    const base = await server.listen()
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => login(base, '127.0.0.41', 'admin', 'wrong-password')),
    )
    const statuses = answers.map((answer) => answer.status)
    expect(countOf(statuses, 401)).toBeLessThanOrEqual(FAILURES_PER_USER_AT_ADDRESS)
    expect(countOf(statuses, 429)).toBe(40 - countOf(statuses, 401))
    expect(answers.find((answer) => answer.status === 429)?.body.error?.code).toBe('RATE_LIMITED')

    const right = await login(base, '127.0.0.41', 'admin', ADMIN_PASSWORD)
    expect(right.status).toBe(429)
    expect(await sessionsOf('admin')).toBe(0)
  })

  it('never refuses the right password from an address with no failures, whoever failed from elsewhere', async () => {
    server = await startTestServer(realCost)
    await server.headersFor('lee')
    const base = await server.listen()
    const before = await sessionsOf('lee')
    // Two addresses locked out for lee: together they reach the per-user slowdown's threshold.
    expect(2 * FAILURES_PER_USER_AT_ADDRESS).toBeGreaterThanOrEqual(FAILURES_BEFORE_SLOWDOWN)
    for (const from of ['127.0.0.41', '127.0.0.43'])
      await Promise.all(Array.from({ length: 12 }, () => login(base, from, 'lee', 'wrong-password')))

    const right = await login(base, '127.0.0.42', 'lee', 'password-lee')
    expect(right.status).toBe(200)
    expect(await sessionsOf('lee')).toBe(before + 1)
    // The addresses that failed stay locked for this user.
    expect((await login(base, '127.0.0.41', 'lee', 'password-lee')).status).toBe(429)
  }, 90_000)

  it('caps the failures of one address across many usernames', async () => {
    server = await startTestServer(realCost)
    const base = await server.listen()
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => login(base, '127.0.0.45', `nobody-${i}`, 'wrong-password')),
    )
    const statuses = answers.map((answer) => answer.status)
    expect(countOf(statuses, 401)).toBeLessThanOrEqual(FAILURES_PER_ADDRESS)
    expect(countOf(statuses, 429)).toBe(40 - countOf(statuses, 401))
    // Another address is not affected.
    expect((await login(base, '127.0.0.46', 'admin', ADMIN_PASSWORD)).status).toBe(200)
  }, 90_000)
})

describe('registration under attack', () => {
  it('creates only a few of 60 parallel registrations from one address and answers the rest 429', async () => {
    server = await startTestServer(realCost)
    const base = await server.listen()
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => register(base, '127.0.0.41', `flood-${i}`)),
    )
    const refused = answers.filter((answer) => answer.status === 429)
    expect(refused.length).toBeGreaterThanOrEqual(60 - REGISTRATIONS_PER_ADDRESS)
    expect(refused[0]?.body.error?.code).toBe('RATE_LIMITED')
    expect(await usersNamed('flood-%')).toBe(60 - refused.length)
    // Another address may still register.
    expect((await register(base, '127.0.0.42', 'neighbour')).status).toBe(202)
    expect(await usersNamed('neighbour')).toBe(1)
  })

  it('answers 403 and creates nothing when an admin closed registration', async () => {
    server = await startTestServer(realCost)
    const base = await server.listen()
    const put = await server.app.inject({
      method: 'PUT',
      url: '/api/admin/config/registration_open',
      headers: await server.adminHeaders(),
      payload: { value: false },
    })
    expect(put.statusCode).toBe(200)
    const answer = await register(base, '127.0.0.41', 'late-comer')
    expect(answer.status).toBe(403)
    expect(answer.body.error?.code).toBe('REGISTRATION_CLOSED')
    expect(await usersNamed('late-comer')).toBe(0)
  })

  it('keeps registration closed by default on a server exposed to the LAN, open on loopback', async () => {
    server = await startTestServer({ ...realCost, host: '0.0.0.0', lanTls: false })
    const config = await server.app.inject({
      method: 'GET',
      url: '/api/admin/config',
      headers: await server.adminHeaders(),
    })
    expect(config.json().registration_open).toBe(false)
    const base = await server.listen()
    expect((await register(base, '127.0.0.41', 'stranger')).status).toBe(403)
    expect(await usersNamed('stranger')).toBe(0)
    await server.close()

    server = await startTestServer(realCost)
    const loopback = await server.listen()
    expect((await register(loopback, '127.0.0.41', 'local-user')).status).toBe(202)
    expect(await usersNamed('local-user')).toBe(1)
  })

  it('answers a taken name exactly as a free one, and neither changes the existing account', async () => {
    server = await startTestServer(realCost)
    await server.headersFor('kim')
    const base = await server.listen()
    const taken = await register(base, '127.0.0.41', 'KIM', 'another password')
    const free = await register(base, '127.0.0.42', 'kimberly', 'another password')
    expect(taken.status).toBe(202)
    expect(taken).toEqual(free)
    expect(await usersNamed('kim')).toBe(1)
    expect(await usersNamed('kimberly')).toBe(1)
    expect((await login(base, '127.0.0.43', 'kim', 'password-kim')).status).toBe(200)
    expect((await login(base, '127.0.0.44', 'kim', 'another password')).status).toBe(401)
  })

  it('signs a user in while 300 registrations from 100 addresses wait for their hashes', async () => {
    server = await startTestServer(realCost)
    const base = await server.listen()
    const order: string[] = []
    let firstHashed: () => void = () => {}
    const flowing = new Promise<void>((resolve) => {
      firstHashed = resolve
    })
    const flood = Array.from({ length: 300 }, async (_, i) => {
      const answer = await register(base, `127.0.1.${1 + (i % 100)}`, `crowd-${i}`)
      // Answered after its password was hashed (201 before the change, 202 after), not refused at the door.
      if (answer.status < 300) {
        order.push('registered')
        firstHashed()
      }
      return answer.status
    })
    await flowing
    const signIn = await login(base, '127.0.0.42', 'admin', ADMIN_PASSWORD)
    order.push('signed-in')
    const statuses = await Promise.all(flood)

    expect(signIn.status).toBe(200)
    const hashedBefore = order.indexOf('signed-in')
    const hashedAfter = order.length - hashedBefore - 1
    // The sign-in waited in its own queue, not behind the registrations: most of those were still waiting.
    expect(hashedAfter).toBeGreaterThan(hashedBefore)
    // The registrations past their queue's bound were refused, and only the hashed ones made accounts.
    expect(countOf(statuses, 429)).toBe(300 - hashedBefore - hashedAfter)
    expect(await usersNamed('crowd-%')).toBe(hashedBefore + hashedAfter)
  })
})
