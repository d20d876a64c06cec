import path from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../test/helpers/server'

let server: TestServer
afterEach(async () => server?.close())

describe('online backup', () => {
  it('writes a consistent copy of the database and the blobs while serving, and audits it', async () => {
    server = await startTestServer()
    const headers = await server.adminHeaders()
    await server.app.ctx.blobs.put(Buffer.from('a stored upload'))
    const response = await server.app.inject({ method: 'POST', url: '/api/admin/backup', headers })
    expect(response.statusCode).toBe(201)
    const backup = response.json()
    expect(backup.blob_files).toBe(1)

    const copy = new Database(path.join(server.dataDir, backup.folder, 'switchboard.db'), { readonly: true })
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok')
    expect(copy.prepare("SELECT username FROM user WHERE username = 'admin'").get()).toEqual({
      username: 'admin',
    })
    copy.close()
    const audit = server
      .sqlite()
      .$client.prepare("SELECT action FROM admin_audit_log WHERE action = 'backup.create'")
      .all()
    expect(audit).toHaveLength(1)
  })

  it('is for admins only', async () => {
    server = await startTestServer()
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/admin/backup',
      headers: await server.headersFor('olga', ['operator']),
    })
    expect(response.statusCode).toBe(403)
  })
})
