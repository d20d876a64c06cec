import { rmSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { type FakeEmbeddings, startFakeEmbeddings } from '../../test/helpers/fake-embeddings'
import { createSource, ingest, upload, waitForEmbedding } from '../../test/helpers/knowledge-files'
import { startTestServer, type TestServer } from '../../test/helpers/server'
import { vectorTableOf } from './chunk-index.repository'

let server: TestServer | undefined
let embeddings: FakeEmbeddings | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
  await embeddings?.close()
  embeddings = undefined
})

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
    server = await startTestServer({ openAiBaseUrl: 'http://127.0.0.1:9/v1', embeddingModel: 'missing' })
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

  it('with the use-lite local embedder, fills USE-lite vectors in the background and searches them', async () => {
    server = await startTestServer({ localEmbedder: 'use-lite' })
    const headers = await server.adminHeaders()
    const sourceId = await createSource(server, headers)
    await upload(server, headers, sourceId, [
      { name: 'ships.txt', data: Buffer.from('The harbour master logged every ship that entered the port.') },
      { name: 'bread.txt', data: Buffer.from('Sourdough needs a starter, flour, water and patience.') },
    ])
    await ingest(server, headers, sourceId)
    await waitForEmbedding(server, sourceId)
    const source = await server.app.inject({ method: 'GET', url: `/knowledge-sources/${sourceId}`, headers })
    expect(source.json().embedding_progress).toEqual({ embedded: 2, total: 2 })
    const db = server.sqlite().$client
    expect(db.prepare(`SELECT count(*) n FROM ${vectorTableOf('builtin:use-lite-v1:512')}`).get()).toEqual({
      n: 2,
    })
    expect(db.prepare('SELECT indexed_embedding_key k FROM knowledge_source').get()).toEqual({
      k: 'builtin:use-lite-v1:512',
    })
    // No word in common with either document: only the model's sense of meaning can rank the vessels first.
    const found = await server.app.inject({
      method: 'POST',
      url: '/retrieval/query',
      headers,
      payload: { query: 'boats arriving at a dock', source_ids: [sourceId], mode: 'vector' },
    })
    expect(found.json().items.map((hit: { document_name: string }) => hit.document_name)).toEqual([
      'ships.txt',
      'bread.txt',
    ])
  }, 180_000)

  it('after a model change, builds the new index beside the old one, which answers until the switch', async () => {
    server = await startTestServer()
    const headers = await server.adminHeaders()
    const sourceId = await createSource(server, headers)
    await upload(server, headers, sourceId, [
      { name: 'a.txt', data: Buffer.from('Lanterns light the harbour.') },
    ])
    await ingest(server, headers, sourceId)
    expect((await health()).guard_state).toBe('ok')
    const dataDir = server.dataDir
    const chunkRows = () => server?.sqlite().$client.prepare('SELECT seq, id FROM knowledge_chunk').all()
    const chunksBefore = chunkRows()
    await server.app.close()

    embeddings = await startFakeEmbeddings()
    embeddings.hold()
    server = await startTestServer({ dataDir, openAiBaseUrl: embeddings.url, embeddingModel: 'letters' })
    const adminHeaders = await server.adminHeaders()
    await embeddings.waiting(1)
    // While the new index is built, the old one still answers: the hashing vectors, queried with that model.
    const during = await health()
    expect(during.guard_state).toBe('warning')
    expect(during.guard_messages.join(' ')).toContain('being re-embedded for openai:letters')
    const source = async () =>
      (
        await server?.app.inject({
          method: 'GET',
          url: `/knowledge-sources/${sourceId}`,
          headers: adminHeaders,
        })
      )?.json()
    expect((await source()).embedding_progress).toEqual({ embedded: 0, total: 1 })
    const query = () =>
      server?.app.inject({
        method: 'POST',
        url: '/retrieval/query',
        headers: adminHeaders,
        payload: { query: 'harbour lanterns', source_ids: [sourceId], mode: 'vector' },
      })
    expect((await query())?.json().items).toMatchObject([{ document_name: 'a.txt', vector_rank: 1 }])

    embeddings.release()
    await waitForEmbedding(server, sourceId)
    expect((await source()).embedding_progress).toEqual({ embedded: 1, total: 1 })
    const db = server.sqlite().$client
    expect(db.prepare(`SELECT count(*) n FROM ${vectorTableOf('openai:letters:8')}`).get()).toEqual({ n: 1 })
    expect(db.prepare(`SELECT count(*) n FROM ${vectorTableOf('builtin:hashing-v2:512')}`).get()).toEqual({
      n: 0,
    })
    expect(db.prepare('SELECT indexed_embedding_key k FROM knowledge_source').get()).toEqual({
      k: 'openai:letters:8',
    })
    // The chunks were not re-parsed: only their vectors are new.
    expect(chunkRows()).toEqual(chunksBefore)
    // The one chunk's text, besides the probe that told the new model's dimension.
    expect(embeddings.answered.filter((text) => !text.includes('dimension probe'))).toEqual([
      'Lanterns light the harbour.',
    ])
    server.app.ctx.guard.evaluate(true)
    expect((await health()).guard_state).toBe('ok')
    expect((await query())?.json().items).toMatchObject([{ document_name: 'a.txt', vector_rank: 1 }])
    await server.close()
    server = undefined
    rmSync(dataDir, { recursive: true, force: true })
  }, 120_000)
})
