import { readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../test/helpers/server'
import { hashToken } from './tokens'

let server: TestServer
afterEach(async () => server?.close())

describe('identity and access', () => {
  it('rejects an API call without a token with 401 in the error envelope', async () => {
    server = await startTestServer()
    const response = await server.app.inject({ method: 'GET', url: '/api/auth/me' })
    expect(response.statusCode).toBe(401)
    expect(response.json()).toEqual({
      error: { code: 'UNAUTHORIZED', message: expect.any(String), details: {} },
    })
  })

  it('registers, logs in, answers /me and logs out, storing only hashes of tokens', async () => {
    server = await startTestServer()
    const registered = await server.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { username: 'dana', password: 'correct horse' },
    })
    expect(registered.statusCode).toBe(202)

    const login = await server.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'DANA', password: 'correct horse' },
    })
    expect(login.statusCode).toBe(200)
    const { token, user } = login.json()
    expect(user).toMatchObject({
      username: 'dana',
      roles: ['user'],
      permissions: ['marketplace.use', 'chat.use'],
    })
    const stored = await server.rows<{ token_hash: string }>(sql`SELECT token_hash FROM auth_token`)
    expect(stored.map((row) => row.token_hash)).toContain(hashToken(token))
    expect(JSON.stringify(stored)).not.toContain(token)

    const headers = { authorization: `Bearer ${token}` }
    expect((await server.app.inject({ method: 'GET', url: '/api/auth/me', headers })).json().username).toBe(
      'dana',
    )
    expect((await server.app.inject({ method: 'POST', url: '/api/auth/logout', headers })).statusCode).toBe(
      204,
    )
    expect((await server.app.inject({ method: 'GET', url: '/api/auth/me', headers })).statusCode).toBe(401)
  })

  it('keeps one account per username, case-insensitively, and answers a taken name as a free one', async () => {
    server = await startTestServer()
    const register = (username: string) =>
      server.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { username, password: 'password-1' },
      })
    const first = await register('kim')
    const again = await register('KIM')
    expect(again.statusCode).toBe(first.statusCode)
    expect(again.json()).toEqual(first.json())
    const count = await server.rows(
      sql`SELECT CAST(count(*) AS integer) AS n FROM "user" WHERE lower(username) = 'kim'`,
    )
    expect(count).toEqual([{ n: 1 }])
  })

  it('lists the failing field in a 422', async () => {
    server = await startTestServer()
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { username: 'x', password: 1 },
    })
    expect(response.statusCode).toBe(422)
    const fields = response.json().error.details.fields.map((f: { field: string }) => f.field)
    expect(fields).toContain('body.username')
  })

  it('closes registration when the admin turns registration_open off', async () => {
    server = await startTestServer()
    const admin = await server.adminHeaders()
    const put = await server.app.inject({
      method: 'PUT',
      url: '/api/admin/config/registration_open',
      headers: admin,
      payload: { value: 'false', description: 'invite only' },
    })
    expect(put.json()).toMatchObject({ key: 'registration_open', value: false })
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { username: 'late', password: 'password-1' },
    })
    expect(response.statusCode).toBe(403)
    expect(response.json().error.code).toBe('REGISTRATION_CLOSED')
    const audit = await server.rows(sql`SELECT action, target_id FROM admin_audit_log`)
    expect(audit).toContainEqual({ action: 'config.update', target_id: 'registration_open' })
  })

  it('rate limits repeated failed logins per username and address with 429', async () => {
    server = await startTestServer()
    const attempt = () =>
      server.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: 'admin', password: 'wrong-password' },
      })
    for (let i = 0; i < 5; i++) expect((await attempt()).statusCode).toBe(401)
    const limited = await attempt()
    expect(limited.statusCode).toBe(429)
    expect(limited.json().error.code).toBe('RATE_LIMITED')
  })

  it('gives 403 to a user without the permission, and admins manage users with an audit entry', async () => {
    server = await startTestServer()
    const user = await server.headersFor('uma')
    expect(
      (await server.app.inject({ method: 'GET', url: '/api/admin/users', headers: user })).statusCode,
    ).toBe(403)

    const admin = await server.adminHeaders()
    const list = await server.app.inject({
      method: 'GET',
      url: '/api/admin/users?page=1&size=1',
      headers: admin,
    })
    expect(list.json()).toMatchObject({ page: 1, size: 1, total: 2 })
    const uma = (await server.app.inject({ method: 'GET', url: '/api/admin/users', headers: admin }))
      .json()
      .items.find((u: { username: string }) => u.username === 'uma')
    const patched = await server.app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${uma.id}`,
      headers: admin,
      payload: { roles: ['user', 'reviewer'], disabled: true },
    })
    expect(patched.json()).toMatchObject({ roles: ['user', 'reviewer'], disabled: true })
    // Disabling ends the user's sessions.
    expect((await server.app.inject({ method: 'GET', url: '/api/auth/me', headers: user })).statusCode).toBe(
      401,
    )
    const audit = await server.rows<{ action: string }>(
      sql`SELECT action FROM admin_audit_log WHERE target_id = ${uma.id} ORDER BY created_at, action`,
    )
    expect(audit.map((row) => row.action)).toEqual(['user.create', 'user.update'])
  })

  it('issues named API tokens that work as bearer tokens and can be revoked', async () => {
    server = await startTestServer()
    const admin = await server.adminHeaders()
    const created = await server.app.inject({
      method: 'POST',
      url: '/api/auth/tokens',
      headers: admin,
      payload: { name: 'lan script' },
    })
    expect(created.statusCode).toBe(201)
    const { id, token } = created.json()
    const viaToken = { authorization: `Bearer ${token}` }
    expect(
      (await server.app.inject({ method: 'GET', url: '/api/auth/me', headers: viaToken })).statusCode,
    ).toBe(200)
    const listed = (
      await server.app.inject({ method: 'GET', url: '/api/auth/tokens', headers: admin })
    ).json()
    expect(listed.items).toHaveLength(1)
    expect(JSON.stringify(listed)).not.toContain(token)
    expect(
      (await server.app.inject({ method: 'DELETE', url: `/api/auth/tokens/${id}`, headers: admin }))
        .statusCode,
    ).toBe(204)
    expect(
      (await server.app.inject({ method: 'GET', url: '/api/auth/me', headers: viaToken })).statusCode,
    ).toBe(401)
  })

  it('creates the admin on first start with a generated password in a 0600 file', async () => {
    server = await startTestServer({ adminPassword: undefined })
    const file = path.join(server.dataDir, 'initial-admin-password')
    expect(statSync(file).mode & 0o777).toBe(0o600)
    const password = readFileSync(file, 'utf8').trim()
    expect(server.app.bootstrap.generatedPassword).toBe(password)
    const login = await server.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'admin', password },
    })
    expect(login.statusCode).toBe(200)
  })

  it('never writes tokens or passwords into the request log', async () => {
    server = await startTestServer()
    const headers = await server.adminHeaders()
    await server.app.inject({ method: 'GET', url: '/api/auth/me', headers })
    const token = String(headers.authorization).replace('Bearer ', '')
    expect(server.logs()).toContain('"url":"/api/auth/me"')
    expect(server.logs()).not.toContain(token)
    expect(server.logs()).not.toContain('admin-password-for-tests')
  })

  it('writes one request line per request, with its id, and masks a token sent in the query', async () => {
    server = await startTestServer()
    const token = String((await server.adminHeaders()).authorization).replace('Bearer ', '')
    const before = server.logs().length
    await server.app.inject({ method: 'GET', url: `/api/auth/me?access_token=${token}&x=1` })
    const lines = server
      .logs()
      .slice(before)
      .split('\n')
      .filter((line) => line.includes('"msg":"request"'))
      .map((line) => JSON.parse(line))
    expect(lines).toEqual([
      expect.objectContaining({ method: 'GET', url: '/api/auth/me?access_token=***&x=1', status: 401 }),
    ])
    expect(lines[0].reqId).toMatch(/^req-/)
    expect(server.logs()).not.toContain(token)
  })

  it("writes request lines at the app's log level, also when it changes while running", async () => {
    server = await startTestServer()
    const requestLines = async () => {
      const before = server.logs().length
      await server.app.inject({ method: 'GET', url: '/healthz' })
      return server
        .logs()
        .slice(before)
        .split('\n')
        .filter((line) => line.includes('"msg":"request"'))
    }
    expect(await requestLines()).toHaveLength(1)
    server.app.log.level = 'warn'
    expect(await requestLines()).toEqual([])
    server.app.log.level = 'info'
    expect(await requestLines()).toHaveLength(1)
  })
})
