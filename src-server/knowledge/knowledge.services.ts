import { createEmbedder, type Embedder } from '../ai'
import type { AppContext } from '../platform/app-context'
import { createDocumentsService } from './documents.service'
import { createEmbeddingService } from './embedding.service'
import { createEmbeddingJobs } from './embedding-job.service'
import { createIngestionService } from './ingestion.service'
import { createMountsService } from './mounts.service'
import { createRetrievalService } from './retrieval.service'
import { createSourcesService } from './sources.service'

/** The knowledge domain's services, built once by its plugin and handed to its routes. */
export function createKnowledgeServices(
  ctx: AppContext,
  embedder: Embedder = createEmbedder(ctx.workers, ctx.config),
) {
  const retrieval = createRetrievalService(ctx.db, embedder, ctx.workers, ctx.log)
  const embedding = createEmbeddingJobs(ctx, embedder)
  return {
    embedder,
    embedding,
    sources: createSourcesService(ctx.db, embedding),
    documents: createDocumentsService(ctx.db, ctx.blobs, ctx.workers),
    ingestion: createIngestionService(ctx, embedder, embedding),
    mounts: createMountsService(ctx.db),
    retrieval,
    embedderStatus: createEmbeddingService(ctx.db, embedder),
  }
}
export type KnowledgeServices = ReturnType<typeof createKnowledgeServices>
