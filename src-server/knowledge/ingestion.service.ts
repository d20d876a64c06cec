import { randomUUID } from 'node:crypto'
import { type Embedder, embeddingKey } from '../ai'
import type { AuthUser } from '../auth'
import { requireChangeableAgent } from '../conversation'
import type { AppContext } from '../platform/app-context'
import { type PageQuery, pageWindow, toPage } from '../platform/http'
import type { JobContext } from '../platform/jobs'
import { type KnowledgeStores, manageableSource, readableSource } from './access'
import { replaceDocumentChunks } from './chunk-index.repository'
import type { ChunkingParams, ChunkingStrategy } from './chunking/params'
import { announceVectorsWritten } from './index-events'
import { KnowledgeErrors } from './knowledge.errors'
import { type IngestProgress, presentIngestionJob } from './knowledge.presenters'
import {
  allDocumentsOf,
  claimIndexKey,
  type DocumentRow,
  deleteDocumentChunks,
  findActiveIngestion,
  findDocument,
  findIngestionJob,
  insertIngestionJob,
  listIngestionJobs,
  updateDocument,
} from './knowledge.repository'
import type { IngestBody, IngestionJobDto } from './knowledge.schemas'
import { ensureMounted } from './mounts.service'
import { kindOfMime, type PreparedDocument } from './parsing'
import { effectiveChunking } from './sources.service'

export const INGEST_JOB_TYPE = 'knowledge.ingest'
/** A file that takes longer than this to parse is reported failed instead of holding the job. */
const PREPARE_TIMEOUT_MS = 120_000
/** Inline embedding batch: small enough to notice a stop request between batches. */
const EMBED_BATCH = 256

