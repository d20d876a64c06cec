import { createHash } from 'node:crypto'
import type Database from 'better-sqlite3'
import { eq, inArray, lte, type SQL, sql } from 'drizzle-orm'
import { ENGLISH_STOPWORDS } from '../ai'
import type { RetrievedChunk } from '../conversation'
import {
  type Database as EngineDatabase,
  type EngineDb,
  engineTables,
  isPostgres,
  runSql,
} from '../platform/db'
import type { DocumentChunk } from './chunking'
import { indexedWords } from './indexed-words'
import { knowledgeChunk, knowledgeDocument } from './knowledge.tables'

const tablesOf = engineTables({ knowledgeChunk, knowledgeDocument })

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
  return `knowledge_vec_${dimensionOf(embeddingKey)}_${createHash('sha256').update(embeddingKey).digest('hex').slice(0, 12)}`
}

function dimensionOf(embeddingKey: string): number {
  const dim = Number(embeddingKey.slice(embeddingKey.lastIndexOf(':') + 1))
  if (!Number.isInteger(dim) || dim < 1 || dim > 8192)
    throw new Error(`Unsupported embedding dimension in ${embeddingKey}.`)
  return dim
}

/**
 * The vec0 table of one key, partitioned by source so a scoped search scans only its sources. Every stored
 * and query vector is L2-normalised, so vec0's default L2 distance ranks exactly as cosine does
 * (|a - b|^2 = 2 - 2 cos) and runs about 30% faster than its cosine metric in this build. On PostgreSQL every key
 * shares `knowledge_chunk_vector`: nothing to make.
 */
async function ensureVectorTable(tx: EngineDb, embeddingKey: string): Promise<void> {
  if (isPostgres(tx)) return
  const table = sql.identifier(vectorTableOf(embeddingKey))
  await runSql(
    tx,
    sql`CREATE VIRTUAL TABLE IF NOT EXISTS ${table} USING vec0(
      chunk_seq integer primary key, source_id text partition key, embedding float[${sql.raw(String(dimensionOf(embeddingKey)))}])`,
  )
  await runSql(
    tx,
    sql`CREATE TRIGGER IF NOT EXISTS ${sql.identifier(`${vectorTableOf(embeddingKey)}_delete`)}
      AFTER DELETE ON knowledge_chunk BEGIN DELETE FROM ${table} WHERE chunk_seq = old.seq; END`,
  )
}

async function vectorTableExists(db: EngineDb, embeddingKey: string): Promise<boolean> {
  if (isPostgres(db)) return true
  const rows = await runSql(
    db,
    sql`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ${vectorTableOf(embeddingKey)}`,
  )
  return rows.length > 0
}

export interface ChunkToWrite extends DocumentChunk {
  id: string
}

/** Rows per multi-row INSERT: within SQLite's bound parameters, few statements per document. */
const INSERT_BATCH = 500

/**
 * A chunk's full-text document on PostgreSQL: its words as FTS5 reads them (`indexedWords`: unicode61 words
 * without diacritics, Porter-stemmed, stop words kept), given to the `simple` configuration, which keeps them as
 * they are, so both engines index the same terms; the title in weight A and the content in D, so `ts_rank_cd`
 * weighs a title match `TITLE_WEIGHT` times a content match (`PG_RANK_WEIGHTS`). `english` was measured first:
 * its own stemmer and stop words cost 0.02 nDCG@10 on DBpedia-entity against SQLite (decision 704).
 */
function pgDocument(title: string, content: string): { document: SQL; wordCount: number } {
  const titleWords = indexedWords(title)
  const contentWords = indexedWords(content)
  return {
    document: sql`setweight(to_tsvector('simple', ${titleWords.join(' ')}), 'A') || setweight(to_tsvector('simple', ${contentWords.join(' ')}), 'D')`,
    wordCount: titleWords.length + contentWords.length,
  }
}
/** A query word as PostgreSQL's index holds it: its stem, as in documents. */
const pgWord = (word: string) => sql`plainto_tsquery('simple', ${indexedWords(word)[0] ?? ''})`
/**
 * `ts_rank_cd`'s weights of D, C, B, A: content 1, title `TITLE_WEIGHT`, scaled into (0, 1]. For a one-word query
 * and no normalisation it is the word's weighted count in the document (each occurrence its own cover), which
 * BM25 takes as its term frequency, scaled back by `TITLE_WEIGHT`.
 */
