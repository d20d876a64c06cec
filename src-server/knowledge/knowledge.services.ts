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
  const retrieval = createRetrievalService(ctx, embedder, ctx.workers, ctx.log)
  const embedderStatus = createEmbeddingService(ctx.database.reader, embedder)
  const embedding = createEmbeddingJobs(ctx, embedder, embedderStatus.refreshStaleIndex)
  return {
    embedder,
    embedding,
    sources: createSourcesService(ctx, embedding),
    documents: createDocumentsService(ctx, ctx.blobs, ctx.workers),
    ingestion: createIngestionService(ctx, embedder, embedding),
    mounts: createMountsService(ctx),
    retrieval,
    embedderStatus,
  }
}
export type KnowledgeServices = ReturnType<typeof createKnowledgeServices>
