import type { FastifyBaseLogger } from 'fastify'
import { reachesEvery } from '../access'
import {
  BUILTIN_EMBEDDING_MODEL,
  type Embedder,
  embeddingKey,
  localEmbedderForKey,
  USE_LITE_MODEL,
} from '../ai'
import type { AuthUser } from '../auth'
import { type RetrievedChunk as CitedChunk, requireChangeableAgent } from '../conversation'
import type { WorkerPool } from '../platform/jobs'
import { type KnowledgeStores, readableSource, refundedSources } from './access'
import {
  chunksBySeq,
  exactVectorSearchAvailable,
  type IndexGeneration,
  type RankedChunk,
  searchBm25,
  searchState,
  searchVectors,
  termStatistics,
} from './chunk-index.repository'
import { queryWordRanges } from './indexed-words'
import { listMounts, manageableSourceIds } from './knowledge.repository'
import type { RetrievalQueryBody } from './knowledge.schemas'
import { queryStems, rerankBySentences } from './sentence-rerank'
import { vectorIndexFor } from './vector-index'

/** A chunk as chat cites it, with where each half of the search ranked it. */
export interface RetrievedChunk extends CitedChunk {
  /** The fused score the hit was ranked by. */
  score: number
  /** Where each half ranked the hit (1-based) and its own score: BM25's (higher is better) and cosine similarity. */
  bm25_rank: number | null
  bm25_score: number | null
  vector_rank: number | null
  vector_score: number | null
}

/** A playground hit: where the query's words are in it, as the index matched them (`queryWordRanges`). */
export interface PlaygroundHit extends RetrievedChunk {
  highlights: [number, number][]
}

export type RetrievalMode = 'hybrid' | 'bm25' | 'vector'

/** What chat uses: the best chunks of an agent's active mounts, higher-priority sources first. */
export interface KnowledgeRetriever {
  retrieveForAgent(agentId: string, query: string, topK?: number): Promise<RetrievedChunk[]>
}

export const DEFAULT_TOP_K = 5
/** Reciprocal rank fusion constant (Cormack et al.): damps the weight of the very first ranks. */
const RRF_K = 60
/** The fused score of a candidate ranked first by BM25 alone: the unit the sentence reranker's bonus is given in. */
export const FIRST_RANK_SCORE = 1 / (RRF_K + 1)

/**
 * How much the vector ranking counts against BM25's (weight 1) in the fusion, per local embedder model, chosen on
 * the tuning parts of the two retrieval sets (`npm run bench -- knowledge-quality`): the builtin hashing embedder
 * mostly repeats BM25's lexical evidence with more noise, so it counts less. A configured embedding model counts
 * fully (`vectorWeightOf`).
 */
export const VECTOR_WEIGHT: Record<string, number> = {
  [BUILTIN_EMBEDDING_MODEL]: 0.25,
  [USE_LITE_MODEL]: 0.75,
}

export function vectorWeightOf(embedder: Embedder): number {
  return (embedder.backendType === 'builtin' ? VECTOR_WEIGHT[embedder.model] : undefined) ?? 1
}

/**
 * How much the sentence reranker (`sentence-rerank.ts`) adds, as a share of a first rank's fused score, per local
 * embedder model: chosen with `VECTOR_WEIGHT` on the same tuning parts. A weaker vector ranking leaves more for
 * the sentences to decide. A configured embedding model gets the smallest weight that helped both local ones.
 */
export const RERANK_WEIGHT: Record<string, number> = {
  [BUILTIN_EMBEDDING_MODEL]: 0.1,
  [USE_LITE_MODEL]: 1,
}

export function rerankWeightOf(embedder: Embedder): number {
  return (embedder.backendType === 'builtin' ? RERANK_WEIGHT[embedder.model] : undefined) ?? 0.1
}
/**
 * A vector ranking that shares almost nothing with BM25's candidates is noise more often than insight (a broken
 * or unrelated embedder): its weight scales with how many of its candidates BM25 also found, up to this many.
 */
const AGREEMENT_FOR_FULL_WEIGHT = 5

/** The vector ranking's weight for one query: the embedder's weight, scaled by its agreement with BM25. */
export function vectorWeight(base: number, bm25Seqs: number[], vectorSeqs: number[]): number {
  const lexical = new Set(bm25Seqs)
  const agreement = vectorSeqs.filter((seq) => lexical.has(seq)).length
  return base * Math.min(1, agreement / AGREEMENT_FOR_FULL_WEIGHT)
}

