import { createHash } from 'node:crypto'
import type Database from 'better-sqlite3'
import { ENGLISH_STOPWORDS } from '../ai'
import type { RetrievedChunk } from '../conversation'
import type { DocumentChunk } from './chunking'
import { indexedWords } from './indexed-words'

/**
 * How the FTS5 index reads words, alike in chunks and queries: unicode61 words without diacritics, reduced by
 * the Porter stemmer, so "Normans" finds "Norman" and "ruled" finds "rule". Per the held-out halves of both
 * retrieval sets (knowledge README), stemming lifts plain BM25 more than any other single change measured.
 */
const FTS_TOKENIZER = 'porter unicode61 remove_diacritics 2'
/**
 * The FTS5 table: a chunk's document title (`documentTitle`) and its content, as two columns so BM25 can weigh a
 * match in the title more (`TITLE_WEIGHT`). Contentless, deletable by rowid: the text itself lives in
 * `knowledge_chunk`. Migration 0005 creates it with this same text; an index of another definition (an older
 * tokenizer or layout) is stale and rebuilt.
 */
const FTS_DEFINITION = `fts5(title, content, content='', contentless_delete=1, tokenize='${FTS_TOKENIZER}')`
/**
 * How much a query word found in the chunk's document title counts against one in its content, chosen on the
 * tuning halves of the retrieval sets (`npm run bench -- knowledge-quality`, weights 1-10 tried).
 */
export const TITLE_WEIGHT = 5

/**
 * A document's title as the index weighs it: its file name without the extension (word separators such as `_`
 * and `-` are split by the tokenizer).
 */
export function documentTitle(fileName: string): string {
  return fileName.replace(/\.[A-Za-z0-9]{1,5}$/, '')
}

/**
 * The search indexes beside `knowledge_chunk`: migration 0005_search_indexes makes the FTS5 table of chunk titles
 * and content (written with the chunks, deleted by a trigger) and a deletion counter bumped by a trigger, which
 * tells the in-memory vector index (`vector-index.ts`) to drop rows; new rows it finds by their rising `seq`.
 * sqlite-vec `vec0` tables, one per embedding key, appear on first write (`ensureVectorTable`): their names depend
 * on the model, so no migration can make them. At start this brings an older data directory up to date: an FTS
 * index of another definition is rebuilt, vector tables of the per-dimension layout are dropped.
 */
export function ensureChunkIndex(client: Database.Database): void {
  const fts = client
    .prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'knowledge_chunk_fts'")
    .pluck()
    .get() as string | undefined
  if (!fts?.endsWith(FTS_DEFINITION)) rebuildChunkFts(client)
  dropPerDimensionVectorTables(client)
}

interface ChunkText {
  seq: number
  file_name: string
  content: string
}

/**
 * Creates the FTS5 table, replacing one of an earlier definition (unstemmed, without titles, external content
 * with its insert trigger and vocabulary table), and indexes every existing chunk: a data directory indexed by an
 * older release is searchable with the current rules from its first start.
 */
function rebuildChunkFts(client: Database.Database): void {
  client.transaction(() => {
    client.exec(`
      DROP TRIGGER IF EXISTS knowledge_chunk_fts_insert;
      DROP TRIGGER IF EXISTS knowledge_chunk_fts_delete;
      DROP TABLE IF EXISTS knowledge_chunk_fts_vocab;
      DROP TABLE IF EXISTS knowledge_chunk_fts;
      CREATE VIRTUAL TABLE knowledge_chunk_fts USING ${FTS_DEFINITION};
      CREATE TRIGGER knowledge_chunk_fts_delete AFTER DELETE ON knowledge_chunk BEGIN
        DELETE FROM knowledge_chunk_fts WHERE rowid = old.seq;
      END;
    `)
    const index = client.prepare('INSERT INTO knowledge_chunk_fts (rowid, title, content) VALUES (?, ?, ?)')
    const page = client.prepare(
      `SELECT c.seq, d.file_name, c.content FROM knowledge_chunk c JOIN knowledge_document d ON d.id = c.document_id
       WHERE c.seq > ? ORDER BY c.seq LIMIT 2000`,
    )
    // In pages: better-sqlite3 cannot write while a statement is still being read.
    let afterSeq = 0
    for (
      let rows = page.all(afterSeq) as ChunkText[];
      rows.length > 0;
      rows = page.all(afterSeq) as ChunkText[]
    )
      for (const row of rows) {
        index.run(row.seq, documentTitle(row.file_name), row.content)
        afterSeq = row.seq
      }
  })()
}

