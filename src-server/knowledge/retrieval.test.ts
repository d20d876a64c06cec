import { sql } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { createSource, ingest, upload } from '../../test/helpers/knowledge-files'
import { startTestServer, type TestServer } from '../../test/helpers/server'
import { createKnowledgeRetriever } from './index'
import { fuseRankings, vectorWeight } from './retrieval.service'

let server: TestServer
afterEach(async () => server?.close())

/** An agent the caller owns, made through the API. */
async function makeAgent(headers: Record<string, string>): Promise<string> {
  const created = await server.app.inject({
    method: 'POST',
    url: '/agents',
    headers,
    payload: { name: 'Helper' },
  })
  return created.json().id as string
}

async function mountCount(): Promise<number> {
  const [row] = await server.rows<{ n: number | string }>(sql`SELECT count(*) AS n FROM knowledge_mount`)
  return Number(row?.n)
}

async function indexedSource(headers: Record<string, string>, name: string, text: string) {
  const id = await createSource(server, headers, { name })
  await upload(server, headers, id, [{ name: `${name}.txt`, data: Buffer.from(text) }])
  await ingest(server, headers, id)
  return id
}

describe('mounts', () => {
  it('mounts a source once (409 ALREADY_MOUNTED after), lists it with its name and unmounts it', async () => {
    server = await startTestServer()
    const headers = await server.headersFor('uma', ['user'])
    const agentId = await makeAgent(headers)
    const sourceId = await createSource(server, headers, { name: 'Recipes' })
    const url = `/agents/${agentId}/mounts`
    const created = await server.app.inject({
      method: 'POST',
      url,
      headers,
      payload: { source_id: sourceId, priority: 3 },
    })
    expect(created.statusCode).toBe(201)
    expect(created.json()).toMatchObject({
      agent_id: agentId,
      source_id: sourceId,
      source_name: 'Recipes',
      is_active: true,
      priority: 3,
    })
    const again = await server.app.inject({
      method: 'POST',
      url,
      headers,
      payload: { source_id: sourceId },
    })
    expect(again.statusCode).toBe(409)
    expect(again.json().error.code).toBe('ALREADY_MOUNTED')
    expect((await server.app.inject({ method: 'GET', url, headers })).json()).toMatchObject({
      total: 1,
      items: [{ source_name: 'Recipes' }],
    })
    const removed = await server.app.inject({ method: 'DELETE', url: `${url}/${sourceId}`, headers })
    expect(removed.statusCode).toBe(204)
    expect(await mountCount()).toBe(0)
    const missing = await server.app.inject({ method: 'DELETE', url: `${url}/${sourceId}`, headers })
    expect(missing.json().error.code).toBe('MOUNT_NOT_FOUND')
  })

  it("refuses another user's source or agent with 404 and an unknown agent likewise", async () => {
    server = await startTestServer()
    const uma = await server.headersFor('uma', ['user'])
    const sam = await server.headersFor('sam', ['user'])
    const umaAgent = await makeAgent(uma)
    const samSource = await createSource(server, sam, { name: 'Private' })
    const umaSource = await createSource(server, uma, { name: 'Mine' })
    const foreignSource = await server.app.inject({
      method: 'POST',
      url: `/agents/${umaAgent}/mounts`,
      headers: uma,
      payload: { source_id: samSource },
    })
    expect(foreignSource.json().error.code).toBe('KNOWLEDGE_SOURCE_NOT_FOUND')
    const foreignAgent = await server.app.inject({
      method: 'POST',
      url: `/agents/${umaAgent}/mounts`,
      headers: sam,
      payload: { source_id: samSource },
    })
    expect(foreignAgent.json().error.code).toBe('AGENT_NOT_FOUND')
    const unknown = await server.app.inject({
      method: 'POST',
      url: '/agents/00000000-0000-4000-8000-000000000000/mounts',
      headers: uma,
      payload: { source_id: umaSource },
    })
    expect(unknown.statusCode).toBe(404)
    expect(await mountCount()).toBe(0)
  })
})

