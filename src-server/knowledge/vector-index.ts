import type { FastifyBaseLogger } from 'fastify'
import type { EngineDb } from '../platform/db'
import {
  type IndexGeneration,
  indexGeneration,
  liveChunkSeqs,
  type RankedChunk,
  vectorsAfter,
} from './chunk-index.repository'

/**
 * An in-memory copy of one embedding key's chunk vectors, searched instead of scanning vec0 on every query when
 * the builtin hashing embedder is in use (and for every embedder on PostgreSQL without pgvector).
 *
 * Why: sqlite-vec's exact KNN reads every stored float vector per query (200 MB at 100,000 chunks of 512 dims,
 * about 55 ms on this machine without SIMD), which alone breaks the 50 ms retrieval budget.
 *
 * How: vectors are kept as int8, dimension-major (one column per dimension), each row with its own scale
 * (max |v| / 127); on the QA set this ranks exactly as float32 does. A query is scored in two passes:
 *   1. its `PRUNED_DIMS` largest weights against every row (cost bounded whatever the query's length: the
 *      builtin embedder's queries are sparse, and their few heavy dimensions carry most of the dot product);
 *   2. every non-zero weight against the best `RESCORED` rows of pass 1, which gives their cosine.
 * The bench measures how much of exact vec0 KNN's top 50 it finds.
 *
 * Freshness: the database stays the truth. Chunk `seq`s only grow (AUTOINCREMENT), so rows above the highest one loaded
 * are new; a deletion counter kept by a trigger says when rows went away, and then the live set is re-read.
 * Vectors at or below the highest `seq` loaded (the embedding job's, for older chunks; on PostgreSQL, chunks whose
 * transaction committed after a higher `seq` was loaded) are announced on the event bus by their writing
 * transaction, on any instance (`heardVectorsWritten`), and loaded by the next catch-up. Loading happens in batches between which the
 * event loop runs.
 */
const PRUNED_DIMS = 128
const RESCORED = 256
const LOAD_BATCH = 2000
/** Query weights become integers in [-QUERY_SCALE, QUERY_SCALE] for pass 1's integer arithmetic. */
const QUERY_SCALE = 1023

export interface VectorScope {
  sourceIds: string[]
  limit: number
}

export class VectorIndex {
  private columns: Int8Array[]
  private scale = new Float32Array(0)
  private seqOf = new Float64Array(0)
  private sourceOf = new Int32Array(0)
  /** Pass 1's scratch, reused: searches run one at a time on the event loop. */
  private sums = new Int32Array(0)
  private rows = 0
  private deadRows = 0
  private loadedThroughSeq = 0
  /** The seq the catch-up under way loads up to: a write heard meanwhile at or below it may have been missed. */
  private reachingSeq = 0
  private seenDeletions = -1
  private readonly sourceOrdinals = new Map<string, number>()
  /** The seqs of the live rows, so a range heard of again loads only what is missing. */
  private readonly loadedSeqs = new Set<number>()
  /** Ranges of seqs at or below `loadedThroughSeq` with vectors written since they were passed. */
  private missed: { firstSeq: number; lastSeq: number }[] = []
  private refreshing: Promise<void> | null = null

  constructor(
    /** A reader of the database: committed rows only. */
    private readonly db: EngineDb,
    /** The vectors of this key only: each model's vectors are kept apart. */
    readonly embeddingKey: string,
    readonly dim: number,
  ) {
    this.columns = Array.from({ length: dim }, () => new Int8Array(0))
  }

  get size(): number {
    return this.rows - this.deadRows
  }

  /** Vectors of this key were committed for seqs in the range: those the catch-up by rising seq passed are loaded next. */
  heardWrite(firstSeq: number, lastSeq: number): void {
    const passed = Math.max(this.loadedThroughSeq, this.reachingSeq)
    if (firstSeq <= passed) this.missed.push({ firstSeq, lastSeq: Math.min(lastSeq, passed) })
  }

