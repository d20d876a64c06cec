import { porterStem } from './porter-stemmer'

/**
 * The chunk index's tokenizer (`porter unicode61 remove_diacritics 2`) in JavaScript, for code that compares
 * words as the index does: the sentence reranker, and the BM25 query's words (one per stem).
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

/** A text's words as the index reads them: lowercase, without diacritics, Porter-stemmed. */
export function indexedWords(text: string): string[] {
  const lower = text.toLowerCase()
  // Diacritics are removed as the index removes them; ASCII text has none to remove.
  const folded = /[\u0080-\uffff]/.test(lower) ? lower.normalize('NFD').replace(/\p{M}/gu, '') : lower
  return (folded.match(/[\p{L}\p{N}]+/gu) ?? []).map(stemOf)
}