const PG_RANK_WEIGHTS = `{${1 / TITLE_WEIGHT}, ${1 / TITLE_WEIGHT}, ${1 / TITLE_WEIGHT}, 1}`
/** FTS5's BM25 constants (`bm25()`), used alike on PostgreSQL. */
const BM25_K1 = 1.2
const BM25_B = 0.75

/**
 * Replaces a document's chunks with new ones, searchable by full text at once; `vectors` (one per chunk, of
 * `embeddingKey`) are written with them when the embedder is cheap enough to run inline, else the embedding job
 * fills them in later. Call inside one transaction: readers see either the old set or the new one. Returns the
 * lowest and highest `seq` of the chunks written (null for none).
 */
export async function replaceDocumentChunks(
  tx: EngineDb,
  input: {
    sourceId: string
    documentId: string
    embeddingKey: string
    chunks: ChunkToWrite[]
    vectors?: Float32Array[]
  },
): Promise<{ firstSeq: number; lastSeq: number } | null> {
  const { knowledgeChunk, knowledgeDocument } = tablesOf(tx)
  await tx.delete(knowledgeChunk).where(eq(knowledgeChunk.documentId, input.documentId))
  const [document] = await tx
    .select({ fileName: knowledgeDocument.fileName })
    .from(knowledgeDocument)
    .where(eq(knowledgeDocument.id, input.documentId))
    .limit(1)
  const title = documentTitle(document?.fileName ?? '')
  const now = new Date().toISOString()
  const seqById = new Map<string, number>()
  for (let start = 0; start < input.chunks.length; start += INSERT_BATCH) {
    const batch = input.chunks.slice(start, start + INSERT_BATCH)
    const inserted = await tx
      .insert(knowledgeChunk)
      .values(
        batch.map((chunk) => ({
          id: chunk.id,
          sourceId: input.sourceId,
          documentId: input.documentId,
          ordinal: chunk.ordinal,
          pageNumber: chunk.page_number,
          charStart: chunk.char_start,
          charEnd: chunk.char_end,
          content: chunk.content,
          embeddingKey: input.embeddingKey,
          createdAt: now,
        })),
      )
      .returning({ seq: knowledgeChunk.seq, id: knowledgeChunk.id })
    for (const row of inserted) seqById.set(row.id, row.seq)
    const indexed = batch.map((chunk) => ({ seq: seqById.get(chunk.id) as number, content: chunk.content }))
    await runSql(
      tx,
      isPostgres(tx)
        ? sql`INSERT INTO knowledge_chunk_search (seq, document, word_count) VALUES ${sql.join(
            indexed.map((row) => {
              const { document, wordCount } = pgDocument(title, row.content)
              return sql`(${row.seq}, ${document}, ${wordCount})`
            }),
            sql`, `,
          )}`
        : sql`INSERT INTO knowledge_chunk_fts (rowid, title, content) VALUES ${sql.join(
            indexed.map((row) => sql`(${row.seq}, ${title}, ${row.content})`),
            sql`, `,
          )}`,
    )
  }
  if (input.vectors)
    await writeVectors(tx, {
      embeddingKey: input.embeddingKey,
      sourceId: input.sourceId,
      rows: input.chunks.map((chunk, i) => ({
        seq: seqById.get(chunk.id) as number,
        vector: input.vectors?.[i] as Float32Array,
      })),
    })
  const seqs = [...seqById.values()]
  return seqs.length > 0 ? { firstSeq: Math.min(...seqs), lastSeq: Math.max(...seqs) } : null
}

