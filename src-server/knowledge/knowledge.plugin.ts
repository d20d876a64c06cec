import type { FastifyPluginAsync } from 'fastify'
import { BUILTIN_EMBEDDING_DIM, embeddingKey } from '../ai'
import type { AppContext } from '../platform/app-context'
import { ensureChunkIndex } from './chunk-index.repository'
import { EMBED_JOB_TYPE } from './embedding-job.service'
import { INGEST_JOB_TYPE } from './ingestion.service'
import { documentUsesBlob } from './knowledge.repository'
import { knowledgeRoutes } from './knowledge.routes'
import { createKnowledgeServices } from './knowledge.services'
import { warmVectorIndex } from './vector-index'

/**
 * The knowledge domain: creates the FTS5 index (vec0 tables appear per embedding key on first write), registers
 * the ingestion and embedding job handlers and the stale-index guard check; once the server is ready, queues the
 * embedding of any source missing vectors of the current embedder and loads the hashing embedder's in-memory
 * vector index; serves the routes.
 */
export const knowledgePlugin: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  ctx.blobs.addHolder((sha256) => documentUsesBlob(ctx.db, sha256))
  ensureChunkIndex(ctx.db.$client)
  const services = createKnowledgeServices(ctx)
  ctx.jobs.register(INGEST_JOB_TYPE, services.ingestion.run, { maxAttempts: 3 })
  ctx.jobs.register(EMBED_JOB_TYPE, services.embedding.run, { maxAttempts: 5 })
  ctx.guard.register('knowledge index', services.embedderStatus.staleIndexCheck)
  app.addHook('onReady', async () => {
    services.embedding.requestMissing()
    if (services.embedder.inline)
      warmVectorIndex(
        ctx.db.$client,
        embeddingKey(services.embedder, BUILTIN_EMBEDDING_DIM),
        BUILTIN_EMBEDDING_DIM,
        ctx.log,
      )
  })
  await app.register(knowledgeRoutes, { ctx, services })
}
