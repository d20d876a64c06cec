/**
 * Two instances on one PostgreSQL database: what an instance keeps in memory of the knowledge index (the hashing
 * embedder's vector index, the stale sources of the health guard) follows a switch made by the other's embedding
 * job.
 */
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { afterEach, describe, expect, it } from 'vitest'
import { type FakeEmbeddings, startFakeEmbeddings } from '../../test/helpers/fake-embeddings'
import { closeInstances, startInstances } from '../../test/helpers/instances'
import { createSource, ingest, upload, waitForJob } from '../../test/helpers/knowledge-files'
import type { TestServer } from '../../test/helpers/server'

/** Long enough for a loaded machine; the test waits for the change, never for a time. */
const DEADLINE_MS = 20_000
/** An ingestion's first document also starts the worker thread that parses it: slow on a loaded machine. */
const INGESTION_DEADLINE_MS = 90_000

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

async function vectorHits(server: TestServer, ...sourceIds: string[]) {
  const response = await server.app.inject({
    method: 'POST',
    url: '/retrieval/query',
    headers: await server.adminHeaders(),
    payload: { query: 'harbour lanterns', source_ids: sourceIds, mode: 'vector' },
  })
  expect(response.statusCode, response.body).toBe(200)
  return response.json().items as { document_name: string; vector_rank: number | null }[]
}

async function guardOf(server: TestServer) {
  server.app.ctx.guard.evaluate(true)
  const health = (await server.app.inject({ method: 'GET', url: '/healthz' })).json()
  return { state: health.guard_state as string, messages: (health.guard_messages as string[]).join(' ') }
}

describe('the knowledge index on two instances on one PostgreSQL database', () => {
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
    await expect.poll(() => indexedKey(a, sourceId), { timeout: DEADLINE_MS }).toBe('builtin:hashing-v2:512')
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

  it("searches on B the chunks of an ingestion on A that committed after B's index loaded a higher seq", async () => {
    // A runs the jobs; B (no job runner) answers the questions.
    const {
      url,
      servers: [a, b],
    } = await startInstances({}, { runJobs: false })
    const onA = a as TestServer
    const onB = b as TestServer
    const headers = await onA.adminHeaders()
    const lanterns = await createSource(onA, headers, { name: 'Lanterns' })
    const bread = await createSource(onA, headers, { name: 'Bread' })
    await upload(onA, headers, lanterns, [
      { name: 'a.txt', data: Buffer.from('Lanterns light the harbour.') },
    ])
    await upload(onA, headers, bread, [{ name: 'b.txt', data: Buffer.from('Sourdough needs a starter.') }])

    // The lanterns' ingestion takes its chunk's seq, then waits to commit behind this connection's row lock.
    const holder = new pg.Client({ connectionString: url })
    await holder.connect()
    try {
      await holder.query('BEGIN')
      await holder.query('SELECT id FROM knowledge_source WHERE id = $1 FOR NO KEY UPDATE', [lanterns])
      const slow = await onA.app.inject({
        method: 'POST',
        url: `/knowledge-sources/${lanterns}/ingest`,
        headers,
        payload: {},
      })
      expect(slow.statusCode, slow.body).toBe(202)
      // Its chunk has taken the first seq (the sequence is not transactional) and is not committed.
      const [{ name: sequence }] = (
        await holder.query("SELECT pg_get_serial_sequence('knowledge_chunk', 'seq') AS name")
      ).rows
      await expect
        .poll(async () => (await holder.query(`SELECT is_called FROM ${sequence}`)).rows[0].is_called, {
          timeout: INGESTION_DEADLINE_MS,
        })
        .toBe(true)
      expect(await onB.rows(sql`SELECT seq FROM knowledge_chunk`)).toEqual([])
      // The bread's chunk commits with a higher seq, and B's index loads through it.
      await ingest(onA, headers, bread)
      expect((await vectorHits(onB, lanterns, bread)).map((hit) => hit.document_name)).toEqual(['b.txt'])
      await holder.query('COMMIT')
      await waitForJob(onA, headers, slow.json().id)
    } finally {
      await holder.end()
    }
    const seqs = await onB.rows<{ source_id: string; seq: number }>(
      sql`SELECT source_id, CAST(seq AS integer) AS seq FROM knowledge_chunk ORDER BY seq`,
    )
    expect(seqs.map((row) => row.source_id)).toEqual([lanterns, bread])

    // The lanterns' chunk, below the seq B had loaded through, is found by its vector on B too.
    await expect
      .poll(async () => (await vectorHits(onB, lanterns, bread)).map((hit) => hit.document_name), {
        timeout: DEADLINE_MS,
      })
      .toEqual(['a.txt', 'b.txt'])
  }, 240_000)
})
