import { createEmbedder, type Embedder } from '../ai'
import type { AppContext } from '../platform/app-context'
import { createDocumentsService } from './documents.service'
import { createEmbeddingService } from './embedding.service'
import { createEmbeddingJobs } from './embedding-job.service'
import { followIndexEvents } from './index-events'
import { createIngestionService } from './ingestion.service'
import { createMountsService } from './mounts.service'
import { createRetrievalService } from './retrieval.service'
import { createSourcesService } from './sources.service'
import { forgetVectorIndex, heardVectorsWritten } from './vector-index'

/** The knowledge domain's services, built once by its plugin and handed to its routes. */
export function createKnowledgeServices(
  ctx: AppContext,
  embedder: Embedder = createEmbedder(ctx.workers, ctx.config),
) {
  const retrieval = createRetrievalService(ctx, embedder, ctx.workers, ctx.log)
  const embedderStatus = createEmbeddingService(ctx.database.reader, embedder)
  const embedding = createEmbeddingJobs(ctx, embedder)
  // Changes made through any instance: the in-memory vector indexes load what their catch-up by seq misses, and
  // the guard's stale sources follow a switch.
  const reader = ctx.database.reader
  followIndexEvents(ctx.events, {
    onVectorsWritten: (written) => heardVectorsWritten(reader, written),
    async onSwitch({ key, previous, written }) {
      if (written > 0) forgetVectorIndex(reader, key)
      if (previous && previous !== key) forgetVectorIndex(reader, previous)
      await embedderStatus.refreshStaleIndex()
    },
    async onMissed() {
      forgetVectorIndex(reader)
      await embedderStatus.refreshStaleIndex()
    },
  })
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