/** Stores vectors of `embeddingKey` for chunks that still exist and have none yet (a redo writes nothing twice). */
export async function writeVectors(
  tx: EngineDb,
  input: { embeddingKey: string; sourceId: string; rows: { seq: number; vector: Float32Array }[] },
): Promise<number> {
  if (input.rows.length === 0) return 0
  if (isPostgres(tx)) {
    let written = 0
    for (let start = 0; start < input.rows.length; start += INSERT_BATCH) {
      const batch = input.rows.slice(start, start + INSERT_BATCH)
      const values = sql.join(
        batch.map(({ seq, vector }) => sql`(${seq}::bigint, ${`{${vector.join(',')}}`}::real[])`),
        sql`, `,
      )
      const inserted = await runSql(
        tx,
        sql`INSERT INTO knowledge_chunk_vector (seq, embedding_key, source_id, embedding)
            SELECT v.seq, ${input.embeddingKey}, ${input.sourceId}, v.embedding
            FROM (VALUES ${values}) AS v (seq, embedding) JOIN knowledge_chunk c ON c.seq = v.seq
            ON CONFLICT (seq, embedding_key) DO NOTHING RETURNING seq`,
      )
      written += inserted.length
    }
    return written
  }
  await ensureVectorTable(tx, input.embeddingKey)
  const table = sql.identifier(vectorTableOf(input.embeddingKey))
  let written = 0
  for (const { seq, vector } of input.rows) {
    const [live] = await runSql<{ vector: number | null }>(
      tx,
      sql`SELECT (SELECT 1 FROM ${table} WHERE chunk_seq = ${BigInt(seq)}) AS vector
          FROM knowledge_chunk WHERE seq = ${seq}`,
    )
    if (!live || live.vector !== null) continue
    // vec0 keys must be bound as SQLite integers, which better-sqlite3 does for BigInt.
    await runSql(
      tx,
      sql`INSERT INTO ${table} (chunk_seq, source_id, embedding) VALUES (${BigInt(seq)}, ${input.sourceId}, ${vector})`,
    )
    written++
  }
  return written
}

/**
 * A source's next chunks (by seq, after `afterSeq`) that have no vector of `embeddingKey` yet (every chunk when
 * the key is not known yet: a remote embedder's dimension is learnt from its first answer).
 */
export async function chunksLackingVectors(
  db: EngineDb,
  input: { embeddingKey: string | null; sourceId: string; afterSeq: number; limit: number },
): Promise<{ seq: number; content: string }[]> {
  const key = input.embeddingKey
  let lacking = sql``
  if (key && isPostgres(db))
    lacking = sql`AND NOT EXISTS (SELECT 1 FROM knowledge_chunk_vector v WHERE v.seq = c.seq AND v.embedding_key = ${key})`
  else if (key && (await vectorTableExists(db, key)))
    lacking = sql`AND NOT EXISTS (SELECT 1 FROM ${sql.identifier(vectorTableOf(key))} v WHERE v.chunk_seq = c.seq)`
  const rows = await runSql<{ seq: number | string; content: string }>(
    db,
    sql`SELECT c.seq, c.content FROM knowledge_chunk c
        WHERE c.source_id = ${input.sourceId} AND c.seq > ${input.afterSeq} ${lacking}
        ORDER BY c.seq LIMIT ${input.limit}`,
  )
  return rows.map((row) => ({ seq: Number(row.seq), content: row.content }))
}

/** How many of a source's chunks have a vector of `embeddingKey`, and how many chunks it has. */
export async function embeddingProgress(
  db: EngineDb,
  embeddingKey: string | null,
  sourceId: string,
): Promise<{ embedded: number; total: number }> {
  const [chunks] = await runSql<{ n: number | string }>(
    db,
    sql`SELECT count(*) AS n FROM knowledge_chunk WHERE source_id = ${sourceId}`,
  )
  const total = Number(chunks?.n ?? 0)
  if (total === 0 || !embeddingKey || !(await vectorTableExists(db, embeddingKey)))
    return { embedded: 0, total }
  const [vectors] = await runSql<{ n: number | string }>(
    db,
    isPostgres(db)
      ? sql`SELECT count(*) AS n FROM knowledge_chunk_vector WHERE embedding_key = ${embeddingKey} AND source_id = ${sourceId}`
      : sql`SELECT count(*) AS n FROM ${sql.identifier(vectorTableOf(embeddingKey))} WHERE source_id = ${sourceId}`,
  )
  return { embedded: Number(vectors?.n ?? 0), total }
}

/** Drops a source's vectors of a key it no longer uses (after it switched to another model's complete index). */
export async function dropSourceVectors(tx: EngineDb, embeddingKey: string, sourceId: string): Promise<void> {
  if (isPostgres(tx))
    await runSql(
      tx,
      sql`DELETE FROM knowledge_chunk_vector WHERE embedding_key = ${embeddingKey} AND source_id = ${sourceId}`,
    )
  else if (await vectorTableExists(tx, embeddingKey))
    await runSql(
      tx,
      sql`DELETE FROM ${sql.identifier(vectorTableOf(embeddingKey))} WHERE source_id = ${sourceId}`,
    )
}

