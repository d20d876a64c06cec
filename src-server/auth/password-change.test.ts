import { sql } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { connect, type TestSocket, tokenOf } from '../../test/helpers/conversation'
import { postFrom } from '../../test/helpers/http-from'
import { startTestServer, type TestServer } from '../../test/helpers/server'
import { FAILURES_PER_USER_AT_ADDRESS } from './login-limits'

/**
 * A user changes their own password, and an admin's temporary password must be changed before anything else:
 * over real HTTP on loopback, each 127.0.0.x a distinct client, asserting on the stored rows.
 */
let server: TestServer
let base: string
const sockets: TestSocket[] = []
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.ws.terminate()
  await server?.close()
})

async function start() {
  server = await startTestServer()
  base = await server.listen()
}

/** The stored user; the flag as a boolean on both engines (SQLite stores 0/1). */
const stored = async (username: string) => {
  const [row] = await server.rows<{ id: string; password_hash: string; must_change_password: unknown }>(
    sql`SELECT id, password_hash, must_change_password FROM "user" WHERE username = ${username}`,
  )
  if (!row) throw new Error(`no user ${username}`)
  return { ...row, must_change_password: Boolean(row.must_change_password) }
}
const tokenIds = async (username: string) =>
  (
    await server.rows<{ id: string }>(
      sql`SELECT t.id FROM auth_token t JOIN "user" u ON u.id = t.user_id WHERE u.username = ${username} ORDER BY t.id`,
    )
  ).map((row) => row.id)

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

async function call(method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  return { status: response.status, body: text ? JSON.parse(text) : null }
}

async function signIn(username: string, password: string, from = '127.0.0.1') {
  const answer = await postFrom(base, from, '/api/auth/login', { username, password })
  expect(answer.status, JSON.stringify(answer.body)).toBe(200)
  return answer.body as { token: string; user: { must_change_password: boolean } }
}

const changePassword = (headers: Record<string, string>, current: string, next: string, from = '127.0.0.1') =>
  postFrom(base, from, '/api/auth/me/password', { current_password: current, new_password: next }, headers)

describe('changing your own password', () => {
  it('stores the new hash and ends every other token and its sockets, keeping the one in use', async () => {
    await start()
    const ann = await server.headersFor('ann', ['operator'])
    const laptop = bearer((await signIn('ann', 'password-ann')).token)
    const script = (await call('POST', '/api/auth/tokens', ann, { name: 'script' })).body.token as string
    const feed = await connect(base, '/ws-operator', tokenOf(laptop))
    sockets.push(feed)
    await feed.next((message) => message.type === 'ready')
    const before = await stored('ann')
    const current = (await call('GET', '/api/auth/me', ann)).body as { id: string }
    const inUse = (await tokenIds('ann')).filter((id) => id !== current.id)
    expect(inUse).toHaveLength(3)

    const changed = await changePassword(ann, 'password-ann', 'a brand new password')
    expect(changed.status, JSON.stringify(changed.body)).toBe(200)
    expect(changed.body).toMatchObject({ username: 'ann', must_change_password: false })

    expect((await stored('ann')).password_hash).not.toBe(before.password_hash)
    expect(await feed.closed).toEqual({ code: 4401, reason: 'Your password was changed: sign in again.' })
    expect(await tokenIds('ann')).toHaveLength(1)
    expect((await call('GET', '/api/auth/me', ann)).status).toBe(200)
    expect((await call('GET', '/api/auth/me', laptop)).status).toBe(401)
    expect((await call('GET', '/api/auth/me', bearer(script))).status).toBe(401)
    expect(
      (await postFrom(base, '127.0.0.1', '/api/auth/login', { username: 'ann', password: 'password-ann' }))
        .status,
    ).toBe(401)
    await signIn('ann', 'a brand new password')
  })

  it('refuses a wrong current password with 403, changes nothing, and counts it as a failed sign-in', async () => {
    await start()
    const bob = await server.headersFor('bob')
    const before = await stored('bob')
    const tokensBefore = await tokenIds('bob')
    for (let attempt = 0; attempt < FAILURES_PER_USER_AT_ADDRESS; attempt++) {
      const wrong = await changePassword(bob, 'not-it', 'a brand new password', '127.0.0.41')
      expect(wrong.status).toBe(403)
      expect(wrong.body.error?.code).toBe('WRONG_CURRENT_PASSWORD')
    }
    // The address is now locked out for bob: for the change (even with the right password) and for sign-in.
    const locked = await changePassword(bob, 'password-bob', 'a brand new password', '127.0.0.41')
    expect(locked.status).toBe(429)
    const signInThere = await postFrom(base, '127.0.0.41', '/api/auth/login', {
      username: 'bob',
      password: 'password-bob',
    })
    expect(signInThere.status).toBe(429)
    expect((await stored('bob')).password_hash).toBe(before.password_hash)
    expect(await tokenIds('bob')).toEqual(tokensBefore)
    // The session itself is still signed in: a wrong password is no reason to sign anyone out.
    expect((await call('GET', '/api/auth/me', bob)).status).toBe(200)
  })

  it('refuses the same password again and a short one, changing nothing', async () => {
    await start()
    const cy = await server.headersFor('cyd')
    const before = await stored('cyd')
    const same = await changePassword(cy, 'password-cyd', 'password-cyd')
    expect(same.status).toBe(422)
    expect(same.body.error?.code).toBe('PASSWORD_UNCHANGED')
    const short = await changePassword(cy, 'password-cyd', 'short')
    expect(short.status).toBe(422)
    expect(short.body.error?.code).toBe('VALIDATION_ERROR')
    expect((await stored('cyd')).password_hash).toBe(before.password_hash)
  })
})

