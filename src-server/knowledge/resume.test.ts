import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { type SQL, sql } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { TEST_ENGINE, testDatabaseUrl } from '../../test/helpers/engine'
import { createSource, upload, waitForJob } from '../../test/helpers/knowledge-files'
import { startTestServer, type TestServer } from '../../test/helpers/server'
import { createEmbedder } from '../ai'
import { vectorTableOf } from './chunk-index.repository'
import { createEmbeddingJobs } from './embedding-job.service'
import { createIngestionService } from './ingestion.service'
import { allDocumentsOf } from './knowledge.repository'

let server: TestServer | undefined
let dataDir: string
/** The PostgreSQL database's URL in the `postgres` project, kept across the restart as the data directory is. */
let databaseUrl: string | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
  databaseUrl = undefined
  rmSync(dataDir, { recursive: true, force: true })
})

const rows = <T>(query: SQL) => (server as TestServer).rows<T>(query)

describe('ingestion after an interruption', () => {
  it('resumes a job whose runner died mid-way, skipping finished documents and duplicating nothing', async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-resume-'))
    databaseUrl = await testDatabaseUrl()
    server = await startTestServer({ dataDir, runJobs: false, databaseUrl })
    let headers = await server.adminHeaders()
    const sourceId = await createSource(server, headers)
    await upload(server, headers, sourceId, [
      { name: 'a.txt', data: Buffer.from('Alpha document about owls.') },
      { name: 'b.txt', data: Buffer.from('Bravo document about otters.') },
      { name: 'c.txt', data: Buffer.from('Charlie document about ospreys.') },
    ])
    const queued = await server.app.inject({
      method: 'POST',
      url: `/knowledge-sources/${sourceId}/ingest`,
      headers,
      payload: {},
    })
    const jobId = queued.json().id as string

    // The first runner claimed the job, finished one document, then died: its lease ran out.
    const ctx = server.app.ctx
    const embedder = createEmbedder(ctx.workers, ctx.config)
    const embedding = createEmbeddingJobs(ctx, embedder)
    const service = createIngestionService(ctx, embedder, embedding)
    const [first] = await allDocumentsOf(ctx.database.reader, sourceId)
    if (!first) throw new Error('no document')
    await service.indexDocument(first, {
      jobId,
      strategy: 'recursive',
      params: { chunk_size: 1000, chunk_overlap: 200, separators: ['\n\n', '\n', '. ', ' ', ''] },
      signal: new AbortController().signal,
    })
    await server.write(
      sql`UPDATE job SET status = 'running', attempts = 1, lease_owner = 'dead-runner',
           lease_expires_at = '2000-01-01T00:00:00.000Z', started_at = '2000-01-01T00:00:00.000Z',
           progress_json = '{"documents_total":3,"documents_done":1,"chunks_written":1}' WHERE id = ${jobId}`,
    )
    const firstChunks = await rows(sql`SELECT seq FROM knowledge_chunk`)
    await server.close()

    server = await startTestServer({ dataDir, databaseUrl })
    headers = await server.adminHeaders()
    const job = await waitForJob(server, headers, jobId)
    expect(job).toMatchObject({
      status: 'succeeded',
      progress: { documents_total: 3, documents_done: 3, chunks_written: 3 },
    })
    // Integer columns: numbers on SQLite, bigint text on PostgreSQL.
    const counted = async (query: SQL) => Number((await rows<{ n: number | string }>(query))[0]?.n)
    expect(await counted(sql`SELECT attempts AS n FROM job WHERE id = ${jobId}`)).toBe(2)
    const chunks = await rows<{ seq: number | string; document_id: string }>(
      sql`SELECT seq, document_id FROM knowledge_chunk ORDER BY seq`,
    )
    expect(chunks).toHaveLength(3)
    expect(new Set(chunks.map((chunk) => chunk.document_id)).size).toBe(3)
    // The finished document was not redone: its chunk row is the one written before the interruption.
    expect(chunks[0]).toMatchObject(firstChunks[0] as object)
    expect(await counted(sql`SELECT count(*) AS n FROM knowledge_document WHERE status = 'indexed'`)).toBe(3)
    const vectors =
      TEST_ENGINE === 'sqlite'
        ? sql`SELECT count(*) AS n FROM ${sql.identifier(vectorTableOf('builtin:hashing-v2:512'))}`
        : sql`SELECT count(*) AS n FROM knowledge_chunk_vector WHERE embedding_key = 'builtin:hashing-v2:512'`
    expect(await counted(vectors)).toBe(3)
  })
})
