/** The knowledge domain's public face: ownership lookup for the marketplace, the retriever for chat. */

import { createEmbedder } from '../ai'
import type { AppContext } from '../platform/app-context'
import type { EngineDb } from '../platform/db'
import { findSource } from './knowledge.repository'
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

/** The marketplace's owner lookup for a listed source. */
export async function findKnowledgeSourceOwnerId(db: EngineDb, sourceId: string): Promise<string | null> {
  return (await findSource(db, sourceId))?.ownerId ?? null
}

/**
 * Hybrid retrieval over an agent's active mounts, with the configured embedder. It searches the index tables
 * `knowledgePlugin` creates at its start (register the plugin first, as `app.ts` does).
 */
export function createKnowledgeRetriever(ctx: AppContext): KnowledgeRetriever {
  return createRetrievalService(ctx, createEmbedder(ctx.workers, ctx.config), ctx.workers, ctx.log).retriever
}