describe('fusion', () => {
  const order = (fused: Map<number, number>) =>
    [...fused.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([seq]) => seq)
  const bm25 = [11, 12, 13, 14, 15, 16, 17, 18, 19, 20]

  it('gives a vector ranking that agrees with nothing BM25 found no weight, so it cannot reorder BM25', () => {
    // What a broken or unrelated embedder returns: candidates BM25 never proposed.
    const useless = [901, 902, 903, 904, 905, 906, 907, 908, 909, 910]
    const weight = vectorWeight(1, bm25, useless)
    expect(weight).toBe(0)
    expect(order(fuseRankings(bm25, useless, weight)).slice(0, bm25.length)).toEqual(bm25)
  })

  it('lets an agreeing vector ranking lift a candidate both halves found', () => {
    const agreeing = [14, 13, 12, 11, 19, 901, 902]
    const weight = vectorWeight(1, bm25, agreeing)
    expect(weight).toBe(1)
    const fused = order(fuseRankings(bm25, agreeing, weight))
    expect(fused[0]).toBe(11)
    expect(fused.indexOf(14)).toBeLessThan(bm25.indexOf(14))
  })

  it('scales the weight with the agreement, up to full weight at five shared candidates', () => {
    expect(vectorWeight(0.5, bm25, [11, 12, 901])).toBeCloseTo(0.5 * (2 / 5))
    expect(vectorWeight(0.5, bm25, [11, 12, 13, 14, 15, 16])).toBe(0.5)
  })
})