  /**
   * Catches up with the database, as of `generation` when the caller has just read it (`searchState`). Concurrent
   * callers share one refresh.
   */
  refresh(generation?: IndexGeneration): Promise<void> {
    this.refreshing ??= this.catchUp(generation).finally(() => {
      this.refreshing = null
    })
    return this.refreshing
  }

  /** The nearest rows of the scope by cosine, best first; `rank` is the cosine distance (1 - cosine). */
  async search(
    query: Float32Array,
    scope: VectorScope,
    generation?: IndexGeneration,
  ): Promise<RankedChunk[]> {
    await this.refresh(generation)
    const allowedSources = new Uint8Array(this.sourceOrdinals.size)
    for (const id of scope.sourceIds) {
      const ordinal = this.sourceOrdinals.get(id)
      if (ordinal !== undefined) allowedSources[ordinal] = 1
    }
    if (!allowedSources.includes(1) || scope.limit < 1) return []

    const weights = nonZeroWeights(query)
    const accepts = (row: number) =>
      this.seqOf[row] !== 0 && allowedSources[this.sourceOf[row] as number] === 1
    const candidates = this.bestByPrunedQuery(weights, Math.max(RESCORED, scope.limit), accepts)
    const rescored = candidates.map((row) => ({ row, cosine: this.dot(weights, row) }))
    rescored.sort(
      (a, b) => b.cosine - a.cosine || (this.seqOf[a.row] as number) - (this.seqOf[b.row] as number),
    )
    return rescored
      .slice(0, scope.limit)
      .map(({ row, cosine }) => ({ seq: this.seqOf[row] as number, rank: 1 - cosine }))
  }

  private bestByPrunedQuery(
    weights: { dims: Int32Array; values: Float32Array },
    count: number,
    accepts: (row: number) => boolean,
  ): number[] {
    const pruned = Math.min(PRUNED_DIMS, weights.dims.length)
    const maxWeight = Math.abs(weights.values[0] ?? 0)
    if (maxWeight === 0) return []
    const integerWeight = (i: number) => Math.round(((weights.values[i] as number) / maxWeight) * QUERY_SCALE)
    const column = (i: number) => this.columns[weights.dims[i] as number] as Int8Array
    const rows = this.rows
    if (this.sums.length < rows) this.sums = new Int32Array(this.seqOf.length)
    const sums = this.sums
    sums.fill(0, 0, rows)
    let i = 0
    // Four columns per pass over the rows: a quarter of the loads and stores of `sums`.
    for (; i + 4 <= pruned; i += 4) {
      const [a, b, c, d] = [column(i), column(i + 1), column(i + 2), column(i + 3)]
      const [wa, wb, wc, wd] = [
        integerWeight(i),
        integerWeight(i + 1),
        integerWeight(i + 2),
        integerWeight(i + 3),
      ]
      for (let row = 0; row < rows; row++)
        sums[row] =
          (sums[row] as number) +
          wa * (a[row] as number) +
          wb * (b[row] as number) +
          wc * (c[row] as number) +
          wd * (d[row] as number)
    }
    for (; i < pruned; i++) {
      const a = column(i)
      const wa = integerWeight(i)
      for (let row = 0; row < rows; row++) sums[row] = (sums[row] as number) + wa * (a[row] as number)
    }
    const best = new TopRows(count)
    for (let row = 0; row < rows; row++) {
      const score = (sums[row] as number) * (this.scale[row] as number)
      if (score > best.threshold && accepts(row)) best.offer(row, score)
    }
    return best.rows()
  }

  private dot(weights: { dims: Int32Array; values: Float32Array }, row: number): number {
    let sum = 0
    for (let i = 0; i < weights.dims.length; i++)
      sum +=
        (weights.values[i] as number) *
        ((this.columns[weights.dims[i] as number] as Int8Array)[row] as number)
    return sum * (this.scale[row] as number)
  }

