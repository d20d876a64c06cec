/** The knowledge domain's public face: ownership lookup for the marketplace, the retriever for chat. */

import { eq } from 'drizzle-orm'
import { createEmbedder } from '../ai'
import type { AppContext } from '../platform/app-context'
import type { Queryable } from '../platform/db'
import { knowledgeSource } from './knowledge.tables'
import { createRetrievalService, type KnowledgeRetriever } from './retrieval.service'

export { knowledgePlugin } from './knowledge.plugin'
export {
  ingestionJob,
  knowledgeChunk,
  knowledgeDocument,
  knowledgeMount,
  knowledgeSource,
} from './knowledge.tables'
export type { KnowledgeRetriever, RetrievedChunk } from './retrieval.service'

/**
 * The marketplace's synchronous owner lookup, on SQLite: goes when the marketplace converts (on PostgreSQL the
 * sources are not in SQLite, so listing one needs the marketplace converted).
 */
export function findKnowledgeSourceOwnerIdSync(db: Queryable, sourceId: string): string | null {
  return (
    db
      .select({ ownerId: knowledgeSource.ownerId })
      .from(knowledgeSource)
      .where(eq(knowledgeSource.id, sourceId))
      .get()?.ownerId ?? null
  )
}

/**
 * Hybrid retrieval over an agent's active mounts, with the configured embedder. It searches the index tables
 * `knowledgePlugin` creates at its start (register the plugin first, as `app.ts` does).
 */
export function createKnowledgeRetriever(ctx: AppContext): KnowledgeRetriever {
  return createRetrievalService(ctx, createEmbedder(ctx.workers, ctx.config), ctx.workers, ctx.log).retriever
}
