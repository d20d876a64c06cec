import { contentWords, indexedWords } from './indexed-words'

/**
 * The reranking stage of hybrid retrieval: BM25 scores a chunk's words wherever they are, but a question is
 * usually answered by one sentence that holds most of its rare words together. Among the best fused candidates,
 * each gets a bonus for its best sentence: the summed rarity (IDF) of the distinct query words it holds, compared
 * by stem as the index compares them. Measured on the tuning halves of both retrieval sets (knowledge README): on
 * its own this sentence score ranks SQuAD's paragraphs better than BM25 and DBpedia's entities worse, so it only
 * reorders close calls. Its weight is chosen per embedder with the fusion's (`RERANK_WEIGHT` in the retrieval
 * service).
 */

/** How many of the best fused candidates are reranked. */
export const RERANK_DEPTH = 20

const sentencesOf = (text: string) => text.split(/(?<=[.!?])\s+|\n+/)

/** The query's content words by stem, each weighted by its rarity (the highest of the words sharing a stem). */
export function queryStems(query: string, rarity: (word: string) => number): Map<string, number> {
  const stems = new Map<string, number>()
  for (const word of contentWords(query)) {
    const [stem = word] = indexedWords(word)
    stems.set(stem, Math.max(stems.get(stem) ?? 0, rarity(word)))
  }
  return stems
}

/** The summed rarity of the query stems found together in the chunk's best sentence. */
export function bestSentenceScore(content: string, stems: Map<string, number>): number {
  let best = 0
  for (const sentence of sentencesOf(content)) {
    const found = new Set(indexedWords(sentence).filter((stem) => stems.has(stem)))
    best = Math.max(
      best,
      [...found].reduce((sum, stem) => sum + (stems.get(stem) ?? 0), 0),
    )
  }
  return best
}

/**
 * Adds each of the best `RERANK_DEPTH` candidates' sentence bonus to its fused score: `weight` times a first
 * rank's fused score (`firstRankScore`) for the best sentence among them, proportionally less for others.
 */
export function rerankBySentences<T extends { content: string; score: number }>(
  candidates: T[],
  stems: Map<string, number>,
  firstRankScore: number,
  weight: number,
): T[] {
  if (stems.size === 0) return candidates
  const ranked = [...candidates].sort((a, b) => b.score - a.score)
  const top = ranked.slice(0, RERANK_DEPTH).map((candidate) => ({
    candidate,
    sentence: bestSentenceScore(candidate.content, stems),
  }))
  const best = Math.max(...top.map((entry) => entry.sentence))
  if (best <= 0) return candidates
  const reranked = top.map(({ candidate, sentence }) => ({
    ...candidate,
    score: candidate.score + (weight * firstRankScore * sentence) / best,
  }))
  return [...reranked, ...ranked.slice(RERANK_DEPTH)]
}