/** Weighted reciprocal rank fusion of BM25's ranking (weight 1) and the vector ranking: seq -> fused score. */
export function fuseRankings(bm25Seqs: number[], vectorSeqs: number[], weight: number): Map<number, number> {
  const fused = new Map<number, number>()
  for (const [seqs, w] of [
    [bm25Seqs, 1],
    [vectorSeqs, weight],
  ] as const)
    for (const [rank, seq] of seqs.entries()) fused.set(seq, (fused.get(seq) ?? 0) + w / (RRF_K + rank + 1))
  return fused
}

interface ScopedSource {
  id: string
  priority: number
}

export function createRetrievalService(
  stores: KnowledgeStores,
  embedder: Embedder,
  workers: WorkerPool,
  log: FastifyBaseLogger,
) {
  const reader = stores.database.reader
  const previousEmbedders = new Map<string, Embedder | null>()

  async function queryVector(using: Embedder, query: string): Promise<Float32Array | null> {
    try {
      const [vector] = await using.embed([query])
      return vector?.some((value) => value !== 0) ? vector : null
    } catch (error) {
      // A remote embedder being down degrades retrieval to BM25 rather than failing chat.
      log.warn({ err: (error as Error).message }, 'query embedding failed; using BM25 only')
      return null
    }
  }

  /**
   * The embedder each source's vectors are searched with: the current one, except for a source whose new index
   * is still being built (`indexed_embedding_key` names another model) and whose previous model ships with the
   * app: that one answers until the switch. Chunks without a vector yet simply have no vector rank.
   */
  function embedderFor(indexedKey: string | null): Embedder {
    const currentPrefix = `${embedder.provider}:${embedder.model}:`
    if (!indexedKey || indexedKey.startsWith(currentPrefix)) return embedder
    if (!previousEmbedders.has(indexedKey))
      previousEmbedders.set(indexedKey, localEmbedderForKey(indexedKey, workers))
    return previousEmbedders.get(indexedKey) ?? embedder
  }

  /**
   * Vector candidates: the hashing embedder's from the in-memory index (its accuracy against exact KNN is
   * measured in the bench), any other embedder's by exact KNN (vec0, or pgvector), since the index's pruned first
   * pass is tuned for the hashing embedder's sparse vectors, not for dense ones. On PostgreSQL without pgvector
   * the in-memory index serves every embedder. `sources` and `generation` are the search's `searchState`.
   */
  async function nearestChunks(
    query: string,
    sources: { id: string; indexedEmbeddingKey: string | null }[],
    generation: IndexGeneration,
    limit: number,
  ): Promise<RankedChunk[]> {
    const groups = new Map<Embedder, string[]>()
    for (const source of sources) {
      const using = embedderFor(source.indexedEmbeddingKey)
      groups.set(using, [...(groups.get(using) ?? []), source.id])
    }
    const found: RankedChunk[] = []
    for (const [using, ids] of groups) {
      const vector = await queryVector(using, query)
      if (!vector) continue
      const key = embeddingKey(using, vector.length)
      const scope = { sourceIds: ids, limit }
      if (using.inline || !exactVectorSearchAvailable(reader))
        found.push(...(await vectorIndexFor(reader, key, vector.length).search(vector, scope, generation)))
      else found.push(...(await searchVectors(reader, { vector, embeddingKey: key, ...scope })))
    }
    return found.sort((a, b) => a.rank - b.rank).slice(0, limit)
  }

  /**
   * Hybrid search: full text (BM25 over FTS5, `ts_rank_cd` on PostgreSQL) and cosine over the vectors each rank
   * their candidates; the rankings are
   * fused by weighted reciprocal rank (the vector ranking's weight per embedder, `VECTOR_WEIGHT`, scaled down when
   * it hardly agrees with BM25's candidates), then the best fused candidates are reranked by their best sentence
   * (`sentence-rerank.ts`). `mode` keeps one half only, unreranked. The best `topK` by score (ties: higher
   * priority) are returned in context order, priority first, then score, each with both halves' ranks.
   */
  async function search(
    sources: ScopedSource[],
    query: string,
    topK: number,
    mode: RetrievalMode = 'hybrid',
  ): Promise<RetrievedChunk[]> {
    if (sources.length === 0) return []
    const ids = sources.map((source) => source.id)
    const candidates = Math.max(50, topK * 10)
    const state = await searchState(reader, ids)
    // BM25's terms and the reranker's rarities share one read of the index's counts (a vector search needs none).
    const statistics = mode === 'vector' ? null : await termStatistics(reader, query, state.generation)
    const bm25 = statistics ? await searchBm25(reader, query, ids, candidates, statistics) : []
    const nearest =
      mode === 'bm25' ? [] : await nearestChunks(query, state.sources, state.generation, candidates)
    const bm25Seqs = bm25.map((row) => row.seq)
    const vectorSeqs = nearest.map((row) => row.seq)
    const fused = fuseRankings(
      bm25Seqs,
      vectorSeqs,
      mode === 'vector' ? 1 : vectorWeight(vectorWeightOf(embedder), bm25Seqs, vectorSeqs),
    )
    const bm25Of = new Map(bm25.map((row, rank) => [row.seq, { rank: rank + 1, score: -row.rank }]))
    // Both vector searches rank by cosine distance here: similarity is 1 - distance.
    const vectorOf = new Map(nearest.map((row, rank) => [row.seq, { rank: rank + 1, score: 1 - row.rank }]))
    const priority = new Map(sources.map((source) => [source.id, source.priority]))
    const fusedHits = (await chunksBySeq(reader, [...fused.keys()])).map((row) => ({
      ...row,
      score: fused.get(row.seq) ?? 0,
      priority: priority.get(row.source_id) ?? 0,
    }))
    const scored =
      mode === 'hybrid' && statistics
        ? rerankBySentences(
            fusedHits,
            queryStems(query, statistics.rarity),
            FIRST_RANK_SCORE,
            rerankWeightOf(embedder),
          )
        : fusedHits
    scored.sort((a, b) => b.score - a.score || b.priority - a.priority || a.seq - b.seq)
    const round = (value: number) => Math.round(value * 1e6) / 1e6
    return scored
      .slice(0, topK)
      .sort((a, b) => b.priority - a.priority || b.score - a.score)
      .map((hit) => ({
        chunk_id: hit.chunk_id,
        source_id: hit.source_id,
        document_id: hit.document_id,
        document_name: hit.document_name,
        page_number: hit.page_number,
        content: hit.content,
        score: round(hit.score),
        bm25_rank: bm25Of.get(hit.seq)?.rank ?? null,
        bm25_score: bm25Of.has(hit.seq) ? round(bm25Of.get(hit.seq)?.score ?? 0) : null,
        vector_rank: vectorOf.get(hit.seq)?.rank ?? null,
        vector_score: vectorOf.has(hit.seq) ? round(vectorOf.get(hit.seq)?.score ?? 0) : null,
      }))
  }

  /** The agent's active mounts, less a bought source its owner refunded: the refund ends answers from it. */
  const activeMounts = async (agentId: string): Promise<ScopedSource[]> => {
    const mounts = await listMounts(reader, agentId, true)
    const refunded = await refundedSources(
      stores,
      agentId,
      mounts.map((mount) => mount.sourceId),
    )
    return mounts
      .filter((mount) => !refunded.has(mount.sourceId))
      .map((mount) => ({ id: mount.sourceId, priority: mount.priority }))
  }

  return {
    retriever: {
      retrieveForAgent: async (agentId, query, topK = DEFAULT_TOP_K) =>
        search(await activeMounts(agentId), query, topK),
    } satisfies KnowledgeRetriever,

    /**
     * The playground's query. With `agent_id` (whoever may change the agent): that agent's active mounts (narrowed by `source_ids` if given);
     * with `source_ids`: those sources; with neither: every source the caller manages. Each hit says where the
     * query's content words occur in it (inflections included), for the playground to highlight.
     */
    async query(caller: AuthUser, body: RetrievalQueryBody): Promise<PlaygroundHit[]> {
      const topK = body.top_k ?? DEFAULT_TOP_K
      let sources: ScopedSource[]
      if (body.agent_id) {
        // Searching an agent's sources at will reads them past what its answers cite: its maker's, not a buyer's.
        await requireChangeableAgent(stores.database.reader, caller, body.agent_id)
        sources = await activeMounts(body.agent_id)
        if (body.source_ids) {
          const wanted = new Set(body.source_ids)
          sources = sources.filter((source) => wanted.has(source.id))
        }
      } else if (body.source_ids) {
        sources = []
        for (const id of new Set(body.source_ids))
          sources.push({ id: (await readableSource(stores, caller, id)).id, priority: 0 })
      } else {
        const ownerId = reachesEvery(caller, 'knowledge_source.manage') ? null : caller.id
        sources = (await manageableSourceIds(reader, ownerId)).map((id) => ({ id, priority: 0 }))
      }
      const hits = await search(sources, body.query, topK, body.mode)
      return hits.map((hit) => ({ ...hit, highlights: queryWordRanges(hit.content, body.query) }))
    },
  }
}