  private async catchUp(generation?: IndexGeneration): Promise<void> {
    for (const range of this.missed.splice(0)) await this.loadMissed(range)
    const now = generation ?? (await indexGeneration(this.db))
    if (now.deletions !== this.seenDeletions) {
      await this.dropDeletedRows()
      this.seenDeletions = now.deletions
    }
    while (now.seq > this.loadedThroughSeq) {
      this.reachingSeq = Math.max(this.reachingSeq, now.seq)
      const batch = await vectorsAfter(this.db, {
        embeddingKey: this.embeddingKey,
        afterSeq: this.loadedThroughSeq,
        throughSeq: now.seq,
        limit: LOAD_BATCH,
      })
      for (const stored of batch) this.append(stored.seq, stored.source_id, stored.embedding)
      this.loadedThroughSeq = batch.length < LOAD_BATCH ? now.seq : (batch.at(-1)?.seq ?? now.seq)
      if (batch.length === LOAD_BATCH) await new Promise((resolve) => setImmediate(resolve))
    }
  }

  private async loadMissed(range: { firstSeq: number; lastSeq: number }): Promise<void> {
    let afterSeq = range.firstSeq - 1
    for (;;) {
      const batch = await vectorsAfter(this.db, {
        embeddingKey: this.embeddingKey,
        afterSeq,
        throughSeq: range.lastSeq,
        limit: LOAD_BATCH,
      })
      for (const stored of batch)
        if (!this.loadedSeqs.has(stored.seq)) this.append(stored.seq, stored.source_id, stored.embedding)
      if (batch.length < LOAD_BATCH) return
      afterSeq = batch.at(-1)?.seq ?? range.lastSeq
      await new Promise((resolve) => setImmediate(resolve))
    }
  }

  private append(seq: number, sourceId: string, vector: Float32Array): void {
    if (this.rows === this.seqOf.length) this.grow(Math.max(1024, this.rows * 2))
    const row = this.rows++
    let maxAbs = 0
    for (const value of vector) maxAbs = Math.max(maxAbs, Math.abs(value))
    const toInt8 = maxAbs > 0 ? 127 / maxAbs : 0
    for (let d = 0; d < this.dim; d++)
      (this.columns[d] as Int8Array)[row] = Math.round((vector[d] as number) * toInt8)
    this.scale[row] = maxAbs / 127
    this.seqOf[row] = seq
    this.loadedSeqs.add(seq)
    this.sourceOf[row] = ordinalOf(this.sourceOrdinals, sourceId)
  }

  /** Marks rows whose chunk is gone (seq 0), and compacts once a quarter of the rows are dead. */
  private async dropDeletedRows(): Promise<void> {
    if (this.rows === 0) return
    const live = new Set(await liveChunkSeqs(this.db, this.loadedThroughSeq))
    for (let row = 0; row < this.rows; row++) {
      const seq = this.seqOf[row] as number
      if (seq !== 0 && !live.has(seq)) {
        this.seqOf[row] = 0
        this.loadedSeqs.delete(seq)
        this.deadRows++
      }
    }
    if (this.deadRows > this.rows / 4) this.compact()
  }

  private compact(): void {
    let kept = 0
    for (let row = 0; row < this.rows; row++) {
      if (this.seqOf[row] === 0) continue
      for (const column of this.columns) column[kept] = column[row] as number
      this.scale[kept] = this.scale[row] as number
      this.seqOf[kept] = this.seqOf[row] as number
      this.sourceOf[kept] = this.sourceOf[row] as number
      kept++
    }
    this.rows = kept
    this.deadRows = 0
    this.grow(Math.max(1024, kept * 2))
  }

  private grow(capacity: number): void {
    const resized = <T extends Int8Array | Int32Array | Float32Array | Float64Array>(
      array: T,
      make: (n: number) => T,
    ) => {
      const next = make(capacity)
      next.set(array.subarray(0, Math.min(this.rows, capacity)) as never)
      return next
    }
    this.columns = this.columns.map((column) => resized(column, (n) => new Int8Array(n)))
    this.scale = resized(this.scale, (n) => new Float32Array(n))
    this.seqOf = resized(this.seqOf, (n) => new Float64Array(n))
    this.sourceOf = resized(this.sourceOf, (n) => new Int32Array(n))
  }
}

