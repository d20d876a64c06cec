/**
 * Revocation and the sign-in limits across two instances on one PostgreSQL database, attacked as a revoked caller would: they keep using
 * instance B, whose caller cache and open connections knew them, after an admin (or they themselves) revoked them
 * through instance A; and as a password guesser would, spreading guesses over the instances to multiply the limits.
 * Every instance must apply the revocation and count the guesses together.
 */
import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import sharp from 'sharp'
import { afterEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import {
  connect,
  count,
  openEventStream,
  request,
  type TestSocket,
  tokenOf,
} from '../../test/helpers/conversation'
import { postFrom } from '../../test/helpers/http-from'
import { closeInstances, twoInstances } from '../../test/helpers/instances'
import { ADMIN_PASSWORD, type TestServer } from '../../test/helpers/server'
import { LISTENER_NAME } from '../platform/events'
import { REGISTRATIONS_PER_ADDRESS } from './auth.service'
import { FAILURES_PER_ADDRESS, FAILURES_PER_USER_AT_ADDRESS } from './login-limits'

/** Long enough for a loaded machine; the tests wait for the effect, never for a time. */
const DEADLINE_MS = 15_000
const within = { timeout: DEADLINE_MS, interval: 50 }

const opened: { sockets: TestSocket[]; streams: { close(): void }[] } = {
  sockets: [],
  streams: [],
}
afterEach(async () => {
  for (const socket of opened.sockets.splice(0)) socket.ws.terminate()
  for (const stream of opened.streams.splice(0)) stream.close()
  await closeInstances()
})

async function socket(base: string, path: string, headers: Record<string, string>) {
  const opened_ = await connect(base, path, tokenOf(headers))
  opened.sockets.push(opened_)
  return opened_
}

async function feed(base: string, path: string, headers: Record<string, string>) {
  const stream = await openEventStream(base, path, headers)
  opened.streams.push(stream)
  expect(stream.status).toBe(200)
  return stream
}

const statusOf = async (base: string, headers: Record<string, string>, path = '/api/auth/me') =>
  (await request(base, headers, 'GET', path)).status

async function userIdOf(server: TestServer, username: string): Promise<string> {
  const [row] = await server.rows<{ id: string }>(sql`SELECT id FROM "user" WHERE username = ${username}`)
  return row?.id as string
}

/** An admin's change to a user, sent to instance A and answered there. */
async function changeOnA(a: { server: TestServer; base: string }, username: string, change: object) {
  const answer = await request(
    a.base,
    await a.server.adminHeaders(),
    'PATCH',
    `/api/admin/users/${await userIdOf(a.server, username)}`,
    change,
  )
  expect(answer.status, JSON.stringify(answer.body)).toBe(200)
}

const closedBy = async (held: TestSocket) => {
  await expect.poll(() => held.ws.readyState, within).toBe(WebSocket.CLOSED)
  return held.closed
}

describe('revocation across two instances on one PostgreSQL database', () => {
  it('refuses on B a user disabled through A, and ends their socket and feed on B: nothing they send is stored', async () => {
    const { a, b } = await twoInstances()
    const ann = await a.server.headersFor('ann')
    const olga = await a.server.headersFor('olga', ['operator', 'reviewer'])
    // Olga works on B: her token is remembered there, her operator socket and run feed are held there.
    expect(await statusOf(b.base, olga)).toBe(200)
    expect(await statusOf(b.base, olga, '/mcp-servers')).toBe(200)
    const sessionId = randomUUID()
    const annSocket = await socket(a.base, `/ws/${sessionId}?create=true`, ann)
    await annSocket.next((message) => message.type === 'history', DEADLINE_MS)
    const session = await socket(b.base, `/ws/${sessionId}`, olga)
    await session.next((message) => message.type === 'history', DEADLINE_MS)
    const runs = await feed(b.base, '/document-recognition/runs/events', olga)

    await changeOnA(a, 'olga', { disabled: true })

    await expect.poll(() => statusOf(b.base, olga), within).toBe(401)
    expect(await statusOf(b.base, olga, '/mcp-servers')).toBe(401)
    session.send({ event: 'agent_takeover', content: 'taking over from B' })
    session.send({ event: 'agent_message', content: 'still here on B' })
    expect(await closedBy(session)).toEqual({ code: 4401, reason: 'Your account was disabled.' })
    await runs.ended
    expect(runs.events.at(-1)).toEqual({
      type: 'error',
      code: 'UNAUTHORIZED',
      content: 'Your account was disabled.',
    })
    expect(
      await count(
        b.server,
        "SELECT count(*) n FROM chat_message WHERE session_id = ? AND role IN ('agent', 'system')",
        sessionId,
      ),
    ).toBe(0)
    expect(
      await count(
        b.server,
        "SELECT count(*) n FROM chat_session WHERE id = ? AND state = 'AI_ACTIVE'",
        sessionId,
      ),
    ).toBe(1)
  })

  it('ends on B what a sign-out and a token deletion through A ended, and only that', async () => {
    const { a, b } = await twoInstances()
    const ann = await a.server.headersFor('ann')
    const created = await request(a.base, ann, 'POST', '/api/auth/tokens', { name: 'script' })
    expect(created.status).toBe(201)
    const script = { authorization: `Bearer ${created.body.token}` }
    expect(await statusOf(b.base, ann)).toBe(200)
    expect(await statusOf(b.base, script)).toBe(200)
    const sessionId = randomUUID()
    const signedIn = await socket(b.base, `/ws/${sessionId}?create=true`, ann)
    await signedIn.next((message) => message.type === 'history', DEADLINE_MS)
    const viaScript = await socket(b.base, `/ws/${sessionId}`, script)
    await viaScript.next((message) => message.type === 'history', DEADLINE_MS)

    expect((await request(a.base, ann, 'POST', '/api/auth/logout')).status).toBe(204)
    await expect.poll(() => statusOf(b.base, ann), within).toBe(401)
    expect(await closedBy(signedIn)).toEqual({ code: 4401, reason: 'You signed out.' })
    // The API token is another token: it still works on B, and so does its socket.
    expect(await statusOf(b.base, script)).toBe(200)
    viaScript.send({ event: 'user_message', content: 'still signed in by script' })
    await viaScript.next((message) => message.type === 'message', DEADLINE_MS)

    const deleted = await request(a.base, script, 'DELETE', `/api/auth/tokens/${created.body.id}`)
    expect(deleted.status).toBe(204)
    await expect.poll(() => statusOf(b.base, script), within).toBe(401)
    expect(await closedBy(viaScript)).toEqual({ code: 4401, reason: 'The token was deleted.' })
    expect(
      await count(
        b.server,
        "SELECT count(*) n FROM chat_message WHERE session_id = ? AND role = 'user'",
        sessionId,
      ),
    ).toBe(1)
  })

  it('applies on B a profile change, a role change and a password reset made through A', async () => {
    const { a, b } = await twoInstances()
    const olga = await a.server.headersFor('olga', ['operator'])
    expect(await statusOf(b.base, olga, '/mcp-servers')).toBe(200)
    const avatarOnB = async () => (await request(b.base, olga, 'GET', '/api/auth/me')).body.avatar_url
    expect(await avatarOnB()).toBeNull()
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#c85a28' } })
      .png()
      .toBuffer()
    const avatar = { avatar_url: `data:image/png;base64,${png.toString('base64')}` }
    expect((await request(a.base, olga, 'PATCH', '/api/auth/me', avatar)).status).toBe(200)
    await expect.poll(avatarOnB, within).not.toBeNull()
    const operatorFeed = await socket(b.base, '/ws-operator', olga)
    await operatorFeed.next((message) => message.type === 'ready', DEADLINE_MS)

    await changeOnA(a, 'olga', { roles: ['user'] })
    await expect.poll(() => statusOf(b.base, olga, '/mcp-servers'), within).toBe(403)
    expect((await closedBy(operatorFeed)).code).toBe(4403)
    // Her profile on B shows the roles she has now, not the ones B remembered.
    expect((await request(b.base, olga, 'GET', '/api/auth/me')).body.roles).toEqual(['user'])

    await changeOnA(a, 'olga', { password: 'a temporary password' })
    await expect.poll(() => statusOf(b.base, olga), within).toBe(401)
  })

  it('forgets every remembered caller once its listening connection is back (events may have been lost)', async () => {
    const { a, b } = await twoInstances()
    const ann = await a.server.headersFor('ann')
    expect(await statusOf(b.base, ann)).toBe(200)
    const sessionId = randomUUID()
    const held = await socket(b.base, `/ws/${sessionId}?create=true`, ann)
    await held.next((message) => message.type === 'history', DEADLINE_MS)
    // Ann's tokens go without any event (as if it was published while B was not listening), then B's listener drops.
    await a.server.write(
      sql`DELETE FROM auth_token WHERE user_id = (SELECT id FROM "user" WHERE username = 'ann')`,
    )
    expect(await statusOf(b.base, ann)).toBe(200)
    const cut = await b.server.rows<{ done: boolean }>(
      sql`SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity
          WHERE application_name = ${LISTENER_NAME} AND datname = current_database()`,
    )
    expect(cut).toEqual([{ done: true }, { done: true }])
    await expect.poll(() => statusOf(b.base, ann), within).toBe(401)
    expect((await closedBy(held)).code).toBe(4401)
  })

  it('reads a remembered caller again after a while, so a revocation whose event was lost does not last', async () => {
    // B trusts what it remembers for a second instead of a minute: the test waits for the effect, not the time.
    const { a, b } = await twoInstances({}, { callerRecheckMs: 1_000 })
    const ann = await a.server.headersFor('ann')
    expect(await statusOf(b.base, ann)).toBe(200)
    // Revoked without any event (its NOTIFY failed after the change committed); B's listener stays up.
    await a.server.write(
      sql`DELETE FROM auth_token WHERE user_id = (SELECT id FROM "user" WHERE username = 'ann')`,
    )
    await expect.poll(() => statusOf(b.base, ann), within).toBe(401)
  })
})

/** Each 127.0.0.x a distinct client, as hosts on a LAN; attempts alternate between the instances, all at once. */
function spread(
  bases: string[],
  attempts: number,
  send: (base: string, i: number) => Promise<{ status: number }>,
) {
  return Promise.all(Array.from({ length: attempts }, (_, i) => send(bases[i % bases.length] as string, i)))
}

const login = (base: string, from: string, username: string, password: string) =>
  postFrom(base, from, '/api/auth/login', { username, password })

const countOf = (answers: { status: number }[], status: number) =>
  answers.filter((answer) => answer.status === status).length

async function sessionsOf(server: TestServer, username: string): Promise<number> {
  return count(
    server,
    `SELECT count(*) n FROM auth_token t JOIN "user" u ON u.id = t.user_id WHERE u.username = ? AND t.kind = 'session'`,
    username,
  )
}

describe('sign-in limits across two instances on one PostgreSQL database', () => {
  it("counts one address's wrong passwords for a user through A and B together, then refuses the right one on both", async () => {
    const { a, b } = await twoInstances()
    await a.server.headersFor('lee')
    const before = await sessionsOf(a.server, 'lee')
    // Fewer than the limit per instance, more than it in total.
    const attempts = 2 * FAILURES_PER_USER_AT_ADDRESS - 2
    const answers = await spread([a.base, b.base], attempts, (base) =>
      login(base, '127.0.0.41', 'lee', 'wrong-password'),
    )
    expect(countOf(answers, 401)).toBeLessThanOrEqual(FAILURES_PER_USER_AT_ADDRESS)
    expect(countOf(answers, 429)).toBe(attempts - countOf(answers, 401))

    for (const base of [a.base, b.base]) {
      const right = await login(base, '127.0.0.41', 'lee', 'password-lee')
      expect(right.status).toBe(429)
      expect(right.body.error?.code).toBe('RATE_LIMITED')
    }
    expect(await sessionsOf(a.server, 'lee')).toBe(before)
    // Another address is not affected.
    expect((await login(b.base, '127.0.0.42', 'lee', 'password-lee')).status).toBe(200)
    expect(await sessionsOf(a.server, 'lee')).toBe(before + 1)
  })

  it("caps one address's failures across usernames through A and B together", async () => {
    const { a, b } = await twoInstances()
    const attempts = 2 * FAILURES_PER_ADDRESS - 10
    const answers = await spread([a.base, b.base], attempts, (base, i) =>
      login(base, '127.0.0.45', `nobody-${i}`, 'wrong-password'),
    )
    expect(countOf(answers, 401)).toBeLessThanOrEqual(FAILURES_PER_ADDRESS)
    expect(countOf(answers, 429)).toBe(attempts - countOf(answers, 401))
    for (const base of [a.base, b.base])
      expect((await login(base, '127.0.0.45', 'admin', ADMIN_PASSWORD)).status).toBe(429)
    expect(await sessionsOf(a.server, 'admin')).toBe(0)
    expect((await login(a.base, '127.0.0.46', 'admin', ADMIN_PASSWORD)).status).toBe(200)
  })

  it('counts registrations from one address through A and B together', async () => {
    const { a, b } = await twoInstances()
    const attempts = 4 * REGISTRATIONS_PER_ADDRESS
    const answers = await spread([a.base, b.base], attempts, (base, i) =>
      postFrom(base, '127.0.0.41', '/api/auth/register', {
        username: `flood-${i}`,
        password: 'a long password',
      }),
    )
    expect(countOf(answers, 202)).toBeLessThanOrEqual(REGISTRATIONS_PER_ADDRESS)
    expect(countOf(answers, 429)).toBe(attempts - countOf(answers, 202))
    expect(await count(a.server, 'SELECT count(*) n FROM "user" WHERE username LIKE \'flood-%\'')).toBe(
      countOf(answers, 202),
    )
  })
})