describe("an admin's temporary password", () => {
  it('ends the sessions, and until the user changes it only their profile, the change and sign-out answer', async () => {
    await start()
    const old = await server.headersFor('dee', ['operator'])
    const admin = await server.adminHeaders()
    const { id } = await stored('dee')
    const reset = await call('PATCH', `/api/admin/users/${id}`, admin, { password: 'temporary-pass' })
    expect(reset.status).toBe(200)
    expect(reset.body.must_change_password).toBe(true)
    expect((await stored('dee')).must_change_password).toBe(true)
    expect(await tokenIds('dee')).toEqual([])
    expect((await call('GET', '/api/auth/me', old)).status).toBe(401)

    const signedIn = await signIn('dee', 'temporary-pass')
    expect(signedIn.user.must_change_password).toBe(true)
    const dee = bearer(signedIn.token)
    for (const [method, path] of [
      ['GET', '/api/auth/tokens'],
      ['GET', '/sessions'],
      ['PATCH', '/api/auth/me'],
    ] as const) {
      const refused = await call(method, path, dee, method === 'PATCH' ? { avatar_url: null } : undefined)
      expect(refused.status, path).toBe(403)
      expect(refused.body.error.code, path).toBe('PASSWORD_CHANGE_REQUIRED')
    }
    await expect(connect(base, '/ws-operator', signedIn.token)).rejects.toThrow(/403/)
    expect((await call('GET', '/api/auth/me', dee)).body.must_change_password).toBe(true)

    const changed = await changePassword(dee, 'temporary-pass', 'my own password')
    expect(changed.status).toBe(200)
    expect((await stored('dee')).must_change_password).toBe(false)
    expect((await call('GET', '/api/auth/tokens', dee)).status).toBe(200)
    expect((await call('GET', '/sessions', dee)).status).toBe(200)
    expect((await call('POST', '/api/auth/logout', dee)).status).toBe(204)
  })

  it('lets a user with a temporary password sign out', async () => {
    await start()
    const admin = await server.adminHeaders()
    await server.headersFor('eve')
    await call('PATCH', `/api/admin/users/${(await stored('eve')).id}`, admin, { password: 'temporary-pass' })
    const eve = bearer((await signIn('eve', 'temporary-pass')).token)
    expect((await call('POST', '/api/auth/logout', eve)).status).toBe(204)
    expect(await tokenIds('eve')).toEqual([])
    expect((await stored('eve')).must_change_password).toBe(true)
  })
})

describe('whether registration is open', () => {
  it('is public and follows the registration_open setting', async () => {
    await start()
    expect(await call('GET', '/api/auth/registration', {})).toEqual({ status: 200, body: { open: true } })
    const closed = await call('PUT', '/api/admin/config/registration_open', await server.adminHeaders(), {
      value: false,
    })
    expect(closed.status, JSON.stringify(closed.body)).toBe(200)
    expect(await call('GET', '/api/auth/registration', {})).toEqual({ status: 200, body: { open: false } })
  })
})