describe('retrieval', () => {
  it('explains each hit with its BM25 and vector ranks and scores, and answers each mode alone', async () => {
    server = await startTestServer()
    const headers = await server.headersFor('olga', ['operator'])
    const text = [
      'Glaciers carve valleys slowly over millennia.',
      'The harbour cranes unload containers at night.',
      'Icebergs calve from glaciers into the sea.',
    ].join('\n\n')
    const sourceId = await createSource(server, headers, {
      name: 'mixed',
      default_chunking_strategy: 'paragraph',
      default_chunking_params: { target_size: 60 },
    })
    await upload(server, headers, sourceId, [{ name: 'm.txt', data: Buffer.from(text) }])
    await ingest(server, headers, sourceId)
    const query = (mode?: string) =>
      server.app.inject({
        method: 'POST',
        url: '/retrieval/query',
        headers,
        payload: { query: 'glaciers', source_ids: [sourceId], ...(mode ? { mode } : {}) },
      })
    const hybrid = (await query()).json().items
    expect(hybrid[0]).toMatchObject({
      bm25_rank: 1,
      bm25_score: expect.any(Number),
      vector_rank: expect.any(Number),
    })
    expect(hybrid[0].content).toContain('lacier')
    const bm25 = (await query('bm25')).json().items
    expect(
      bm25.every(
        (hit: { vector_rank: unknown; bm25_rank: unknown }) =>
          hit.vector_rank === null && hit.bm25_rank !== null,
      ),
    ).toBe(true)
    expect(bm25).toHaveLength(2)
    const vector = (await query('vector')).json().items
    expect(
      vector.every(
        (hit: { bm25_rank: unknown; vector_score: number }) =>
          hit.bm25_rank === null && hit.vector_score <= 1,
      ),
    ).toBe(true)
    expect((await query('semantic')).statusCode).toBe(422)
  })

  it("marks where the query's words are in each hit, inflections included, function words left out", async () => {
    server = await startTestServer()
    const headers = await server.headersFor('olga', ['operator'])
    const text = 'The dukes ruled Normandy. Their rule was long; rulers rule and the Duke ruled again.'
    const sourceId = await indexedSource(headers, 'dukes', text)
    const response = await server.app.inject({
      method: 'POST',
      url: '/retrieval/query',
      headers,
      payload: { query: 'Who ruled as duke?', source_ids: [sourceId] },
    })
    const [hit] = response.json().items as { content: string; highlights: [number, number][] }[]
    // "rulers" stems to "ruler", not "rule": the index did not match it, so it is not marked.
    expect(hit?.highlights.map(([start, end]) => hit.content.slice(start, end))).toEqual([
      'dukes',
      'ruled',
      'rule',
      'rule',
      'Duke',
      'ruled',
    ])
  })

  it('searches only the active mounts of an agent, higher priority first', async () => {
    server = await startTestServer()
    const headers = await server.headersFor('olga', ['operator'])
    const agentId = await makeAgent(headers)
    const low = await indexedSource(headers, 'low', 'Glaciers carve valleys slowly over millennia.')
    const high = await indexedSource(headers, 'high', 'Glaciers store most of the fresh water on Earth.')
    const inactive = await indexedSource(headers, 'inactive', 'Glaciers calve icebergs into the sea.')
    const unmounted = await indexedSource(headers, 'unmounted', 'Glaciers glaciers glaciers everywhere.')
    const mount = (source_id: string, body: Record<string, unknown>) =>
      server.app.inject({
        method: 'POST',
        url: `/agents/${agentId}/mounts`,
        headers,
        payload: { source_id, ...body },
      })
    await mount(low, { priority: 1 })
    await mount(high, { priority: 5 })
    await mount(inactive, { priority: 9, is_active: false })

    const response = await server.app.inject({
      method: 'POST',
      url: '/retrieval/query',
      headers,
      payload: { query: 'glaciers', agent_id: agentId },
    })
    expect(response.statusCode).toBe(200)
    const items = response.json().items as { source_id: string; score: number; chunk_id: string }[]
    expect(items.map((item) => item.source_id)).toEqual([high, low])
    expect(items.every((item) => item.score > 0)).toBe(true)

    const retriever = createKnowledgeRetriever(server.app.ctx)
    const chat = await retriever.retrieveForAgent(agentId, 'glaciers icebergs')
    expect(chat.map((chunk) => chunk.source_id)).toEqual([high, low])
    expect(chat[0]).toMatchObject({ document_name: 'high.txt', page_number: null })
    expect(chat.some((chunk) => chunk.source_id === inactive || chunk.source_id === unmounted)).toBe(false)
  })

  it('never fails on FTS syntax in the query and honours top_k', async () => {
    server = await startTestServer()
    const headers = await server.headersFor('olga', ['operator'])
    const text = Array.from(
      { length: 30 },
      (_, i) => `Paragraph ${i} mentions the harbour and its cranes.`,
    ).join('\n\n')
    const sourceId = await createSource(server, headers, {
      name: 'harbour',
      default_chunking_strategy: 'paragraph',
      default_chunking_params: { target_size: 60 },
    })
    await upload(server, headers, sourceId, [{ name: 'h.txt', data: Buffer.from(text) }])
    await ingest(server, headers, sourceId)
    for (const query of ['"unbalanced', 'harbour AND OR NOT (', 'NEAR(cranes', '*', '^col:harbour', '???']) {
      const response = await server.app.inject({
        method: 'POST',
        url: '/retrieval/query',
        headers,
        payload: { query, source_ids: [sourceId], top_k: 3 },
      })
      expect(response.statusCode).toBe(200)
      expect(response.json().items.length).toBeLessThanOrEqual(3)
    }
    const all = await server.app.inject({
      method: 'POST',
      url: '/retrieval/query',
      headers,
      payload: { query: 'cranes' },
    })
    expect(all.json().items).toHaveLength(5)
  })

  it("does not search another user's source", async () => {
    server = await startTestServer()
    const sam = await server.headersFor('sam', ['user'])
    const uma = await server.headersFor('uma', ['user'])
    const samSource = await indexedSource(sam, 'secret', 'The vault code is kept here.')
    const denied = await server.app.inject({
      method: 'POST',
      url: '/retrieval/query',
      headers: uma,
      payload: { query: 'vault code', source_ids: [samSource] },
    })
    expect(denied.statusCode).toBe(404)
    const own = await server.app.inject({
      method: 'POST',
      url: '/retrieval/query',
      headers: uma,
      payload: { query: 'vault code' },
    })
    expect(own.json().items).toEqual([])
  })

  it('mounts the source on the agent given to ingest', async () => {
    server = await startTestServer()
    const headers = await server.headersFor('olga', ['operator'])
    const agentId = await makeAgent(headers)
    const sourceId = await createSource(server, headers)
    await ingest(server, headers, sourceId, { agent_id: agentId })
    const mounts = await server.app.inject({ method: 'GET', url: `/agents/${agentId}/mounts`, headers })
    expect(mounts.json().items).toMatchObject([{ source_id: sourceId, is_active: true }])
  })
})
