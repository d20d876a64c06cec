import type { FastifyPluginAsync } from 'fastify'
import { BUILTIN_EMBEDDING_DIM, embeddingKey } from '../ai'
import type { AppContext } from '../platform/app-context'
import { enablePgvector, ensureChunkIndex } from './chunk-index.repository'
import { EMBED_JOB_TYPE } from './embedding-job.service'
import { INGEST_JOB_TYPE } from './ingestion.service'
import { documentUsesBlob } from './knowledge.repository'
import { knowledgeRoutes } from './knowledge.routes'
import { createKnowledgeServices } from './knowledge.services'
import { warmVectorIndex } from './vector-index'

/**
 * The knowledge domain: on SQLite brings the FTS5 index up to date (vec0 tables appear per embedding key on first
 * write), on PostgreSQL makes pgvector's extension when offered (the search tables come with the migrations);
 * registers the ingestion and embedding job handlers and the stale-index guard check; once the server is ready,
 * reads the stale sources, queues the embedding of any source missing vectors of the current embedder and loads
 * the hashing embedder's in-memory vector index; serves the routes.
 */
export const knowledgePlugin: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  ctx.blobs.addHolder((sha256) => documentUsesBlob(ctx.database.reader, sha256))
  if (ctx.sqlite) ensureChunkIndex(ctx.sqlite.$client)
  else await enablePgvector(ctx.database)
  const services = createKnowledgeServices(ctx)
  ctx.jobs.register(INGEST_JOB_TYPE, services.ingestion.run, { maxAttempts: 3 })
  ctx.jobs.register(EMBED_JOB_TYPE, services.embedding.run, { maxAttempts: 5 })
  ctx.guard.register('knowledge index', services.embedderStatus.staleIndexCheck)
  app.addHook('onReady', async () => {
    await services.embedderStatus.refreshStaleIndex()
    await ctx.guard.refresh()
    await services.embedding.requestMissing()
    if (services.embedder.inline)
      warmVectorIndex(
        ctx.database.reader,
        embeddingKey(services.embedder, BUILTIN_EMBEDDING_DIM),
        BUILTIN_EMBEDDING_DIM,
        ctx.log,
      )
  })
  await app.register(knowledgeRoutes, { ctx, services })
}
