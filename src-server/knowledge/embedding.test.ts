import { rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../test/helpers/server'
import { createSource, ingest, upload } from './test-files'

let server: TestServer | undefined
let embeddingServer: Server | undefined
const savedEnv = { ...process.env }
afterEach(async () => {
  await server?.close()
  server = undefined
  await new Promise<void>((resolve) => (embeddingServer ? embeddingServer.close(() => resolve()) : resolve()))
  embeddingServer = undefined
  process.env = { ...savedEnv }
})

/** A loopback OpenAI-compatible embeddings endpoint: 8-dimensional letter-count vectors. */
async function startEmbeddingServer(): Promise<string> {
  embeddingServer = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk) => {
      body += chunk
    })
    request.on('end', () => {
      const input = (JSON.parse(body) as { input: string[] }).input
      const data = input.map((text, index) => ({
        object: 'embedding',
        index,
        embedding: Array.from(
          { length: 8 },
          (_, i) => 1 + [...text.toLowerCase()].filter((c) => c.charCodeAt(0) % 8 === i).length,
        ),
      }))
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ object: 'list', data, model: 'letters', usage: {} }))
    })
  }).listen(0, '127.0.0.1')
  await new Promise((resolve) => embeddingServer?.once('listening', resolve))
  return `http://127.0.0.1:${(embeddingServer.address() as AddressInfo).port}/v1`
}

const health = async () =>
  (await (server as TestServer).app.inject({ method: 'GET', url: '/healthz' })).json()

describe('embedding model', () => {
  it('reports the builtin embedder ready with its dimension', async () => {
    server = await startTestServer()
    const headers = await server.headersFor('olga', ['operator'])
    const response = await server.app.inject({
      method: 'POST',
      url: '/embedding-model/check-readiness',
      headers,
    })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toMatchObject({
      ready: true,
      backend_type: 'builtin',
      provider: 'builtin',
      model: 'hashing-v2',
      dim: 512,
      error: null,
    })
    const user = await server.headersFor('uma', ['user'])
    expect(
      (await server.app.inject({ method: 'POST', url: '/embedding-model/check-readiness', headers: user }))
        .statusCode,
    ).toBe(403)
  })

  it('reports an unreachable OpenAI-compatible endpoint as not ready with the reason', async () => {
    process.env.SWITCHBOARD_OPENAI_BASE_URL = 'http://127.0.0.1:9/v1'
    process.env.SWITCHBOARD_EMBEDDING_MODEL = 'missing'
    server = await startTestServer()
    const response = await server.app.inject({
      method: 'POST',
      url: '/embedding-model/check-readiness',
      headers: await server.adminHeaders(),
    })
    expect(response.json()).toMatchObject({
      ready: false,
      backend_type: 'openai_compatible',
      model: 'missing',
      error: { code: 'EMBEDDING_UNAVAILABLE', message: expect.any(String) },
    })
  })

  it('marks sources stale after a model change, keeps dimensions apart, and clears the warning on re-ingest', async () => {
    server = await startTestServer()
    const headers = await server.adminHeaders()
    const sourceId = await createSource(server, headers)
    await upload(server, headers, sourceId, [
      { name: 'a.txt', data: Buffer.from('Lanterns light the harbour.') },
    ])
    await ingest(server, headers, sourceId)
    expect((await health()).guard_state).toBe('ok')
    const dataDir = server.dataDir
    await server.app.close()

    process.env.SWITCHBOARD_OPENAI_BASE_URL = await startEmbeddingServer()
    process.env.SWITCHBOARD_EMBEDDING_MODEL = 'letters'
    server = await startTestServer({ dataDir })
    const after = await health()
    expect(after.guard_state).toBe('warning')
    expect(after.guard_messages.join(' ')).toContain('need re-ingesting for openai:letters: Docs')

    const adminHeaders = await server.adminHeaders()
    await ingest(server, adminHeaders, sourceId)
    const db = server.app.ctx.db.$client
    expect(db.prepare('SELECT count(*) n FROM knowledge_vec_8').get()).toEqual({ n: 1 })
    expect(db.prepare('SELECT count(*) n FROM knowledge_vec_512').get()).toEqual({ n: 0 })
    expect(db.prepare('SELECT DISTINCT embedding_key k FROM knowledge_chunk').all()).toEqual([
      { k: 'openai:letters:8' },
    ])
    server.app.ctx.guard.evaluate(true)
    expect((await health()).guard_state).toBe('ok')
    const found = await server.app.inject({
      method: 'POST',
      url: '/retrieval/query',
      headers: adminHeaders,
      payload: { query: 'harbour lanterns', source_ids: [sourceId] },
    })
    expect(found.json().items).toMatchObject([{ document_name: 'a.txt' }])
    await server.close()
    server = undefined
    rmSync(dataDir, { recursive: true, force: true })
  })
})
