import { sql } from 'drizzle-orm'
import {
  bigint,
  check,
  customType,
  foreignKey,
  index,
  pgTable,
  primaryKey,
  real,
  text,
} from 'drizzle-orm/pg-core'
import { knowledgeChunk } from './generated-tables'

/**
 * PostgreSQL's counterparts of the tables SQLite keeps outside drizzle (FTS5 and sqlite-vec virtual tables, made
 * by migrations and at start): what `SEARCH_COUNTERPARTS` names for each, checked against the SQLite schema.
 */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' })

/**
 * FTS5 `published_listing_search` (rowid = listing.search_id, columns title, description, tags, facets): one
 * document per published listing, weighted title A, tags B, description C, facets D, searched through its GIN
 * index and ranked by `ts_rank_cd`.
 */
export const publishedListingSearch = pgTable(
  'published_listing_search',
  {
    searchId: bigint('search_id', { mode: 'number' }).primaryKey(),
    document: tsvector('document').notNull(),
  },
  (t) => [index('published_listing_search_document_idx').using('gin', t.document)],
)

/**
 * FTS5 `knowledge_chunk_fts` (rowid = knowledge_chunk.seq, columns title, content, porter stemming): the chunk's
 * words as FTS5 reads them (stemmed by the project's tokenizer, kept by the `simple` configuration), the title's in
 * weight A, and how many there are (BM25's document length), gone with its chunk.
 */
export const knowledgeChunkSearch = pgTable(
  'knowledge_chunk_search',
  {
    seq: bigint('seq', { mode: 'number' }).primaryKey(),
    document: tsvector('document').notNull(),
    wordCount: bigint('word_count', { mode: 'number' }).notNull(),
  },
  (t) => [
    index('knowledge_chunk_search_document_idx').using('gin', t.document),
    foreignKey({
      name: 'knowledge_chunk_search_seq_fk',
      columns: [t.seq],
      foreignColumns: [knowledgeChunk.seq],
    }).onDelete('cascade'),
  ],
)

/**
 * The sqlite-vec `vec0` tables, one per embedding key (`provider:model:dim`), partitioned by source: here one table
 * keyed by chunk and key (a new model's index is built beside the old one), its vector a plain `real[]` that needs
 * no extension. The in-memory index loads it as it loads
 * vec0's rows; with pgvector installed, each embedding key gets an HNSW index over
 * `(embedding::vector(dim)) vector_cosine_ops WHERE embedding_key = '<key>'`, made at start as vec0 tables are.
 */
export const knowledgeChunkVector = pgTable(
  'knowledge_chunk_vector',
  {
    seq: bigint('seq', { mode: 'number' }).notNull(),
    embeddingKey: text('embedding_key').notNull(),
    sourceId: text('source_id').notNull(),
    embedding: real('embedding').array().notNull(),
  },
  (t) => [
    primaryKey({ name: 'knowledge_chunk_vector_pkey', columns: [t.seq, t.embeddingKey] }),
    index('knowledge_chunk_vector_by_key_source_idx').on(t.embeddingKey, t.sourceId),
    foreignKey({
      name: 'knowledge_chunk_vector_seq_fk',
      columns: [t.seq],
      foreignColumns: [knowledgeChunk.seq],
    }).onDelete('cascade'),
  ],
)

/** As in SQLite (migration 0005): deleted chunks counted, so the in-memory vector index knows to drop rows. */
export const knowledgeChunkDeletions = pgTable(
  'knowledge_chunk_deletions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey(),
    count: bigint('count', { mode: 'number' }).notNull(),
  },
  (t) => [check('knowledge_chunk_deletions_single_row_check', sql`${t.id} = 1`)],
)

/**
 * SQLite's tables outside drizzle (virtual tables with their shadow tables, and the ones migrations made by hand),
 * each with the PostgreSQL table that stands for it.
 */
export const SQLITE_ONLY_TABLES: ReadonlyArray<{ sqlite: RegExp; postgres: string }> = [
  {
    sqlite: /^published_listing_search(_(data|idx|docsize|config|content))?$/,
    postgres: 'published_listing_search',
  },
  {
    sqlite: /^knowledge_chunk_fts(_(data|idx|docsize|config|content))?$/,
    postgres: 'knowledge_chunk_search',
  },
  { sqlite: /^knowledge_vec_\d+_[0-9a-f]{12}(_\w+)?$/, postgres: 'knowledge_chunk_vector' },
  { sqlite: /^knowledge_chunk_deletions$/, postgres: 'knowledge_chunk_deletions' },
]
