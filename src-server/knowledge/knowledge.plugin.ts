import type { FastifyPluginAsync } from 'fastify'
import { BUILTIN_EMBEDDING_DIM, createEmbedder, type Embedder } from '../ai/embeddings'
import type { AppContext } from '../app-context'
import { ensureChunkIndex } from './chunk-index.repository'
import { createDocumentsService } from './documents.service'
import { checkReadiness, staleIndexCheck } from './embedding.service'
import { createIngestionService, INGEST_JOB_TYPE } from './ingestion.service'
import { documentUsesBlob } from './knowledge.repository'
import { knowledgeRoutes } from './knowledge.routes'
import { createMountsService } from './mounts.service'
import { createRetrievalService } from './retrieval.service'
import { createSourcesService } from './sources.service'
import { warmVectorIndex } from './vector-index'

export function createKnowledgeServices(ctx: AppContext, embedder: Embedder = createEmbedder(ctx.workers)) {
  const retrieval = createRetrievalService(ctx.db, embedder, ctx.log)
  return {
    embedder,
    sources: createSourcesService(ctx.db),
    documents: createDocumentsService(ctx.db, ctx.blobs),
    ingestion: createIngestionService(ctx, embedder),
    mounts: createMountsService(ctx.db),
    retrieval,
    checkReadiness: () => checkReadiness(embedder),
  }
}
export type KnowledgeServices = ReturnType<typeof createKnowledgeServices>

/**
 * The knowledge domain: creates the FTS5 index (vec0 tables appear per dimension on first write), registers the
 * ingestion job handler and the stale-index guard check, loads the builtin embedder's vector index once the server is ready, and
 * serves the routes.
 */
export const knowledgePlugin: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  ctx.blobs.addHolder((sha256) => documentUsesBlob(ctx.db, sha256))
  ensureChunkIndex(ctx.db.$client)
  const services = createKnowledgeServices(ctx)
  ctx.jobs.register(INGEST_JOB_TYPE, services.ingestion.run, { maxAttempts: 3 })
  ctx.guard.register('knowledge index', staleIndexCheck(ctx.db, services.embedder))
  if (services.embedder.backendType === 'builtin')
    app.addHook('onReady', async () => warmVectorIndex(ctx.db.$client, BUILTIN_EMBEDDING_DIM, ctx.log))
  await app.register(knowledgeRoutes, { ctx, services })
}
