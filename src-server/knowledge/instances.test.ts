/**
 * Two instances on one PostgreSQL database: what an instance keeps in memory of the knowledge index (the hashing
 * embedder's vector index, the stale sources of the health guard) follows a switch made by the other's embedding
 * job. On SQLite (one process owns its file) there is nothing to run.
 */
import { sql } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { TEST_ENGINE } from '../../test/helpers/engine'
import { type FakeEmbeddings, startFakeEmbeddings } from '../../test/helpers/fake-embeddings'
import { closeInstances, startInstances } from '../../test/helpers/instances'
import { createSource, ingest, upload } from '../../test/helpers/knowledge-files'
import type { TestServer } from '../../test/helpers/server'

/** Long enough for a loaded machine; the test waits for the change, never for a time. */
const DEADLINE_MS = 20_000

let embeddings: FakeEmbeddings | undefined
afterEach(async () => {
  await closeInstances()
  await embeddings?.close()
  embeddings = undefined
})

async function indexedKey(server: TestServer, sourceId: string): Promise<string | null> {
  const [row] = await server.rows<{ key: string | null }>(
    sql`SELECT indexed_embedding_key AS key FROM knowledge_source WHERE id = ${sourceId}`,
  )
  return row?.key ?? null
}

async function vectorHits(server: TestServer, sourceId: string) {
  const response = await server.app.inject({
    method: 'POST',
    url: '/retrieval/query',
    headers: await server.adminHeaders(),
    payload: { query: 'harbour lanterns', source_ids: [sourceId], mode: 'vector' },
  })
  expect(response.statusCode, response.body).toBe(200)
  return response.json().items as { document_name: string; vector_rank: number | null }[]
}

async function guardOf(server: TestServer) {
  server.app.ctx.guard.evaluate(true)
  const health = (await server.app.inject({ method: 'GET', url: '/healthz' })).json()
  return { state: health.guard_state as string, messages: (health.guard_messages as string[]).join(' ') }
}

describe.skipIf(TEST_ENGINE !== 'postgres')(
  'the knowledge index on two instances on one PostgreSQL database (the postgres project only)',
  () => {
    it("searches on B the hashing vectors A's embedding job wrote, and drops B's stale-index warning after A's switch", async () => {
      // A source indexed with another model ('letters'), by a server that is gone since.
      embeddings = await startFakeEmbeddings()
      const {
        another,
        servers: [seed],
      } = await startInstances({ openAiBaseUrl: embeddings.url, embeddingModel: 'letters' })
      const first = seed as TestServer
      const headers = await first.adminHeaders()
      const sourceId = await createSource(first, headers)
      await upload(first, headers, sourceId, [
        { name: 'a.txt', data: Buffer.from('Lanterns light the harbour.') },
      ])
      await ingest(first, headers, sourceId)
      await expect.poll(() => indexedKey(first, sourceId), { timeout: DEADLINE_MS }).toBe('openai:letters:8')
      await first.close()

      // B (the hashing embedder, no job runner) loads its vector index while no hashing vector exists yet.
      const b = await another({ runJobs: false })
      expect(await guardOf(b)).toMatchObject({
        state: 'warning',
        messages: expect.stringContaining('re-embedded'),
      })
      expect(await vectorHits(b, sourceId)).toEqual([])

      // A runs the embedding job: hashing vectors for the old chunk, and the switch.
      const a = await another()
      await expect
        .poll(() => indexedKey(a, sourceId), { timeout: DEADLINE_MS })
        .toBe('builtin:hashing-v2:512')
      const [stored] = await b.rows<{ n: number }>(
        sql`SELECT CAST(count(*) AS integer) AS n FROM knowledge_chunk_vector WHERE embedding_key = 'builtin:hashing-v2:512'`,
      )
      expect(stored).toEqual({ n: 1 })

      // B searches the vectors A wrote, and no longer warns of a source being re-embedded.
      await expect
        .poll(() => vectorHits(b, sourceId), { timeout: DEADLINE_MS })
        .toMatchObject([{ document_name: 'a.txt', vector_rank: 1 }])
      await expect.poll(() => guardOf(b), { timeout: DEADLINE_MS }).toEqual({ state: 'ok', messages: '' })
      expect(await vectorHits(a, sourceId)).toMatchObject([{ document_name: 'a.txt', vector_rank: 1 }])
    }, 120_000)
  },
)