/**
 * Vectors were once kept in one table per dimension (`knowledge_vec_<dim>`), which mixed models of the same
 * dimension. Those tables are no longer read: they are dropped, and the embedding job re-embeds their sources.
 */
function dropPerDimensionVectorTables(client: Database.Database): void {
  const names = client
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'knowledge_vec_[0-9]*'")
    .pluck()
    .all() as string[]
  for (const name of names.filter((candidate) => /^knowledge_vec_\d+$/.test(candidate)))
    client.exec(`DROP TRIGGER IF EXISTS ${name}_delete; DROP TABLE ${name};`)
}

/**
 * The vec0 table of one embedding key (`provider:model:dim`): each model's vectors live apart, so a new model's
 * index is built beside the old one while the old one still answers. Named by dimension and a hash of the key.
 */
export function vectorTableOf(embeddingKey: string): string {
  const dim = Number(embeddingKey.slice(embeddingKey.lastIndexOf(':') + 1))
  if (!Number.isInteger(dim) || dim < 1 || dim > 8192)
    throw new Error(`Unsupported embedding dimension in ${embeddingKey}.`)
  return `knowledge_vec_${dim}_${createHash('sha256').update(embeddingKey).digest('hex').slice(0, 12)}`
}

/**
 * The vec0 table of one key, partitioned by source so a scoped search scans only its sources. Every stored
 * and query vector is L2-normalised, so vec0's default L2 distance ranks exactly as cosine does
 * (|a - b|^2 = 2 - 2 cos) and runs about 30% faster than its cosine metric in this build.
 */
export function ensureVectorTable(client: Database.Database, embeddingKey: string): string {
  const table = vectorTableOf(embeddingKey)
  const dim = Number(embeddingKey.slice(embeddingKey.lastIndexOf(':') + 1))
  client.exec(`
    CREATE VIRTUAL TABLE IF NOT EXISTS ${table} USING vec0(
      chunk_seq integer primary key, source_id text partition key, embedding float[${dim}]);
    CREATE TRIGGER IF NOT EXISTS ${table}_delete AFTER DELETE ON knowledge_chunk BEGIN
      DELETE FROM ${table} WHERE chunk_seq = old.seq;
    END;
  `)
  return table
}

