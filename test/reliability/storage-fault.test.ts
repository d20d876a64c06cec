import { rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../helpers/server'

let server: TestServer
afterEach(async () => server?.close())

describe('failing storage', () => {
  it('answers a clear 507 when the blob store cannot be written, and records nothing', async () => {
    server = await startTestServer()
    const headers = await server.adminHeaders()
    const source = (
      await server.app.inject({
        method: 'POST',
        url: '/knowledge-sources',
        headers,
        payload: { name: 'Doomed uploads' },
      })
    ).json()
    // The blob folder turns into a plain file: every write below it fails, as on a broken or full volume.
    const blobs = path.join(server.dataDir, 'blobs')
    rmSync(blobs, { recursive: true, force: true })
    writeFileSync(blobs, 'not a folder')

    const url = await server.listen()
    const form = new FormData()
    form.append('file', new Blob(['A note that cannot be stored.']), 'note.txt')
    const response = await fetch(`${url}/knowledge-sources/${source.id}/documents`, {
      method: 'POST',
      headers,
      body: form,
    })
    const body = (await response.json()) as { error: { code: string; message: string } }
    expect(response.status).toBe(507)
    expect(body.error.code).toBe('STORAGE_FAILED')
    expect(server.sqlite().$client.prepare('SELECT count(*) AS n FROM knowledge_document').get()).toEqual({
      n: 0,
    })
    expect(server.sqlite().$client.pragma('integrity_check', { simple: true })).toBe('ok')
  })
})
