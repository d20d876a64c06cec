import { ENGLISH_STOPWORDS } from '../ai'
import { porterStem } from './porter-stemmer'

/**
 * The chunk index's tokenizer (`porter unicode61 remove_diacritics 2`) in JavaScript, for code that compares
 * words as the index does: the sentence reranker, the BM25 query's words (one per stem) and the playground's
 * highlighting.
 */

/** Stems of words seen so far: chunk words repeat (Zipf), and each query reranks thousands of them. */
const stemCache = new Map<string, string>()
const STEMS_KEPT = 50_000

function stemOf(word: string): string {
  let stem = stemCache.get(word)
  if (stem === undefined) {
    if (stemCache.size >= STEMS_KEPT) stemCache.clear()
    stem = porterStem(word)
    stemCache.set(word, stem)
  }
  return stem
}

/** A text without its diacritics, as FTS5's `remove_diacritics` reads it; ASCII text has none to remove. */
function withoutDiacritics(text: string): string {
  return /[\u0080-\uffff]/.test(text) ? text.normalize('NFD').replace(/\p{M}/gu, '') : text
}

/** A text's words as the index reads them: lowercase, without diacritics, Porter-stemmed. */
export function indexedWords(text: string): string[] {
  return (withoutDiacritics(text.toLowerCase()).match(/[\p{L}\p{N}]+/gu) ?? []).map(stemOf)
}

/** A query's words that say what it is about: its lowercase words but English function words. */
export function contentWords(query: string): string[] {
  return (query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => !ENGLISH_STOPWORDS.has(word))
}

/**
 * Where a query's content words occur in a text, stemmed as the index stems them: the UTF-16 `[start, end)` range
 * of each word sharing a stem with a query word that is not an English function word, so "rule" marks "rules" and
 * "ruled". Every content word is marked, also a common one BM25's postings budget left out of the search.
 */
export function queryWordRanges(text: string, query: string): [number, number][] {
  const stems = new Set(contentWords(query).flatMap(indexedWords))
  if (stems.size === 0) return []
  const ranges: [number, number][] = []
  for (const match of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    const [stem] = indexedWords(match[0])
    if (stem !== undefined && stems.has(stem)) ranges.push([match.index, match.index + match[0].length])
  }
  return ranges
}
