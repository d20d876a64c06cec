import { rmSync } from 'node:fs'
import { type SQL, sql } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { TEST_ENGINE, testDatabaseUrl } from '../../test/helpers/engine'
import { type FakeEmbeddings, startFakeEmbeddings } from '../../test/helpers/fake-embeddings'
import { createSource, ingest, upload, waitForEmbedding } from '../../test/helpers/knowledge-files'
import { startTestServer, type TestServer } from '../../test/helpers/server'
import { vectorTableOf } from './chunk-index.repository'

let server: TestServer | undefined
let embeddings: FakeEmbeddings
/** The PostgreSQL database's URL in the `postgres` project, kept across a restart as the data directory is. */
let databaseUrl: string | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
  databaseUrl = undefined
  await embeddings?.close()
})

/** 40 one-line documents, one chunk each, each with a word no other has (`marker7`). */
const DOCUMENTS = Array.from({ length: 40 }, (_, i) => ({
  name: `note-${i}.txt`,
  data: Buffer.from(`Harbour log entry marker${i}: the lantern keeper counted ${i} ships.`),
}))
/** The letters embedder's stored vectors: its vec0 table on SQLite, its rows of the vector table on PostgreSQL. */
const LETTERS_VECTORS: SQL =
  TEST_ENGINE === 'sqlite'
    ? sql`SELECT count(*) AS n FROM ${sql.identifier(vectorTableOf('openai:letters:8'))}`
    : sql`SELECT count(*) AS n FROM knowledge_chunk_vector WHERE embedding_key = 'openai:letters:8'`
const storedVectors = async (api: TestServer) =>
  Number((await api.rows<{ n: number | string }>(LETTERS_VECTORS))[0]?.n)
const isChunkText = (text: string) => text.startsWith('Harbour log entry')
/** The embedding job's requests are held; a query's embedding (or a dimension probe) goes through. */
const isDocumentBatch = (texts: string[]) => texts.some(isChunkText)

/** Uploads in requests of 20 files, the multipart limit. */
async function uploadAll(api: TestServer, headers: Record<string, string>, sourceId: string) {
  for (let start = 0; start < DOCUMENTS.length; start += 20)
    expect((await upload(api, headers, sourceId, DOCUMENTS.slice(start, start + 20))).statusCode).toBe(201)
}

async function startWithSlowEmbedder(dataDir?: string) {
  databaseUrl ??= await testDatabaseUrl()
  server = await startTestServer({
    ...(dataDir ? { dataDir } : {}),
    databaseUrl,
    openAiBaseUrl: embeddings.url,
    embeddingModel: 'letters',
  })
  const headers = await server.adminHeaders()
  const api = server
  return {
    headers,
    progress: async (sourceId: string) =>
      (await api.app.inject({ method: 'GET', url: `/knowledge-sources/${sourceId}`, headers })).json()
        .embedding_progress as { embedded: number; total: number },
    query: async (sourceId: string, query: string) =>
      (
        await api.app.inject({
          method: 'POST',
          url: '/retrieval/query',
          headers,
          payload: { query, source_ids: [sourceId], top_k: 3 },
        })
      ).json().items as { document_name: string; bm25_rank: number | null; vector_rank: number | null }[],
  }
}

/** A server whose embedder holds every document batch, and a source with the documents uploaded, not ingested. */
async function uploadedWhileEmbedderHolds() {
  embeddings = await startFakeEmbeddings()
  embeddings.hold(isDocumentBatch)
  const api = await startWithSlowEmbedder()
  const live = server as TestServer
  const sourceId = await createSource(live, api.headers)
  await uploadAll(live, api.headers, sourceId)
  return { api, live, sourceId }
}

describe('progressive indexing', () => {
  it('makes documents searchable by BM25 before their vectors exist, then fills the vectors in with progress', async () => {
    const { api, live, sourceId } = await uploadedWhileEmbedderHolds()
    expect((await ingest(live, api.headers, sourceId)).status).toBe('succeeded')

    // Parsed and BM25-indexed; not one vector yet (the embedding server holds every request).
    await embeddings.waiting(1)
    expect(await api.progress(sourceId)).toEqual({ embedded: 0, total: 40 })
    const [hit] = await api.query(sourceId, 'marker17 lantern')
    expect(hit).toMatchObject({ document_name: 'note-17.txt', bm25_rank: 1, vector_rank: null })

    const seen: number[] = []
    embeddings.release()
    for (;;) {
      const { embedded, total } = await api.progress(sourceId)
      seen.push(embedded)
      if (embedded === total) break
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    await waitForEmbedding(live, sourceId)
    expect(seen.every((value, i) => i === 0 || value >= (seen[i - 1] as number))).toBe(true)
    expect(seen.at(-1)).toBe(40)
    expect(await storedVectors(live)).toBe(40)
    // Hybrid now has both halves for the same hit.
    const [after] = await api.query(sourceId, 'marker17 lantern')
    expect(after?.document_name).toBe('note-17.txt')
    expect(after?.vector_rank).not.toBeNull()
  }, 120_000)

  it('resumes an embedding job interrupted by a shutdown without embedding any chunk twice', async () => {
    const held = await uploadedWhileEmbedderHolds()
    const { live: first, sourceId } = held
    let { api } = held
    await ingest(first, api.headers, sourceId)
    // One batch gets through (up to 32 chunks: as many as were parsed when it started), the next is held when
    // the server stops.
    embeddings.release(1)
    await embeddings.waiting(1)
    const before = embeddings.answered.filter(isChunkText).length
    expect(before).toBeGreaterThan(0)
    expect(before).toBeLessThan(40)
    expect(await api.progress(sourceId)).toEqual({ embedded: before, total: 40 })
    const dataDir = first.dataDir
    await first.app.close()
    server = undefined

    embeddings.discardHeld()
    embeddings.release()
    api = await startWithSlowEmbedder(dataDir)
    const second = server as unknown as TestServer
    await waitForEmbedding(second, sourceId)
    expect(await api.progress(sourceId)).toEqual({ embedded: 40, total: 40 })
    expect(await storedVectors(second)).toBe(40)
    const jobs = await second.rows<{ status: string; attempts: number | string }>(
      sql`SELECT status, attempts FROM job WHERE type = 'knowledge.embed'`,
    )
    // The shutdown handed the job back uncounted: one attempt, the one that finished it.
    expect(jobs.map((job) => ({ ...job, attempts: Number(job.attempts) }))).toEqual([
      { status: 'succeeded', attempts: 1 },
    ])
    // The texts embedded before the stop were not sent again after it.
    const chunkTexts = embeddings.answered.filter(isChunkText)
    expect(chunkTexts).toHaveLength(40)
    expect(new Set(chunkTexts).size).toBe(40)
    await second.close()
    server = undefined
    rmSync(dataDir, { recursive: true, force: true })
  }, 120_000)
})