export interface RankedChunk {
  seq: number
  rank: number
}

/** BM25's cost grows with the postings FTS5 walks; past this many, the commonest query words are left out. */
const BM25_POSTINGS_BUDGET = 2_500
const MAX_QUERY_WORDS = 32

/** The words of a query the full-text search may ask for: at most one per stem, in the query's order. */
function queryWords(text: string): string[] {
  return oneWordPerStem(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_QUERY_WORDS)
}

/**
 * The words of a query BM25 searches for: one word per distinct stem, rarest first, for as long as their postings
 * stay within `BM25_POSTINGS_BUDGET` (the rarest always); English function words come after every other word.
 * Common words weigh least in BM25 (low IDF) and cost most: on the squad2 questions with their paragraphs hidden
 * among 100,000 chunks this kept recall@5 and cut BM25's time from about 110 ms to 6 (knowledge README). A small
 * corpus keeps every word. The statistics must be loaded for the text (`TermStatistics.load`).
 */
export function bm25Terms(statistics: TermStatistics, text: string): string[] {
  const words = queryWords(text)
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
  /** PostgreSQL: the mean word count of the chunks' documents, BM25's avgdl. */
  averageLength?: number
}
/** Per database (the reader of an engine): counts stay valid until chunks are added or deleted. */
const postingCounts = new WeakMap<object, PostingCounts>()

/** Where the chunk index stands: caches of it (term counts, the vector index) are valid while it stays. */
export interface IndexGeneration {
  /** The highest chunk seq so far. */
  seq: number
  /** Chunk rows deleted so far. */
  deletions: number
}

const generationColumns = sql`(SELECT coalesce(max(seq), 0) FROM knowledge_chunk) AS seq,
  (SELECT count FROM knowledge_chunk_deletions WHERE id = 1) AS deletions`

export async function indexGeneration(db: EngineDb): Promise<IndexGeneration> {
  const [now] = await runSql<{ seq: number | string; deletions: number | string }>(
    db,
    sql`SELECT ${generationColumns}`,
  )
  return { seq: Number(now?.seq ?? 0), deletions: Number(now?.deletions ?? 0) }
}

/**
 * What a search reads before anything else, in one statement: the index's generation and the searched sources'
 * embedding keys. On PostgreSQL each statement is a round trip to another process, and these were three.
 */
export async function searchState(
  db: EngineDb,
  sourceIds: string[],
): Promise<{ generation: IndexGeneration; sources: { id: string; indexedEmbeddingKey: string | null }[] }> {
  const rows = await runSql<{
    seq: number | string
    deletions: number | string
    id: string | null
    indexed_embedding_key: string | null
  }>(
    db,
    sql`SELECT g.seq, g.deletions, s.id, s.indexed_embedding_key
        FROM (SELECT ${generationColumns}) g
        LEFT JOIN knowledge_source s ON s.id IN (${sql.join(
          (sourceIds.length > 0 ? sourceIds : ['']).map((id) => sql`${id}`),
          sql`, `,
        )})`,
  )
  const [first] = rows
  return {
    generation: { seq: Number(first?.seq ?? 0), deletions: Number(first?.deletions ?? 0) },
    sources: rows.flatMap((row) =>
      row.id === null ? [] : [{ id: row.id, indexedEmbeddingKey: row.indexed_embedding_key }],
    ),
  }
}

/** The counts of the index as of `now`: kept until chunks are added or deleted. */
function currentCounts(db: EngineDb, now: IndexGeneration): PostingCounts {
  const generation = `${now.seq}:${now.deletions}`
  let cache = postingCounts.get(db)
  if (cache?.generation !== generation || cache.counts.size > 100_000) {
    cache = { generation, counts: new Map() }
    postingCounts.set(db, cache)
  }
  return cache
}

/** What BM25 and the sentence reranker know of the index's words, as of one moment. */
export interface TermStatistics {
  /**
   * How many chunks hold a word (in their title or content), counted by the index itself so the word is stemmed
   * and folded exactly as the index stores it. Only for words of a loaded text.
   */
  postings(word: string): number
  /** How rare a word is among all chunks: its BM25 inverse document frequency, log(1 + (N - n + 0.5) / (n + 0.5)). */
  rarity(word: string): number
  /** FTS5's own inverse document frequency of a word, log((N - n + 0.5) / (n + 0.5)), at least 1e-6. */
  fts5Idf(word: string): number
  /** The mean word count of the chunks' documents on PostgreSQL (0 on SQLite, whose FTS5 knows its own). */
  averageLength: number
}

