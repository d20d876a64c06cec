/**
 * A disk cache of passage embeddings for the benchmarks, keyed by model and a hash of each text, so a rerun
 * does not re-embed thousands of passages (USE-lite takes about 90 ms per passage on 2 cores). One append-only
 * file per model in `node_modules/.cache/switchboard/`: records of a 32-byte SHA-256 of the text followed by the
 * vector as float32.
 */
import { createHash } from 'node:crypto'
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

const CACHE_DIR = path.join('node_modules', '.cache', 'switchboard')
const HASH_BYTES = 32
/** Texts embedded between two appends, so an interrupted run keeps most of its work. */
const FLUSH_EVERY = 256

const hashOf = (text: string) => createHash('sha256').update(text).digest()

export interface CachedEmbeddings {
  vectors: Float32Array[]
  /** How many came from the cache (the rest were embedded now and appended). */
  cached: number
  file: string
}

export async function cachedEmbeddings(
  model: string,
  dim: number,
  texts: string[],
  embed: (texts: string[]) => Promise<Float32Array[]>,
  onProgress?: (done: number, total: number) => void,
): Promise<CachedEmbeddings> {
  mkdirSync(CACHE_DIR, { recursive: true })
  const file = path.join(CACHE_DIR, `embeddings-${model}-${dim}.bin`)
  const record = HASH_BYTES + dim * 4
  const known = new Map<string, Float32Array>()
  if (existsSync(file)) {
    const bytes = readFileSync(file)
    for (let at = 0; at + record <= bytes.length; at += record) {
      const vector = new Float32Array(dim)
      new Uint8Array(vector.buffer).set(bytes.subarray(at + HASH_BYTES, at + record))
      known.set(bytes.subarray(at, at + HASH_BYTES).toString('hex'), vector)
    }
  }
  const keys = texts.map((text) => hashOf(text).toString('hex'))
  const missing = [...new Set(keys.filter((key) => !known.has(key)))]
  const textOf = new Map(keys.map((key, i) => [key, texts[i] as string]))
  const cached = keys.filter((key) => known.has(key)).length
  for (let start = 0; start < missing.length; start += FLUSH_EVERY) {
    const batch = missing.slice(start, start + FLUSH_EVERY)
    const vectors = await embed(batch.map((key) => textOf.get(key) as string))
    const out = Buffer.alloc(batch.length * record)
    for (const [i, key] of batch.entries()) {
      const vector = vectors[i] as Float32Array
      known.set(key, vector)
      Buffer.from(key, 'hex').copy(out, i * record)
      Buffer.from(vector.buffer, vector.byteOffset, dim * 4).copy(out, i * record + HASH_BYTES)
    }
    appendFileSync(file, out)
    onProgress?.(start + batch.length, missing.length)
  }
  return { vectors: keys.map((key) => known.get(key) as Float32Array), cached, file }
}
