import type { FastifyBaseLogger } from 'fastify'
import type { Embedder } from '../ai/embeddings'
import { embeddingKey } from '../ai/embeddings'
import type { AuthUser } from '../auth/auth.service'
import type { Db } from '../db/client'
import { mountableSource, usableAgent } from './access'
import { chunksBySeq, type RankedChunk, searchBm25, searchVectors } from './chunk-index.repository'
import { listMounts, manageableSourceIds } from './knowledge.repository'
import type { RetrievalQueryBody } from './knowledge.schemas'
import { vectorIndexFor } from './vector-index'

export interface RetrievedChunk {
  chunk_id: string
  source_id: string
  document_id: string
  document_name: string
  page_number: number | null
  content: string
  score: number
}

/** What chat uses: the best chunks of an agent's active mounts, higher-priority sources first. */
export interface KnowledgeRetriever {
  retrieveForAgent(agentId: string, query: string, topK?: number): Promise<RetrievedChunk[]>
}

export const DEFAULT_TOP_K = 5
/** Reciprocal rank fusion constant (Cormack et al.): damps the weight of the very first ranks. */
const RRF_K = 60

interface ScopedSource {
  id: string
  priority: number
}

export function createRetrievalService(db: Db, embedder: Embedder, log: FastifyBaseLogger) {
  const client = db.$client

  async function queryVector(query: string): Promise<Float32Array | null> {
    try {
      const [vector] = await embedder.embed([query])
      return vector?.some((value) => value !== 0) ? vector : null
    } catch (error) {
      // A remote embedder being down degrades retrieval to BM25 rather than failing chat.
      log.warn({ err: (error as Error).message }, 'query embedding failed; using BM25 only')
      return null
    }
  }

  /**
   * Vector candidates: the builtin embedder's from the in-memory index (its accuracy against exact KNN is
   * measured in the bench), any other embedder's by exact vec0 KNN, since the index's pruned first pass is tuned
   * for the builtin embedder's sparse vectors, not for dense ones.
   */
  async function nearestChunks(
    vector: Float32Array,
    sourceIds: string[],
    limit: number,
  ): Promise<RankedChunk[]> {
    const scope = { embeddingKey: embeddingKey(embedder, vector.length), sourceIds, limit }
    if (embedder.backendType === 'builtin') return vectorIndexFor(client, vector.length).search(vector, scope)
    return searchVectors(client, { vector, ...scope })
  }

  /**
   * Hybrid search: BM25 over FTS5 and cosine over the vector index (sqlite-vec's vectors, held in memory), each ranking its candidates, fused by
   * reciprocal rank. The best `topK` by fused score (ties: higher priority) are returned in context order:
   * priority first, then score.
   */
  async function search(sources: ScopedSource[], query: string, topK: number): Promise<RetrievedChunk[]> {
    if (sources.length === 0) return []
    const ids = sources.map((source) => source.id)
    const candidates = Math.max(50, topK * 10)
    const fused = new Map<number, number>()
    const addRanking = (seqs: number[]) => {
      for (const [rank, seq] of seqs.entries()) fused.set(seq, (fused.get(seq) ?? 0) + 1 / (RRF_K + rank + 1))
    }
    addRanking(searchBm25(client, query, ids, candidates).map((row) => row.seq))
    const vector = await queryVector(query)
    if (vector) addRanking((await nearestChunks(vector, ids, candidates)).map((row) => row.seq))
    const priority = new Map(sources.map((source) => [source.id, source.priority]))
    const rows = chunksBySeq(client, [...fused.keys()])
    const scored = rows.map((row) => ({
      row,
      score: fused.get(row.seq) ?? 0,
      priority: priority.get(row.source_id) ?? 0,
    }))
    scored.sort((a, b) => b.score - a.score || b.priority - a.priority || a.row.seq - b.row.seq)
    return scored
      .slice(0, topK)
      .sort((a, b) => b.priority - a.priority || b.score - a.score)
      .map(({ row, score }) => ({
        chunk_id: row.chunk_id,
        source_id: row.source_id,
        document_id: row.document_id,
        document_name: row.document_name,
        page_number: row.page_number,
        content: row.content,
        score,
      }))
  }

  const activeMounts = (agentId: string): ScopedSource[] =>
    listMounts(db, agentId, true).map((mount) => ({ id: mount.sourceId, priority: mount.priority }))

  return {
    retriever: {
      retrieveForAgent: (agentId, query, topK = DEFAULT_TOP_K) => search(activeMounts(agentId), query, topK),
    } satisfies KnowledgeRetriever,

    /**
     * The playground's query. With `agent_id`: that agent's active mounts (narrowed by `source_ids` if given);
     * with `source_ids`: those sources; with neither: every source the caller manages.
     */
    async query(caller: AuthUser, body: RetrievalQueryBody): Promise<RetrievedChunk[]> {
      const topK = body.top_k ?? DEFAULT_TOP_K
      let sources: ScopedSource[]
      if (body.agent_id) {
        usableAgent(db, caller, body.agent_id)
        sources = activeMounts(body.agent_id)
        if (body.source_ids) {
          const wanted = new Set(body.source_ids)
          sources = sources.filter((source) => wanted.has(source.id))
        }
      } else if (body.source_ids) {
        sources = [...new Set(body.source_ids)].map((id) => ({
          id: mountableSource(db, caller, id).id,
          priority: 0,
        }))
      } else {
        const ownerId = caller.permissions.includes('knowledge.manage') ? null : caller.id
        sources = manageableSourceIds(db, ownerId).map((id) => ({ id, priority: 0 }))
      }
      return search(sources, body.query, topK)
    },
  }
}