/** The full-text condition of a set of words: an FTS5 MATCH, or a tsquery with the words OR-ed. */
function matchesAny(db: EngineDb, words: string[]): SQL {
  if (isPostgres(db))
    return sql`s.document @@ (${sql.join(
      words.map((word) => pgWord(word)),
      sql` || `,
    )})`
  return sql`knowledge_chunk_fts MATCH ${toFtsQuery(words)}`
}

/**
 * The index's term statistics for one query's words (and the sentence reranker's, which are among them): the
 * index's generation is read once (here, or by the caller's `searchState`), not at each use. The index walks a
 * term's postings to count it, so counts are cached across queries until chunks change.
 */
export async function termStatistics(
  db: EngineDb,
  text: string,
  generation?: IndexGeneration,
): Promise<TermStatistics> {
  const cache = currentCounts(db, generation ?? (await indexGeneration(db)))
  const missing = queryWords(text).filter((word) => !cache.counts.has(word))
  if (missing.length > 0 && isPostgres(db)) {
    // One pass over the GIN index for every word, not one round trip each.
    const [row] = await runSql<Record<string, number | string>>(
      db,
      sql`SELECT ${sql.join(
        missing.map(
          (word, i) =>
            sql`count(*) FILTER (WHERE s.document @@ ${pgWord(word)}) AS ${sql.identifier(`n${i}`)}`,
        ),
        sql`, `,
      )} FROM knowledge_chunk_search s WHERE ${matchesAny(db, missing)}`,
    )
    for (const [i, word] of missing.entries()) cache.counts.set(word, Number(row?.[`n${i}`] ?? 0))
  } else
    for (const word of missing) {
      const [row] = await runSql<{ n: number }>(
        db,
        sql`SELECT count(*) AS n FROM knowledge_chunk_fts WHERE ${matchesAny(db, [word])}`,
      )
      cache.counts.set(word, row?.n ?? 0)
    }
  if (cache.chunks === undefined) {
    const [row] = await runSql<{ n: number | string }>(db, sql`SELECT count(*) AS n FROM knowledge_chunk`)
    cache.chunks = Number(row?.n ?? 0)
  }
  if (cache.averageLength === undefined && isPostgres(db)) {
    const [row] = await runSql<{ mean: number | string | null }>(
      db,
      sql`SELECT avg(word_count) AS mean FROM knowledge_chunk_search`,
    )
    cache.averageLength = Number(row?.mean ?? 0)
  }
  const chunks = cache.chunks
  const postings = (word: string) => cache.counts.get(word) ?? 0
  return {
    postings,
    rarity(word) {
      const count = postings(word)
      return Math.log(1 + (chunks - count + 0.5) / (count + 0.5))
    },
    fts5Idf(word) {
      const count = postings(word)
      return Math.max(1e-6, Math.log((chunks - count + 0.5) / (count + 0.5)))
    },
    averageLength: cache.averageLength ?? 0,
  }
}

/** Terms as an FTS5 query that cannot be a syntax error: each quoted, joined with OR. */
export function toFtsQuery(terms: string[]): string | null {
  return terms.length > 0 ? terms.map((term) => `"${term}"`).join(' OR ') : null
}

/**
 * PostgreSQL's BM25 of one document, as FTS5 computes it: per query word, its inverse document frequency times
 * its saturated weighted frequency (`ts_rank_cd` of the word alone, title occurrences `TITLE_WEIGHT` times
 * content ones), with the document's word count against their mean. `ts_rank_cd` of the whole
 * query has no inverse document frequency: a common word counts as much as a rare one, and the retrieval test
 * of both engines fails on it ("Richard at Messina" ranks a paragraph full of Richards first).
 */