export function createIngestionService(
  ctx: AppContext,
  embedder: Embedder,
  embedding: { request(sourceId: string): Promise<void> },
) {
  const stores: KnowledgeStores = ctx
  const { database } = ctx
  const reader = database.reader

  async function view(id: string): Promise<IngestionJobDto> {
    const found = await findIngestionJob(reader, id)
    if (!found) throw KnowledgeErrors.INGESTION_JOB_NOT_FOUND()
    return presentIngestionJob(found)
  }

  /**
   * Queues a (re)index of every document of the source, unless one is already queued or running: then that
   * job is the answer (`created` false). The check and the insert share one transaction, so two requests
   * cannot both start one.
   */
  async function start(
    caller: AuthUser,
    sourceId: string,
    body: IngestBody,
  ): Promise<{ job: IngestionJobDto; created: boolean }> {
    const source = await manageableSource(stores, caller, sourceId)
    const strategy = body.chunking_strategy ?? source.defaultChunkingStrategy
    const params =
      body.chunking_params || body.chunking_strategy
        ? effectiveChunking(strategy, body.chunking_params, 'body.chunking_params')
        : source.defaultChunkingParams
    if (body.agent_id) {
      // Mounting the source on the agent changes the agent: its owner or an agent manager, never a buyer.
      await requireChangeableAgent(database.reader, caller, body.agent_id)
      await readableSource(stores, caller, sourceId)
    }
    const outcome = await database.transact(async (tx) => {
      if (body.agent_id) await ensureMounted(tx, body.agent_id, sourceId)
      const active = await findActiveIngestion(tx, sourceId)
      if (active) return { id: active.ingestion.id, created: false }
      // The job and its request commit together.
      const row = await ctx.jobs.enqueue(tx, INGEST_JOB_TYPE, { source_id: sourceId }, { maxAttempts: 3 })
      await insertIngestionJob(tx, {
        id: row.id,
        sourceId,
        agentId: body.agent_id ?? null,
        chunkingStrategy: strategy,
        chunkingParams: params,
        createdBy: caller.id,
      })
      return { id: row.id, created: true }
    })
    return { job: await view(outcome.id), created: outcome.created }
  }

  /**
   * Parse, chunk, then swap the document's chunks in one transaction, with their vectors when the embedder runs
   * inline; otherwise the source's embedding job is asked to fill them in. Returns the chunks written.
   */
  async function indexDocument(
    document: DocumentRow,
    run: { jobId: string; strategy: ChunkingStrategy; params: ChunkingParams; signal: AbortSignal },
  ): Promise<number> {
    const kind = kindOfMime(document.mimeType)
    await database.transact((tx) =>
      updateDocument(tx, document.id, { status: 'parsing', errorMessage: null }),
    )
    let prepared: PreparedDocument
    try {
      if (!kind) throw new Error(`Documents of type ${document.mimeType} cannot be parsed.`)
      const bytes = await ctx.blobs.readBytes(document.sha256)
      prepared = await ctx.workers.run<PreparedDocument>(
        'knowledgePrepareDocument',
        { kind, bytes, strategy: run.strategy, params: run.params },
        // The file's bytes are read for this task alone: they move to the thread instead of being copied.
        {
          timeoutMs: PREPARE_TIMEOUT_MS,
          timeoutMessage: 'Parsing the document took too long.',
          transfer: [bytes],
        },
      )
    } catch (error) {
      // A bad file fails alone: its old chunks go, the job carries on with the next document.
      await database.transact(async (tx) => {
        await deleteDocumentChunks(tx, document.id)
        await updateDocument(tx, document.id, {
          status: 'failed',
          errorMessage: (error as Error).message,
          chunkCount: 0,
          indexedJobId: run.jobId,
        })
      })
      return 0
    }
    await database.transact((tx) =>
      updateDocument(tx, document.id, { status: 'indexing', pageCount: prepared.pageCount }),
    )
    const texts = prepared.chunks.map((chunk) => chunk.content)
    let vectors: Float32Array[] | undefined
    if (embedder.inline)
      try {
        vectors = []
        for (let start = 0; start < texts.length; start += EMBED_BATCH) {
          if (run.signal.aborted) throw run.signal.reason
          vectors.push(...(await embedder.embed(texts.slice(start, start + EMBED_BATCH), run.signal)))
        }
      } catch (error) {
        await database.transact((tx) =>
          updateDocument(tx, document.id, { status: document.status, errorMessage: document.errorMessage }),
        )
        throw error
      }
    const key = embeddingKey(embedder, embedder.dim() ?? 0)
    const chunks = prepared.chunks.map((chunk) => ({ ...chunk, id: randomUUID() }))
    await database.transact(async (tx) => {
      // Deleted while we worked: nothing to write.
      if (!(await findDocument(tx, document.sourceId, document.id))) return
      // Searchable by full text from here on; vectors come with the chunks (inline embedder) or from the embedding job.
      const seqs =
        chunks.length > 0
          ? await replaceDocumentChunks(tx, {
              sourceId: document.sourceId,
              documentId: document.id,
              embeddingKey: key,
              vectors,
              chunks,
            })
          : null
      if (!seqs) await deleteDocumentChunks(tx, document.id)
      await updateDocument(tx, document.id, {
        status: 'indexed',
        errorMessage: null,
        chunkCount: prepared.chunks.length,
        pageCount: prepared.pageCount,
        indexedJobId: run.jobId,
      })
      // An inline embedder's index is complete with this write, unless the source is moving from another model.
      if (vectors) await claimIndexKey(tx, document.sourceId, key)
      if (vectors && seqs) await announceVectorsWritten(ctx.events, tx, { key, ...seqs })
    })
    await embedding.request(document.sourceId)
    return prepared.chunks.length
  }

  /**
   * The job handler. Documents this job already finished (`indexed_job_id`) are skipped, so a job resumed after
   * a restart or a lost lease picks up where it stopped; each document's chunks are replaced whole, so redoing
   * one never duplicates chunks.
   */
  async function run({
    job,
    signal,
    progress,
  }: JobContext<{ source_id: string }>): Promise<{ message: string }> {
    const request = await findIngestionJob(reader, job.id)
    if (!request) throw new Error('The ingestion request no longer exists.')
    const { chunkingStrategy: strategy, chunkingParams: params } = request.ingestion
    const documents = await allDocumentsOf(reader, request.ingestion.sourceId)
    const state: IngestProgress = { documents_total: documents.length, documents_done: 0, chunks_written: 0 }
    let failed = 0
    const pending: DocumentRow[] = []
    for (const document of documents) {
      if (document.indexedJobId !== job.id) pending.push(document)
      else {
        state.documents_done++
        state.chunks_written += document.chunkCount
        if (document.status === 'failed') failed++
      }
    }
    for (const document of pending) {
      if (signal.aborted) throw signal.reason
      progress({
        ...state,
        message: `Indexing ${document.fileName} (${state.documents_done + 1} of ${state.documents_total}).`,
      })
      const written = await indexDocument(document, { jobId: job.id, strategy, params, signal })
      if (written === 0 && (await findDocument(reader, document.sourceId, document.id))?.status === 'failed')
        failed++
      state.documents_done++
      state.chunks_written += written
    }
    const message =
      `Indexed ${state.documents_total - failed} of ${state.documents_total} documents` +
      (failed > 0 ? ` (${failed} failed)` : '') +
      `: ${state.chunks_written} chunks.`
    progress({ ...state, message })
    return { message }
  }

  return {
    start,
    run,
    indexDocument,
    async get(caller: AuthUser, jobId: string): Promise<IngestionJobDto> {
      const found = await findIngestionJob(reader, jobId)
      if (!found) throw KnowledgeErrors.INGESTION_JOB_NOT_FOUND()
      try {
        await manageableSource(stores, caller, found.ingestion.sourceId)
      } catch {
        throw KnowledgeErrors.INGESTION_JOB_NOT_FOUND()
      }
      return presentIngestionJob(found)
    },
    async list(caller: AuthUser, sourceId: string, query: PageQuery) {
      await manageableSource(stores, caller, sourceId)
      const { rows, total } = await listIngestionJobs(reader, sourceId, pageWindow(query))
      return toPage(rows.map(presentIngestionJob), total, query)
    },
  }
}
