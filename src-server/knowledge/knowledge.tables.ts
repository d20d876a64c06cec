import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { user } from '../auth'
import { createdAt, idColumn, jsonText, oneOf, updatedAt } from '../platform/db'
import { job } from '../platform/jobs'
import { CHUNKING_STRATEGIES, type ChunkingParams, type ChunkingStrategy } from './chunking/params'

export const DOCUMENT_STATUSES = ['uploaded', 'parsing', 'parsed', 'indexing', 'indexed', 'failed'] as const
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number]

export const knowledgeSource = sqliteTable(
  'knowledge_source',
  {
    id: idColumn(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    storageType: text('storage_type').notNull().default('local'),
    defaultChunkingStrategy: text('default_chunking_strategy').$type<ChunkingStrategy>().notNull(),
    defaultChunkingParams: jsonText<ChunkingParams>('default_chunking_params').notNull(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => user.id),
    /** `provider:model:dim` of the embedder that wrote this source's vectors; stale when it differs from now. */
    indexedEmbeddingKey: text('indexed_embedding_key'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('knowledge_source_by_owner_idx').on(t.ownerId, t.createdAt),
    oneOf('knowledge_source_storage_type_check', t.storageType, ['local']),
    oneOf('knowledge_source_strategy_check', t.defaultChunkingStrategy, CHUNKING_STRATEGIES),
  ],
)

export const knowledgeDocument = sqliteTable(
  'knowledge_document',
  {
    id: idColumn(),
    sourceId: text('source_id')
      .notNull()
      .references(() => knowledgeSource.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull(),
    mimeType: text('mime_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    sha256: text('sha256').notNull(),
    status: text('status').$type<DocumentStatus>().notNull().default('uploaded'),
    errorMessage: text('error_message'),
    pageCount: integer('page_count'),
    chunkCount: integer('chunk_count').notNull().default(0),
    /** The ingestion job that last finished this document: a resumed job skips documents it already did. */
    indexedJobId: text('indexed_job_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('knowledge_document_source_sha_idx').on(t.sourceId, t.sha256),
    index('knowledge_document_by_source_idx').on(t.sourceId, t.createdAt),
    index('knowledge_document_by_sha_idx').on(t.sha256),
    oneOf('knowledge_document_status_check', t.status, DOCUMENT_STATUSES),
  ],
)

/**
 * Chunks. `seq` is the integer rowid FTS5 and the vec0 tables key on; `id` is the public identifier.
 * The FTS5 index and the vector tables follow this table through triggers (see chunk-index.repository.ts).
 */
export const knowledgeChunk = sqliteTable(
  'knowledge_chunk',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    id: text('id').notNull(),
    sourceId: text('source_id')
      .notNull()
      .references(() => knowledgeSource.id, { onDelete: 'cascade' }),
    documentId: text('document_id')
      .notNull()
      .references(() => knowledgeDocument.id, { onDelete: 'cascade' }),
    ordinal: integer('ordinal').notNull(),
    pageNumber: integer('page_number'),
    charStart: integer('char_start').notNull(),
    charEnd: integer('char_end').notNull(),
    content: text('content').notNull(),
    embeddingKey: text('embedding_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('knowledge_chunk_id_idx').on(t.id),
    uniqueIndex('knowledge_chunk_document_ordinal_idx').on(t.documentId, t.ordinal),
    index('knowledge_chunk_by_source_idx').on(t.sourceId),
  ],
)

export const knowledgeMount = sqliteTable(
  'knowledge_mount',
  {
    id: idColumn(),
    agentId: text('agent_id').notNull(),
    sourceId: text('source_id')
      .notNull()
      .references(() => knowledgeSource.id, { onDelete: 'cascade' }),
    isActive: integer('is_active', { mode: 'boolean' }).notNull().default(true),
    priority: integer('priority').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('knowledge_mount_agent_source_idx').on(t.agentId, t.sourceId),
    index('knowledge_mount_by_source_idx').on(t.sourceId),
  ],
)

/**
 * An ingestion request: what the runner's `job` row does not know (source, agent, effective strategy).
 * Status, progress and timestamps are read from that `job` row (same id), so they can never disagree.
 */
export const ingestionJob = sqliteTable(
  'ingestion_job',
  {
    id: text('id')
      .primaryKey()
      .references(() => job.id, { onDelete: 'cascade' }),
    sourceId: text('source_id')
      .notNull()
      .references(() => knowledgeSource.id, { onDelete: 'cascade' }),
    agentId: text('agent_id'),
    chunkingStrategy: text('chunking_strategy').$type<ChunkingStrategy>().notNull(),
    chunkingParams: jsonText<ChunkingParams>('chunking_params').notNull(),
    createdBy: text('created_by').references(() => user.id),
    createdAt: createdAt(),
  },
  (t) => [
    index('ingestion_job_by_source_idx').on(t.sourceId, t.createdAt),
    oneOf('ingestion_job_strategy_check', t.chunkingStrategy, CHUNKING_STRATEGIES),
  ],
)
