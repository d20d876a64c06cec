import { type Embedder, embeddingKey } from '../ai'
import type { AppContext } from '../platform/app-context'
import type { EngineDb } from '../platform/db'
import { findJobByPayload, type JobContext } from '../platform/jobs'
import {
  chunksLackingVectors,
  dropSourceVectors,
  embeddingProgress,
  writeVectors,
} from './chunk-index.repository'
import { announceIndexSwitch, announceVectorsWritten } from './index-events'
import { INGEST_JOB_TYPE } from './ingestion.service'
import { findSource, sourcesWithChunks, updateSource } from './knowledge.repository'

export const EMBED_JOB_TYPE = 'knowledge.embed'
/** Chunks per step: one worker call for USE-lite, small enough that progress moves and a stop is noticed. */
const BATCH = 32
/** While the source is still being ingested, the job waits this long for more chunks before looking again. */
const INGEST_POLL_MS = 300

export interface EmbeddingProgress {
  embedded: number
  total: number
}

/**
 * Progressive indexing: ingestion makes chunks searchable by BM25 at once, and this durable job (one per source)
 * fills in their vectors with the current embedder, batch by batch, while hybrid retrieval already uses the
 * vectors that exist. It embeds only chunks that have no vector of the current key, so a job resumed after a
 * crash carries on where it stopped and a redo never embeds twice. When every chunk has one, the source switches
 * to the key (`indexed_embedding_key`) and the vectors of its previous model are dropped: a new model's index is
 * built beside the old one, which answers until then.
 */
export function createEmbeddingJobs(ctx: AppContext, embedder: Embedder) {
  const { database } = ctx
  const reader = database.reader

  /** The current key; a remote embedder's dimension is known after its first answer. */
  const currentKey = (dim?: number): string | null => {
    const known = dim ?? embedder.dim()
    return known ? embeddingKey(embedder, known) : null
  }

  /** Queues the source's embedding job unless one is queued or running (that one will see the new chunks). */
  async function request(sourceId: string): Promise<void> {
    await database.transact(async (tx) => {
      if (!(await activeSourceJob(tx, EMBED_JOB_TYPE, sourceId)))
        await ctx.jobs.enqueue(tx, EMBED_JOB_TYPE, { source_id: sourceId })
    })
  }

  /**
   * At start: every source missing vectors of the current key (new model, or a job that never ran) gets a job.
   * A remote embedder's dimension is not known before its first answer: then only sources last indexed by another
   * model are queued, not every source once per start.
   */
  async function requestMissing(): Promise<void> {
    const key = currentKey()
    const currentModel = `${embedder.provider}:${embedder.model}:`
    for (const source of await sourcesWithChunks(reader)) {
      if (!key) {
        if (!source.indexedEmbeddingKey?.startsWith(currentModel)) await request(source.id)
        continue
      }
      const progress = await embeddingProgress(reader, key, source.id)
      if (source.indexedEmbeddingKey !== key || progress.embedded < progress.total) await request(source.id)
    }
  }

  const progressOf = (sourceId: string): Promise<EmbeddingProgress> =>
    embeddingProgress(reader, currentKey(), sourceId)

  /** The current key, asking a remote embedder once for its dimension if it was not used yet. */
  async function knownKey(signal: AbortSignal): Promise<string> {
    const known = currentKey()
    if (known) return known
    const [probe] = await embedder.embed(['Switchboard embedding dimension probe.'], signal)
    const learnt = currentKey(probe?.length)
    if (!learnt) throw new Error('The embedder returned no vector.')
    return learnt
  }

  async function run({ payload, signal, progress }: JobContext<{ source_id: string }>) {
    const sourceId = payload.source_id
    const key = await knownKey(signal)
    let afterSeq = 0
    let written = 0
    const report = async () => progress({ ...(await embeddingProgress(reader, key, sourceId)), written })
    for (;;) {
      if (signal.aborted) throw signal.reason
      if (!(await findSource(reader, sourceId))) return { message: 'The source was deleted.' }
      const batch = await chunksLackingVectors(reader, {
        embeddingKey: key,
        sourceId,
        afterSeq,
        limit: BATCH,
      })
      if (batch.length === 0) {
        // More chunks may still come from an ingestion in progress; once it is over, one last look.
        if (await activeSourceJob(reader, INGEST_JOB_TYPE, sourceId)) {
          await new Promise((resolve) => setTimeout(resolve, INGEST_POLL_MS))
          continue
        }
        const last = await chunksLackingVectors(reader, { embeddingKey: key, sourceId, afterSeq, limit: 1 })
        if (last.length > 0) continue
        break
      }
      const vectors = await embedder.embed(
        batch.map((chunk) => chunk.content),
        signal,
      )
      const wrote = await database.transact(async (tx) => {
        const count = await writeVectors(tx, {
          embeddingKey: key,
          sourceId,
          rows: batch.map((chunk, i) => ({ seq: chunk.seq, vector: vectors[i] as Float32Array })),
        })
        if (count > 0)
          await announceVectorsWritten(ctx.events, tx, {
            key,
            firstSeq: batch[0]?.seq as number,
            lastSeq: batch.at(-1)?.seq as number,
          })
        return count
      })
      written += wrote
      afterSeq = batch.at(-1)?.seq ?? afterSeq
      await report()
    }
    await switchTo(sourceId, key, written)
    await report()
    return { message: `Embedded ${written} chunks with ${embedder.provider}:${embedder.model}.` }
  }

  /**
   * The source's index of `key` is complete: search it from now on and drop the previous model's vectors. Every
   * instance hears of it (`index-events.ts`): its stale sources changed, and its indexes of both keys.
   */
  async function switchTo(sourceId: string, key: string, written: number): Promise<void> {
    const previous = (await findSource(reader, sourceId))?.indexedEmbeddingKey ?? null
    await database.transact(async (tx) => {
      if (previous && previous !== key) await dropSourceVectors(tx, previous, sourceId)
      await updateSource(tx, sourceId, { indexedEmbeddingKey: key })
      await announceIndexSwitch(ctx.events, tx, { sourceId, key, previous, written })
    })
  }

  return { request, requestMissing, progressOf, run }
}

export type EmbeddingJobs = ReturnType<typeof createEmbeddingJobs>

/** Whether a job of `type` for the source is queued or running. */
async function activeSourceJob(db: EngineDb, type: string, sourceId: string): Promise<boolean> {
  const job = await findJobByPayload(db, {
    type,
    field: 'source_id',
    value: sourceId,
    statuses: ['queued', 'running'],
  })
  return job !== null
}
