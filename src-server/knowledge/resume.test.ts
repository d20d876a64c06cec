import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect } from 'vitest'
import { itNeedsConverted } from '../../test/helpers/engine'
import { createSource, upload, waitForJob } from '../../test/helpers/knowledge-files'
import { startTestServer, type TestServer } from '../../test/helpers/server'
import { createEmbedder } from '../ai'
import { vectorTableOf } from './chunk-index.repository'
import { createEmbeddingJobs } from './embedding-job.service'
import { createIngestionService } from './ingestion.service'
import { allDocumentsOf } from './knowledge.repository'

let server: TestServer | undefined
let dataDir: string
afterEach(async () => {
  await server?.close()
  server = undefined
  rmSync(dataDir, { recursive: true, force: true })
})

describe('ingestion after an interruption', () => {
  itNeedsConverted('jobs')(
    'resumes a job whose runner died mid-way, skipping finished documents and duplicating nothing',
    async () => {
      dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-resume-'))
      server = await startTestServer({ dataDir, runJobs: false })
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
      const embedding = createEmbeddingJobs(ctx, embedder, async () => {})
      const service = createIngestionService(ctx, embedder, embedding)
      const [first] = await allDocumentsOf(ctx.database.reader, sourceId)
      if (!first) throw new Error('no document')
      await service.indexDocument(first, {
        jobId,
        strategy: 'recursive',
        params: { chunk_size: 1000, chunk_overlap: 200, separators: ['\n\n', '\n', '. ', ' ', ''] },
        signal: new AbortController().signal,
      })
      ctx.db.$client
        .prepare(
          `UPDATE job SET status = 'running', attempts = 1, lease_owner = 'dead-runner',
           lease_expires_at = '2000-01-01T00:00:00.000Z', started_at = '2000-01-01T00:00:00.000Z',
           progress_json = '{"documents_total":3,"documents_done":1,"chunks_written":1}' WHERE id = ?`,
        )
        .run(jobId)
      const firstChunks = ctx.db.$client.prepare('SELECT seq FROM knowledge_chunk').all()
      await server.close()

      server = await startTestServer({ dataDir })
      headers = await server.adminHeaders()
      const job = await waitForJob(server, headers, jobId)
      expect(job).toMatchObject({
        status: 'succeeded',
        progress: { documents_total: 3, documents_done: 3, chunks_written: 3 },
      })
      const db = server.app.ctx.db.$client
      expect(db.prepare('SELECT attempts FROM job WHERE id = ?').get(jobId)).toEqual({ attempts: 2 })
      const chunks = db.prepare('SELECT seq, document_id FROM knowledge_chunk ORDER BY seq').all() as {
        seq: number
        document_id: string
      }[]
      expect(chunks).toHaveLength(3)
      expect(new Set(chunks.map((chunk) => chunk.document_id)).size).toBe(3)
      // The finished document was not redone: its chunk row is the one written before the interruption.
      expect(chunks[0]).toMatchObject(firstChunks[0] as object)
      expect(db.prepare("SELECT count(*) n FROM knowledge_document WHERE status = 'indexed'").get()).toEqual({
        n: 3,
      })
      expect(db.prepare(`SELECT count(*) n FROM ${vectorTableOf('builtin:hashing-v2:512')}`).get()).toEqual({
        n: 3,
      })
    },
  )
})