function pgBm25(terms: string[], statistics: TermStatistics): SQL {
  // Numbers computed here, written as float literals: a bound parameter beside length() would be read as integer.
  const float = (value: number) => sql.raw(`${Number(value)}::float8`)
  const lengthNorm = sql`(${float(1 - BM25_B)} + ${float(BM25_B)} * s.word_count / ${float(Math.max(statistics.averageLength, 1))})`
  return sql.join(
    terms.map((word) => {
      const frequency = sql`(${float(TITLE_WEIGHT)} * ts_rank_cd(${PG_RANK_WEIGHTS}::real[], s.document, ${pgWord(word)}, 0))`
      return sql`${float(statistics.fts5Idf(word))} * ${frequency} * ${float(BM25_K1 + 1)} / (${frequency} + ${float(BM25_K1)} * ${lengthNorm})`
    }),
    sql` + `,
  )
}

/**
 * Full-text search over the sources' chunks, best first (`rank` ascending, minus BM25 on both engines): FTS5's
 * `bm25()` on SQLite, the same formula over the GIN-indexed `english` documents on PostgreSQL (`pgBm25`);
 * `statistics` are the query's own (`termStatistics(db, query)`), which the reranker uses too.
 */
export async function searchBm25(
  db: EngineDb,
  query: string,
  sourceIds: string[],
  limit: number,
  statistics?: TermStatistics,
): Promise<RankedChunk[]> {
  const known = statistics ?? (await termStatistics(db, query))
  const terms = bm25Terms(known, query)
  if (terms.length === 0 || sourceIds.length === 0) return []
  const rows = await runSql<{ seq: number | string; rank: number }>(
    db,
    isPostgres(db)
      ? sql`SELECT s.seq, -(${pgBm25(terms, known)}) AS rank
            FROM knowledge_chunk_search s
            JOIN knowledge_chunk c ON c.seq = s.seq
            WHERE ${matchesAny(db, terms)} AND c.source_id IN (${sql.join(
              sourceIds.map((id) => sql`${id}`),
              sql`, `,
            )})
            ORDER BY rank, s.seq LIMIT ${limit}`
      : sql`SELECT c.seq AS seq, bm25(knowledge_chunk_fts, ${sql.raw(String(TITLE_WEIGHT))}, 1) AS rank
            FROM knowledge_chunk_fts JOIN knowledge_chunk c ON c.seq = knowledge_chunk_fts.rowid
            WHERE ${matchesAny(db, terms)} AND c.source_id IN (SELECT value FROM json_each(${JSON.stringify(sourceIds)}))
            ORDER BY rank LIMIT ${limit}`,
  )
  return rows.map((row) => ({ seq: Number(row.seq), rank: Number(row.rank) }))
}

/** Whether `CREATE EXTENSION vector` succeeded on this PostgreSQL database (`enablePgvector`, at start). */
const pgvectorReady = new WeakMap<object, boolean>()

/**
 * At start on PostgreSQL: makes pgvector's extension when the server offers it. Without it, every embedder's
 * vectors are searched by the in-memory index over `knowledge_chunk_vector`.
 */
export async function enablePgvector(database: EngineDatabase): Promise<boolean> {
  if (database.engine !== 'postgres') return false
  let ready = true
  try {
    await database.transact((tx) => runSql(tx, sql`CREATE EXTENSION IF NOT EXISTS vector`))
  } catch {
    ready = false
  }
  pgvectorReady.set(database.reader, ready)
  return ready
}

/** Whether `searchVectors` can run on this database: vec0 on SQLite, pgvector on PostgreSQL. */
export function exactVectorSearchAvailable(db: EngineDb): boolean {
  return !isPostgres(db) || pgvectorReady.get(db) === true
}

/**
 * Exact nearest chunks by cosine among the vectors of `embeddingKey`: KNN in vec0 (one partition per source) on
 * SQLite, `<=>` of pgvector on PostgreSQL (`exactVectorSearchAvailable`). `rank` is the cosine distance on both.
 */
