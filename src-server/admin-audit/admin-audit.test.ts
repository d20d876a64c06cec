import { afterEach, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../test/helpers/server'

let server: TestServer
afterEach(() => server?.close())

describe('the admin audit log', () => {
  it('names who acted and what was changed, next to their ids', async () => {
    server = await startTestServer()
    const headers = await server.adminHeaders()
    const created = await server.app.inject({
      method: 'POST',
      url: '/api/admin/users',
      headers,
      payload: { username: 'rita', password: 'rita-password', roles: ['reviewer'] },
    })
    expect(created.statusCode).toBe(201)

    const log = await server.app.inject({ method: 'GET', url: '/api/admin/audit-log', headers })
    expect(log.statusCode).toBe(200)
    const entry = log.json().items.find((item: { action: string }) => item.action === 'user.create')
    const adminId = server.app.ctx.db.$client
      .prepare("SELECT id FROM user WHERE username = 'admin'")
      .get() as {
      id: string
    }
    expect(entry).toMatchObject({
      actor_id: adminId.id,
      actor_username: 'admin',
      target_type: 'user',
      target_id: created.json().id,
      target_name: 'rita',
    })
  })
})
