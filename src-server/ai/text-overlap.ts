/** Plain lexical tools behind the builtin models: tokenising, sentence splitting, overlap scores. */

import { ENGLISH_STOPWORDS } from './stopwords'

/** Lower-case word stems without stop words; a trailing plural `s` is dropped so "refunds" meets "refund". */
export function contentTerms(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
  return words
    .filter((word) => !ENGLISH_STOPWORDS.has(word))
    .map((word) => (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word))
}

/** Token-overlap F1 between two texts over their content terms (0 when either has none). */
export function overlapF1(reference: string, candidate: string): number {
  return multisetF1(contentTerms(reference), contentTerms(candidate))
}

/** F1 of two token lists counted as multisets (0 when either is empty). */
export function multisetF1(expected: readonly string[], actual: readonly string[]): number {
  if (expected.length === 0 || actual.length === 0) return 0
  const remaining = new Map<string, number>()
  for (const term of expected) remaining.set(term, (remaining.get(term) ?? 0) + 1)
  let shared = 0
  for (const term of actual) {
    const left = remaining.get(term) ?? 0
    if (left > 0) {
      shared++
      remaining.set(term, left - 1)
    }
  }
  if (shared === 0) return 0
  const precision = shared / actual.length
  const recall = shared / expected.length
  return (2 * precision * recall) / (precision + recall)
}

/** Splits a text into space-separated fragments that concatenate back to exactly the text. */
export function spaceFragments(text: string): string[] {
  return text.split(/(?<= )/u).filter((fragment) => fragment.length > 0)
}
