/**
 * The builtin embedder: feature hashing (the "hashing trick") of
 *   - word unigrams (weight 1) and word bigrams (weight 0.5), words being runs of letters/digits, lowercased;
 *   - character trigrams of each word with boundary marks (`#no`, `nor`, ..., `ns#`; weight 0.5 each), which
 *     tolerate inflection and cover scripts written without spaces (CJK), where a "word" is a whole run.
 * English function words weigh 0.1 and get no trigrams: without corpus statistics (IDF) they would otherwise
 * dominate every vector (recall@5 on the squad2 set rose from 0.80 to 0.95 with this alone).
 * Each feature is hashed (FNV-1a, 32 bit) to one of `dim` buckets with a sign from the hash's top bit, so
 * collisions cancel out on average; weights are damped with log(1 + w); the vector is L2-normalised.
 * Offline, deterministic, and about a microsecond per word.
 */
import { ENGLISH_STOPWORDS } from '../stopwords'

export const BUILTIN_EMBEDDING_MODEL = 'hashing-v2'
export const BUILTIN_EMBEDDING_DIM = 512

const WORD = /[\p{L}\p{N}]+/gu
const BIGRAM_WEIGHT = 0.5
const TRIGRAM_WEIGHT = 0.5
const STOPWORD_WEIGHT = 0.1

const FNV_OFFSET = 0x811c9dc5
const FNV_PRIME = 0x01000193
const HASH_MARK = 35 // '#'
const SPACE = 32

/** FNV-1a continued over `text` from `hash`: hashing "w:" then the word equals hashing "w:word". */
function fnv1a(hash: number, text: string): number {
  let h = hash
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME)
  return h
}

const WORD_SEED = fnv1a(FNV_OFFSET, 'w:')
const BIGRAM_SEED = fnv1a(FNV_OFFSET, 'b:')
const TRIGRAM_SEED = fnv1a(FNV_OFFSET, 'c:')

export function builtinEmbed(text: string, dim = BUILTIN_EMBEDDING_DIM): Float32Array {
  // Weights per signed bucket, kept apart so collisions of opposite sign cancel only after damping.
  const positive = new Float32Array(dim)
  const negative = new Float32Array(dim)
  const add = (hash: number, weight: number) => {
    const unsigned = hash >>> 0
    // Bucket from the value, sign from the top bit: independent enough for hashing.
    const bucket = unsigned % dim
    if (unsigned & 0x80000000) negative[bucket] = (negative[bucket] as number) + weight
    else positive[bucket] = (positive[bucket] as number) + weight
  }
  let bigramPrefix: number | null = null
  let previousIsStop = false
  for (const match of text.toLowerCase().matchAll(WORD)) {
    const word = match[0]
    const isStop = ENGLISH_STOPWORDS.has(word)
    add(fnv1a(WORD_SEED, word), isStop ? STOPWORD_WEIGHT : 1)
    if (bigramPrefix !== null && !(isStop && previousIsStop))
      add(fnv1a(bigramPrefix, word), BIGRAM_WEIGHT * (isStop || previousIsStop ? STOPWORD_WEIGHT : 1))
    bigramPrefix = Math.imul(fnv1a(BIGRAM_SEED, word) ^ SPACE, FNV_PRIME)
    previousIsStop = isStop
    if (isStop) continue
    // Trigrams of `#word#` without building the marked string.
    const last = word.length + 2
    const charAt = (i: number) => (i === 0 || i === last - 1 ? HASH_MARK : word.charCodeAt(i - 1))
    for (let i = 0; i + 3 <= last; i++) {
      let hash = Math.imul(TRIGRAM_SEED ^ charAt(i), FNV_PRIME)
      hash = Math.imul(hash ^ charAt(i + 1), FNV_PRIME)
      add(Math.imul(hash ^ charAt(i + 2), FNV_PRIME), TRIGRAM_WEIGHT)
    }
  }
  const vector = new Float32Array(dim)
  let norm = 0
  for (let i = 0; i < dim; i++) {
    const value = Math.log1p(positive[i] as number) - Math.log1p(negative[i] as number)
    vector[i] = value
    norm += value * value
  }
  if (norm > 0) {
    const scale = 1 / Math.sqrt(norm)
    for (let i = 0; i < dim; i++) vector[i] = (vector[i] as number) * scale
  }
  return vector
}

export function builtinEmbedMany(texts: string[], dim = BUILTIN_EMBEDDING_DIM): Float32Array[] {
  return texts.map((text) => builtinEmbed(text, dim))
}