export function vectorTableExists(client: Database.Database, embeddingKey: string): boolean {
  return Boolean(
    client
      .prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`)
      .get(vectorTableOf(embeddingKey)),
  )
}

export interface ChunkToWrite extends DocumentChunk {
  id: string
}

/**
 * Replaces a document's chunks with new ones, searchable by BM25 at once; `vectors` (one per chunk, of
 * `embeddingKey`) are written with them when the embedder is cheap enough to run inline, else the embedding job
 * fills them in later. Call inside one transaction: readers see either the old set or the new one.
 */
export function replaceDocumentChunks(
  client: Database.Database,
  input: {
    sourceId: string
    documentId: string
    embeddingKey: string
    chunks: ChunkToWrite[]
    vectors?: Float32Array[]
  },
): void {
  client.prepare('DELETE FROM knowledge_chunk WHERE document_id = ?').run(input.documentId)
  const insertChunk = client.prepare(
    `INSERT INTO knowledge_chunk (id, source_id, document_id, ordinal, page_number, char_start, char_end, content,
       embedding_key, created_at)
     VALUES (@id, @sourceId, @documentId, @ordinal, @pageNumber, @charStart, @charEnd, @content, @embeddingKey, @now)
     RETURNING seq`,
  )
  const index = client.prepare('INSERT INTO knowledge_chunk_fts (rowid, title, content) VALUES (?, ?, ?)')
  const fileName = client
    .prepare('SELECT file_name FROM knowledge_document WHERE id = ?')
    .pluck()
    .get(input.documentId) as string
  const title = documentTitle(fileName)
  const now = new Date().toISOString()
  const seqs = input.chunks.map((chunk) => {
    const { seq } = insertChunk.get({
      id: chunk.id,
      sourceId: input.sourceId,
      documentId: input.documentId,
      ordinal: chunk.ordinal,
      pageNumber: chunk.page_number,
      charStart: chunk.char_start,
      charEnd: chunk.char_end,
      content: chunk.content,
      embeddingKey: input.embeddingKey,
      now,
    }) as { seq: number }
    index.run(seq, title, chunk.content)
    return seq
  })
  if (input.vectors)
    writeVectors(client, {
      embeddingKey: input.embeddingKey,
      sourceId: input.sourceId,
      rows: seqs.map((seq, i) => ({ seq, vector: input.vectors?.[i] as Float32Array })),
    })
}

/** Stores vectors of `embeddingKey` for chunks that still exist and have none yet (a redo writes nothing twice). */
export function writeVectors(
  client: Database.Database,
  input: { embeddingKey: string; sourceId: string; rows: { seq: number; vector: Float32Array }[] },
): number {
  const table = ensureVectorTable(client, input.embeddingKey)
  const chunkExists = client.prepare('SELECT 1 FROM knowledge_chunk WHERE seq = ?').pluck()
  const vectorExists = client.prepare(`SELECT 1 FROM ${table} WHERE chunk_seq = ?`).pluck()
  const insert = client.prepare(`INSERT INTO ${table} (chunk_seq, source_id, embedding) VALUES (?, ?, ?)`)
  let written = 0
  for (const { seq, vector } of input.rows) {
    // vec0 keys must be bound as SQLite integers, which better-sqlite3 does for BigInt.
    if (!chunkExists.get(seq) || vectorExists.get(BigInt(seq))) continue
    insert.run(BigInt(seq), input.sourceId, vector)
    written++
  }
  return written
}

/**
 * A source's next chunks (by seq, after `afterSeq`) that have no vector of `embeddingKey` yet (every chunk when
 * the key is not known yet: a remote embedder's dimension is learnt from its first answer).
 */
export function chunksLackingVectors(
  client: Database.Database,
  input: { embeddingKey: string | null; sourceId: string; afterSeq: number; limit: number },
): { seq: number; content: string }[] {
  const lacking =
    input.embeddingKey && vectorTableExists(client, input.embeddingKey)
      ? `AND NOT EXISTS (SELECT 1 FROM ${vectorTableOf(input.embeddingKey)} v WHERE v.chunk_seq = c.seq)`
      : ''
  return client
    .prepare(
      `SELECT c.seq, c.content FROM knowledge_chunk c
       WHERE c.source_id = ? AND c.seq > ? ${lacking} ORDER BY c.seq LIMIT ?`,
    )
    .all(input.sourceId, input.afterSeq, input.limit) as { seq: number; content: string }[]
}

/** How many of a source's chunks have a vector of `embeddingKey`, and how many chunks it has. */
export function embeddingProgress(
  client: Database.Database,
  embeddingKey: string | null,
  sourceId: string,
): { embedded: number; total: number } {
  const total = client
    .prepare('SELECT count(*) FROM knowledge_chunk WHERE source_id = ?')
    .pluck()
    .get(sourceId) as number
  if (total === 0 || !embeddingKey || !vectorTableExists(client, embeddingKey)) return { embedded: 0, total }
  const embedded = client
    .prepare(`SELECT count(*) FROM ${vectorTableOf(embeddingKey)} WHERE source_id = ?`)
    .pluck()
    .get(sourceId) as number
  return { embedded, total }
}

/** Drops a source's vectors of a key it no longer uses (after it switched to another model's complete index). */
export function dropSourceVectors(client: Database.Database, embeddingKey: string, sourceId: string): void {
  if (!vectorTableExists(client, embeddingKey)) return
  client.prepare(`DELETE FROM ${vectorTableOf(embeddingKey)} WHERE source_id = ?`).run(sourceId)
}

export interface RankedChunk {
  seq: number
  rank: number
}

/** BM25's cost grows with the postings FTS5 walks; past this many, the commonest query words are left out. */
const BM25_POSTINGS_BUDGET = 2_500
const MAX_QUERY_WORDS = 32

/**
 * The words of a query BM25 searches for: one word per distinct stem, rarest first, for as long as their postings
 * stay within `BM25_POSTINGS_BUDGET` (the rarest always); English function words come after every other word.
 * Common words weigh least in BM25 (low IDF) and cost most: on the squad2 questions with their paragraphs hidden
 * among 100,000 chunks this kept recall@5 and cut BM25's time from about 110 ms to 6 (knowledge README). A small
 * corpus keeps every word.
 */
export function bm25Terms(statistics: TermStatistics, text: string): string[] {
  const words = oneWordPerStem(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_QUERY_WORDS)
  const chosen: string[] = []
  let postings = 0
  const takeRarestFirst = (terms: string[]): boolean => {
    const ranked = terms
      .map((term) => ({ term, count: statistics.postings(term) }))
      .sort((a, b) => a.count - b.count)
    for (const { term, count } of ranked) {
      if (chosen.length > 0 && postings + count > BM25_POSTINGS_BUDGET) return false
      chosen.push(term)
      postings += count
    }
    return true
  }
  if (takeRarestFirst(words.filter((word) => !ENGLISH_STOPWORDS.has(word))))
    takeRarestFirst(words.filter((word) => ENGLISH_STOPWORDS.has(word)))
  return chosen
}

/**
 * The first word of each stem: FTS5 searches "rule", "ruled" and "rules" as one term, so asking for each would
 * spend the postings budget (and FTS5's work) on that term again.
 */
function oneWordPerStem(words: string[]): string[] {
  const byStem = new Map<string, string>()
  for (const word of words) {
    const [stem = word] = indexedWords(word)
    if (!byStem.has(stem)) byStem.set(stem, word)
  }
  return [...byStem.values()]
}

interface PostingCounts {
  generation: string
  counts: Map<string, number>
  chunks?: number
}
const postingCounts = new WeakMap<Database.Database, PostingCounts>()

/** The counts of the index as it is now: kept until chunks are added or deleted. */
function currentCounts(client: Database.Database): PostingCounts {
  const generation = `${maxChunkSeq(client)}:${chunkDeletionCount(client)}`
  let cache = postingCounts.get(client)
  if (cache?.generation !== generation || cache.counts.size > 100_000) {
    cache = { generation, counts: new Map() }
    postingCounts.set(client, cache)
  }
  return cache
}

/** What BM25 and the sentence reranker know of the index's words, as of one moment. */
export interface TermStatistics {
  /**
   * How many chunks hold a word (in their title or content), counted by FTS5 itself so the word is stemmed and
   * folded exactly as the index stores it.
   */
  postings(word: string): number
  /** How rare a word is among all chunks: its BM25 inverse document frequency, log(1 + (N - n + 0.5) / (n + 0.5)). */
  rarity(word: string): number
}

/**
 * The index's term statistics for one query: the index's generation is read once here, not at each use (BM25's
 * terms, then the reranker's rarities). FTS5 walks a term's posting list to count it, so counts are cached across
 * queries until chunks change.
 */
export function termStatistics(client: Database.Database): TermStatistics {
  const cache = currentCounts(client)
  const lookup = client
    .prepare('SELECT count(*) FROM knowledge_chunk_fts WHERE knowledge_chunk_fts MATCH ?')
    .pluck()
  const postings = (word: string) => {
    let count = cache.counts.get(word)
    if (count === undefined) {
      count = lookup.get(toFtsQuery([word])) as number
      cache.counts.set(word, count)
    }
    return count
  }
  return {
    postings,
    rarity(word) {
      cache.chunks ??= client.prepare('SELECT count(*) FROM knowledge_chunk').pluck().get() as number
      const count = postings(word)
      return Math.log(1 + (cache.chunks - count + 0.5) / (count + 0.5))
    },
  }
}

/** Terms as an FTS5 query that cannot be a syntax error: each quoted, joined with OR. */
export function toFtsQuery(terms: string[]): string | null {
  return terms.length > 0 ? terms.map((term) => `"${term}"`).join(' OR ') : null
}

/** BM25 over the sources' chunks; `statistics` are the query's own when the caller uses them too (the reranker). */
export function searchBm25(
  client: Database.Database,
  query: string,
  sourceIds: string[],
  limit: number,
  statistics: TermStatistics = termStatistics(client),
): RankedChunk[] {
  const match = toFtsQuery(bm25Terms(statistics, query))
  if (!match || sourceIds.length === 0) return []
  return client
    .prepare(
      `SELECT c.seq AS seq, bm25(knowledge_chunk_fts, ${TITLE_WEIGHT}, 1) AS rank
       FROM knowledge_chunk_fts JOIN knowledge_chunk c ON c.seq = knowledge_chunk_fts.rowid
       WHERE knowledge_chunk_fts MATCH @match AND c.source_id IN (SELECT value FROM json_each(@sources))
       ORDER BY rank LIMIT @limit`,
    )
    .all({ match, sources: JSON.stringify(sourceIds), limit }) as RankedChunk[]
}

/** Exact nearest chunks by cosine (KNN in vec0, one partition per source) among the vectors of `embeddingKey`. */
export function searchVectors(
  client: Database.Database,
  input: { vector: Float32Array; embeddingKey: string; sourceIds: string[]; limit: number },
): RankedChunk[] {
  if (input.sourceIds.length === 0 || !vectorTableExists(client, input.embeddingKey)) return []
  const knn = client.prepare(
    `SELECT v.chunk_seq AS seq, v.distance AS rank
     FROM ${vectorTableOf(input.embeddingKey)} v
     WHERE v.embedding MATCH ? AND v.k = ? AND v.source_id = ?`,
  )
  const ranked = input.sourceIds.flatMap(
    (sourceId) => knn.all(input.vector, input.limit, sourceId) as RankedChunk[],
  )
  return ranked.sort((a, b) => a.rank - b.rank).slice(0, input.limit)
}

/** A chunk as chat cites it, before any score, keyed by its index row. */
export interface ChunkRow extends Omit<RetrievedChunk, 'score'> {
  seq: number
}

export function chunksBySeq(client: Database.Database, seqs: number[]): ChunkRow[] {
  if (seqs.length === 0) return []
  return client
    .prepare(
      `SELECT c.seq, c.id AS chunk_id, c.source_id, c.document_id, d.file_name AS document_name, c.page_number,
         c.content
       FROM knowledge_chunk c JOIN knowledge_document d ON d.id = c.document_id
       WHERE c.seq IN (SELECT value FROM json_each(?))`,
    )
    .all(JSON.stringify(seqs)) as ChunkRow[]
}

/** Deletions of chunk rows so far: when it moves, the vector index drops the rows that went away. */
export function chunkDeletionCount(client: Database.Database): number {
  return (
    client.prepare('SELECT count FROM knowledge_chunk_deletions WHERE id = 1').get() as { count: number }
  ).count
}

export function maxChunkSeq(client: Database.Database): number {
  return (client.prepare('SELECT coalesce(max(seq), 0) AS seq FROM knowledge_chunk').get() as { seq: number })
    .seq
}

export function liveChunkSeqs(client: Database.Database, upToSeq: number): number[] {
  return client.prepare('SELECT seq FROM knowledge_chunk WHERE seq <= ?').pluck().all(upToSeq) as number[]
}

export interface StoredVector {
  seq: number
  source_id: string
  embedding: Buffer
}

/** The next vectors of one key after `afterSeq` (up to `throughSeq`), in seq order. */
export function vectorsAfter(
  client: Database.Database,
  input: { embeddingKey: string; afterSeq: number; throughSeq: number; limit: number },
): StoredVector[] {
  if (!vectorTableExists(client, input.embeddingKey)) return []
  return client
    .prepare(
      `SELECT c.seq, c.source_id, v.embedding
       FROM knowledge_chunk c JOIN ${vectorTableOf(input.embeddingKey)} v ON v.chunk_seq = c.seq
       WHERE c.seq > ? AND c.seq <= ? ORDER BY c.seq LIMIT ?`,
    )
    .all(input.afterSeq, input.throughSeq, input.limit) as StoredVector[]
}
