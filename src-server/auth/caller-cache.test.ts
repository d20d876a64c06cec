import { sql } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../test/helpers/server'

let server: TestServer
afterEach(async () => server?.close())

const me = (headers: Record<string, string>) =>
  server.app.inject({ method: 'GET', url: '/api/auth/me', headers })
const userId = async (username: string) => {
  const [row] = await server.rows<{ id: string }>(sql`SELECT id FROM "user" WHERE username = ${username}`)
  return row?.id
}
const patchUser = async (username: string, payload: Record<string, unknown>) => {
  const response = await server.app.inject({
    method: 'PATCH',
    url: `/api/admin/users/${await userId(username)}`,
    headers: await server.adminHeaders(),
    payload,
  })
  expect(response.statusCode, response.body).toBe(200)
}

// Each case signs the caller in and uses the token once first, so it is remembered, then changes something.
describe('a remembered caller changes on the next request', () => {
  it('after logout', async () => {
    server = await startTestServer()
    const ann = await server.headersFor('ann')
    expect((await me(ann)).statusCode).toBe(200)
    await server.app.inject({ method: 'POST', url: '/api/auth/logout', headers: ann })
    expect((await me(ann)).statusCode).toBe(401)
  })

  it('after its API token is deleted', async () => {
    server = await startTestServer()
    const ann = await server.headersFor('ann')
    const created = (
      await server.app.inject({
        method: 'POST',
        url: '/api/auth/tokens',
        headers: ann,
        payload: { name: 'script' },
      })
    ).json()
    const script = { authorization: `Bearer ${created.token}` }
    expect((await me(script)).statusCode).toBe(200)
    await server.app.inject({ method: 'DELETE', url: `/api/auth/tokens/${created.id}`, headers: ann })
    expect((await me(script)).statusCode).toBe(401)
    expect((await me(ann)).statusCode).toBe(200)
  })

  it('after a role change, both ways', async () => {
    server = await startTestServer()
    const olga = await server.headersFor('olga', ['operator'])
    const list = () => server.app.inject({ method: 'GET', url: '/mcp-servers', headers: olga })
    expect((await list()).statusCode).toBe(200)
    await patchUser('olga', { roles: ['user'] })
    expect((await list()).statusCode).toBe(403)
    await patchUser('olga', { roles: ['user', 'operator'] })
    expect((await list()).statusCode).toBe(200)
  })

  it('after the user is disabled', async () => {
    server = await startTestServer()
    const ann = await server.headersFor('ann')
    expect((await me(ann)).statusCode).toBe(200)
    await patchUser('ann', { disabled: true })
    expect((await me(ann)).statusCode).toBe(401)
    expect(
      await server.rows(
        sql`SELECT CAST(count(*) AS integer) AS n FROM auth_token WHERE user_id = ${await userId('ann')}`,
      ),
    ).toEqual([{ n: 0 }])
  })
})

// `GET /api/auth/me` answers from the remembered profile: each change below shows in it on the next request.
describe("a remembered caller's profile", () => {
  it('shows roles an admin changed', async () => {
    server = await startTestServer()
    const olga = await server.headersFor('olga', ['operator'])
    expect((await me(olga)).json()).toMatchObject({ roles: ['operator'] })
    await patchUser('olga', { roles: ['user'] })
    const after = (await me(olga)).json()
    expect(after.roles).toEqual(['user'])
    expect(after.permissions).not.toContain('chat.operate')
  })

  it('shows the avatar the user set, and its removal', async () => {
    server = await startTestServer()
    const ann = await server.headersFor('ann')
    expect((await me(ann)).json().avatar_url).toBeNull()
    // A 1x1 PNG: avatars are uploaded images, never remote addresses.
    const avatar =
      'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='
    const set = await server.app.inject({
      method: 'PATCH',
      url: '/api/auth/me',
      headers: ann,
      payload: { avatar_url: avatar },
    })
    expect(set.statusCode, set.body).toBe(200)
    expect((await me(ann)).json().avatar_url).toBe(avatar)
    const stored = await server.rows(sql`SELECT avatar_url FROM "user" WHERE id = ${await userId('ann')}`)
    expect(stored).toEqual([{ avatar_url: avatar }])
    await server.app.inject({
      method: 'PATCH',
      url: '/api/auth/me',
      headers: ann,
      payload: { avatar_url: null },
    })
    expect((await me(ann)).json().avatar_url).toBeNull()
  })
})
