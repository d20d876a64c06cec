import { readdirSync } from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { shippedAgentId } from '../../../test/helpers/document-recognition/api'
import { createSource, makeLyingZipBombDocx, makeZipBombDocx } from '../../../test/helpers/knowledge-files'
import { startTestServer, type TestServer } from '../../../test/helpers/server'
import { until } from '../../../test/helpers/server-process'
import { streamUpload } from '../../../test/helpers/streaming-upload'
import type { CreateServerOptions } from '../../app'

/**
 * Uploads over real sockets, as an attacker sends them: refused callers are answered before their body is read,
 * a request stops at its byte cap, a user at their uploads in flight, a lying docx at upload; nothing a refused
 * upload sent stays in the database, the blob store or the temporary folder.
 */
let server: TestServer
let url: string
afterEach(async () => server?.close())

const MB = 1024 * 1024

async function start(options: CreateServerOptions = {}) {
  server = await startTestServer(options)
  url = await server.listen()
}

const count = (table: string) =>
  (server.sqlite().$client.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n

function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.join(entry.parentPath, entry.name))
  } catch {
    return []
  }
}
const blobFiles = () => filesUnder(path.join(server.dataDir, 'blobs'))
const tempFiles = () => filesUnder(path.join(server.dataDir, 'tmp', 'uploads'))
const noTempFilesLeft = () =>
  until(
    async () => tempFiles().length,
    (n) => n === 0,
  )

async function postFiles(
  headers: Record<string, string>,
  target: string,
  files: { name: string; data: Buffer }[],
  fields: Record<string, string> = {},
) {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) form.append(name, value)
  for (const file of files) form.append('file', new Blob([file.data]), file.name)
  const response = await fetch(`${url}${target}`, { method: 'POST', headers, body: form })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

describe('upload routes refuse before reading the body', () => {
  it('answers 403/404 to a 45 MB upload from a caller without access while most of it is unsent', async () => {
    await start()
    const owner = await server.headersFor('olga', ['operator'])
    const sourceId = await createSource(server, owner)
    const stranger = await server.headersFor('sam', ['user'])
    const agentId = await shippedAgentId(server, 'Receipt extractor')
    const routes: { path: string; fields: Record<string, string> }[] = [
      { path: `/knowledge-sources/${sourceId}/documents`, fields: {} },
      { path: '/document-recognition/runs', fields: { runtime_agent_id: agentId } },
      { path: '/agent-runs', fields: { runtime_agent_id: agentId } },
    ]
    for (const route of routes) {
      const upload = streamUpload(url, route.path, stranger, route.fields, [
        { name: 'big.pdf', size: 45 * MB },
      ])
      // One megabyte, then nothing more until the server answers: a server that read the body first never would.
      await upload.sendSome(MB)
      const answer = await upload.response
      upload.abort()
      expect([403, 404], route.path).toContain(answer.status)
      expect(answer.body).toMatchObject({ error: { code: expect.any(String) } })
      expect(upload.sent()).toBeLessThan(upload.total)
    }
    expect(count('knowledge_document')).toBe(0)
    expect(count('agent_run')).toBe(0)
    expect(blobFiles()).toEqual([])
    await noTempFilesLeft()
  })
})

describe('upload caps', () => {
  it('stops a request at its total-bytes cap with 413 and keeps nothing it sent', async () => {
    await start({ uploadMaxRequestMb: 1 })
    const owner = await server.headersFor('olga', ['operator'])
    const sourceId = await createSource(server, owner)
    const answer = await postFiles(owner, `/knowledge-sources/${sourceId}/documents`, [
      { name: 'a.txt', data: Buffer.alloc(400 * 1024, 0x61) },
      { name: 'b.txt', data: Buffer.alloc(400 * 1024, 0x62) },
      { name: 'c.txt', data: Buffer.alloc(400 * 1024, 0x63) },
    ])
    expect(answer).toMatchObject({ status: 413, body: { error: { code: 'PAYLOAD_TOO_LARGE' } } })
    expect(count('knowledge_document')).toBe(0)
    expect(blobFiles()).toEqual([])
    await noTempFilesLeft()
    // Under the cap the same route stores both files.
    const fits = await postFiles(owner, `/knowledge-sources/${sourceId}/documents`, [
      { name: 'a.txt', data: Buffer.alloc(400 * 1024, 0x61) },
      { name: 'b.txt', data: Buffer.alloc(400 * 1024, 0x62) },
    ])
    expect(fits.status).toBe(201)
    expect(count('knowledge_document')).toBe(2)
  })

  it("refuses a user's upload past their uploads in flight with 429 before reading it; others upload meanwhile", async () => {
    await start({ uploadsPerUser: 1 })
    const olga = await server.headersFor('olga', ['operator'])
    const otto = await server.headersFor('otto', ['operator'])
    const olgaSource = await createSource(server, olga)
    const ottoSource = await createSource(server, otto)
    const slow = streamUpload(url, `/knowledge-sources/${olgaSource}/documents`, olga, {}, [
      { name: 'slow.txt', size: 4 * MB },
    ])
    await slow.sendSome(MB)
    // The server holds olga's slot once it writes her file's first bytes to disk.
    await until(
      async () => tempFiles().length,
      (n) => n === 1,
    )

    const second = streamUpload(url, `/knowledge-sources/${olgaSource}/documents`, olga, {}, [
      { name: 'second.txt', size: 4 * MB },
    ])
    await second.sendSome(64 * 1024)
    const refused = await second.response
    second.abort()
    expect(refused).toMatchObject({ status: 429, body: { error: { code: 'TOO_MANY_UPLOADS' } } })
    expect(second.sent()).toBeLessThan(second.total)

    const other = await postFiles(otto, `/knowledge-sources/${ottoSource}/documents`, [
      { name: 'otto.txt', data: Buffer.from('Otto uploads meanwhile.') },
    ])
    expect(other.status).toBe(201)

    await slow.send()
    expect((await slow.response).status).toBe(201)
    const after = await postFiles(olga, `/knowledge-sources/${olgaSource}/documents`, [
      { name: 'after.txt', data: Buffer.from('Her slot is free again.') },
    ])
    expect(after.status).toBe(201)
    const names = server
      .sqlite()
      .$client.prepare('SELECT file_name FROM knowledge_document ORDER BY file_name')
      .all()
      .map((row) => (row as { file_name: string }).file_name)
    expect(names).toEqual(['after.txt', 'otto.txt', 'slow.txt'])
    await noTempFilesLeft()
  })
})

describe('docx zip bombs', () => {
  it('refuses at upload a docx whose directory lies about what it inflates to, and one that admits it', async () => {
    await start()
    const owner = await server.headersFor('olga', ['operator'])
    const sourceId = await createSource(server, owner)
    for (const bomb of [makeLyingZipBombDocx(1500), makeZipBombDocx()]) {
      const answer = await postFiles(owner, `/knowledge-sources/${sourceId}/documents`, [
        { name: 'report.docx', data: bomb },
      ])
      expect(answer).toMatchObject({
        status: 422,
        body: { error: { code: 'UNSAFE_ARCHIVE', details: { file_name: 'report.docx' } } },
      })
    }
    expect(count('knowledge_document')).toBe(0)
    expect(blobFiles()).toEqual([])
    await noTempFilesLeft()
  })
})