function ordinalOf(ordinals: Map<string, number>, value: string): number {
  let ordinal = ordinals.get(value)
  if (ordinal === undefined) {
    ordinal = ordinals.size
    ordinals.set(value, ordinal)
  }
  return ordinal
}

/** The query's non-zero dimensions, heaviest first. */
function nonZeroWeights(query: Float32Array): { dims: Int32Array; values: Float32Array } {
  const dims: number[] = []
  for (let d = 0; d < query.length; d++) if (query[d] !== 0) dims.push(d)
  dims.sort((a, b) => Math.abs(query[b] as number) - Math.abs(query[a] as number))
  return { dims: Int32Array.from(dims), values: Float32Array.from(dims, (d) => query[d] as number) }
}

/** The `capacity` best-scoring rows seen, kept in a min-heap so a worse row costs one comparison. */
class TopRows {
  private readonly heapRows: number[] = []
  private readonly heapScores: number[] = []
  threshold = Number.NEGATIVE_INFINITY

  constructor(private readonly capacity: number) {}

  offer(row: number, score: number): void {
    const rows = this.heapRows
    const scores = this.heapScores
    if (rows.length < this.capacity) {
      rows.push(row)
      scores.push(score)
      let i = rows.length - 1
      while (i > 0) {
        const parent = (i - 1) >> 1
        if ((scores[parent] as number) <= (scores[i] as number)) break
        this.swap(i, parent)
        i = parent
      }
    } else {
      rows[0] = row
      scores[0] = score
      let i = 0
      for (;;) {
        const left = 2 * i + 1
        const right = left + 1
        let smallest = i
        if (left < rows.length && (scores[left] as number) < (scores[smallest] as number)) smallest = left
        if (right < rows.length && (scores[right] as number) < (scores[smallest] as number)) smallest = right
        if (smallest === i) break
        this.swap(i, smallest)
        i = smallest
      }
    }
    if (rows.length === this.capacity) this.threshold = scores[0] as number
  }

  rows(): number[] {
    return [...this.heapRows]
  }

  private swap(i: number, j: number): void {
    const rows = this.heapRows
    const scores = this.heapScores
    ;[rows[i], rows[j]] = [rows[j] as number, rows[i] as number]
    ;[scores[i], scores[j]] = [scores[j] as number, scores[i] as number]
  }
}

const indexes = new WeakMap<EngineDb, Map<string, VectorIndex>>()

/** The one index of an embedding key for a database's reader, shared by every retrieval service on it. */
export function vectorIndexFor(reader: EngineDb, embeddingKey: string, dim: number): VectorIndex {
  let byKey = indexes.get(reader)
  if (!byKey) {
    byKey = new Map()
    indexes.set(reader, byKey)
  }
  let index = byKey.get(embeddingKey)
  if (!index) {
    index = new VectorIndex(reader, embeddingKey, dim)
    byKey.set(embeddingKey, index)
  }
  return index
}

/**
 * Forgets a key's index (without a key: every one), to be rebuilt on its next search: the embedding job, on any
 * instance, added vectors to chunks older than those it had loaded, which its catch-up by rising `seq` cannot see.
 */
export function forgetVectorIndex(reader: EngineDb, embeddingKey?: string): void {
  if (embeddingKey === undefined) indexes.delete(reader)
  else indexes.get(reader)?.delete(embeddingKey)
}

/** Vectors of a key were committed (on any instance): its index, if loaded, takes those its catch-up passed. */
export function heardVectorsWritten(
  reader: EngineDb,
  written: { key: string; firstSeq: number; lastSeq: number },
): void {
  indexes.get(reader)?.get(written.key)?.heardWrite(written.firstSeq, written.lastSeq)
}

/** Loads a key's index in the background after a start, so the first question does not wait for it. */
export function warmVectorIndex(
  reader: EngineDb,
  embeddingKey: string,
  dim: number,
  log: FastifyBaseLogger,
): void {
  vectorIndexFor(reader, embeddingKey, dim)
    .refresh()
    .catch((error: Error) => log.warn({ err: error.message, embeddingKey }, 'vector index warm-up failed'))
}