export async function searchVectors(
  db: EngineDb,
  input: { vector: Float32Array; embeddingKey: string; sourceIds: string[]; limit: number },
): Promise<RankedChunk[]> {
  if (input.sourceIds.length === 0 || !(await vectorTableExists(db, input.embeddingKey))) return []
  if (isPostgres(db)) {
    const type = sql.raw(`vector(${dimensionOf(input.embeddingKey)})`)
    const rows = await runSql<{ seq: number | string; rank: number }>(
      db,
      sql`SELECT v.seq, (v.embedding::${type} <=> ${`[${input.vector.join(',')}]`}::${type}) AS rank
          FROM knowledge_chunk_vector v
          WHERE v.embedding_key = ${input.embeddingKey} AND v.source_id IN (${sql.join(
            input.sourceIds.map((id) => sql`${id}`),
            sql`, `,
          )})
          ORDER BY rank, v.seq LIMIT ${input.limit}`,
    )
    return rows.map((row) => ({ seq: Number(row.seq), rank: Number(row.rank) }))
  }
  const table = sql.identifier(vectorTableOf(input.embeddingKey))
  const ranked: RankedChunk[] = []
  for (const sourceId of input.sourceIds)
    ranked.push(
      ...(await runSql<RankedChunk>(
        db,
        sql`SELECT v.chunk_seq AS seq, v.distance AS rank FROM ${table} v
            WHERE v.embedding MATCH ${input.vector} AND v.k = ${input.limit} AND v.source_id = ${sourceId}`,
      )),
    )
  // vec0 ranks unit vectors by L2 distance d; as a cosine distance that is d² / 2 (|a - b|² = 2 - 2 cos).
  return ranked
    .map((row) => ({ seq: row.seq, rank: (row.rank * row.rank) / 2 }))
    .sort((a, b) => a.rank - b.rank)
    .slice(0, input.limit)
}

/** A chunk as chat cites it, before any score, keyed by its index row. */
export interface ChunkRow extends Omit<RetrievedChunk, 'score'> {
  seq: number
}

export async function chunksBySeq(db: EngineDb, seqs: number[]): Promise<ChunkRow[]> {
  if (seqs.length === 0) return []
  const { knowledgeChunk, knowledgeDocument } = tablesOf(db)
  return db
    .select({
      seq: knowledgeChunk.seq,
      chunk_id: knowledgeChunk.id,
      source_id: knowledgeChunk.sourceId,
      document_id: knowledgeChunk.documentId,
      document_name: knowledgeDocument.fileName,
      page_number: knowledgeChunk.pageNumber,
      content: knowledgeChunk.content,
    })
    .from(knowledgeChunk)
    .innerJoin(knowledgeDocument, eq(knowledgeDocument.id, knowledgeChunk.documentId))
    .where(inArray(knowledgeChunk.seq, seqs))
}

export async function liveChunkSeqs(db: EngineDb, upToSeq: number): Promise<number[]> {
  const { knowledgeChunk } = tablesOf(db)
  const rows = await db
    .select({ seq: knowledgeChunk.seq })
    .from(knowledgeChunk)
    .where(lte(knowledgeChunk.seq, upToSeq))
  return rows.map((row) => row.seq)
}

export interface StoredVector {
  seq: number
  source_id: string
  embedding: Float32Array
}

/** The next vectors of one key after `afterSeq` (up to `throughSeq`), in seq order. */
export async function vectorsAfter(
  db: EngineDb,
  input: { embeddingKey: string; afterSeq: number; throughSeq: number; limit: number },
): Promise<StoredVector[]> {
  if (!(await vectorTableExists(db, input.embeddingKey))) return []
  if (isPostgres(db)) {
    const rows = await runSql<{ seq: number | string; source_id: string; embedding: number[] }>(
      db,
      sql`SELECT seq, source_id, embedding FROM knowledge_chunk_vector
          WHERE embedding_key = ${input.embeddingKey} AND seq > ${input.afterSeq} AND seq <= ${input.throughSeq}
          ORDER BY seq LIMIT ${input.limit}`,
    )
    return rows.map((row) => ({
      seq: Number(row.seq),
      source_id: row.source_id,
      embedding: Float32Array.from(row.embedding, Number),
    }))
  }
  const rows = await runSql<{ seq: number; source_id: string; embedding: Buffer }>(
    db,
    sql`SELECT c.seq, c.source_id, v.embedding
        FROM knowledge_chunk c JOIN ${sql.identifier(vectorTableOf(input.embeddingKey))} v ON v.chunk_seq = c.seq
        WHERE c.seq > ${input.afterSeq} AND c.seq <= ${input.throughSeq} ORDER BY c.seq LIMIT ${input.limit}`,
  )
  return rows.map((row) => {
    // A Float32Array view needs a 4-byte aligned offset; SQLite's buffers are copied when they are not.
    const bytes = row.embedding.byteOffset % 4 === 0 ? row.embedding : Buffer.from(row.embedding)
    return {
      seq: row.seq,
      source_id: row.source_id,
      embedding: new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4),
    }
  })
}
