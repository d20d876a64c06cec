import { type Static, Type } from 'typebox'
import { Nullable, Timestamp, UserRef, Uuid } from '../platform/http'
import { CHUNKING_STRATEGIES } from './chunking/params'
import { DOCUMENT_STATUSES } from './knowledge.tables'

export const ChunkingStrategySchema = Type.Enum([...CHUNKING_STRATEGIES])
/** Checked per strategy by `normalizeChunkingParams` (unknown keys, sizes, overlap): a 422 lists the fields. */
export const ChunkingParamsSchema = Type.Record(Type.String(), Type.Unknown())

export const KnowledgeSourceSchema = Type.Object({
  id: Uuid,
  name: Type.String(),
  description: Type.String(),
  storage_type: Type.String(),
  default_chunking_strategy: ChunkingStrategySchema,
  default_chunking_params: ChunkingParamsSchema,
  owner: UserRef,
  document_count: Type.Integer(),
  chunk_count: Type.Integer(),
  /** Chunks with a vector of the current embedder: they come after BM25 indexing, from a background job. */
  embedding_progress: Type.Object({ embedded: Type.Integer(), total: Type.Integer() }),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type KnowledgeSourceDto = Static<typeof KnowledgeSourceSchema>

export const CreateSourceBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  description: Type.Optional(Type.String({ maxLength: 4000 })),
  storage_type: Type.Optional(Type.Literal('local')),
  default_chunking_strategy: Type.Optional(ChunkingStrategySchema),
  default_chunking_params: Type.Optional(ChunkingParamsSchema),
})
export type CreateSourceBody = Static<typeof CreateSourceBody>

export const UpdateSourceBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    description: Type.Optional(Type.String({ maxLength: 4000 })),
    default_chunking_strategy: Type.Optional(ChunkingStrategySchema),
    default_chunking_params: Type.Optional(ChunkingParamsSchema),
  },
  { minProperties: 1 },
)
export type UpdateSourceBody = Static<typeof UpdateSourceBody>

export const SourceParams = Type.Object({ source_id: Uuid })
export const DocumentParams = Type.Object({ source_id: Uuid, document_id: Uuid })

export const PassageParams = Type.Object({
  source_id: Uuid,
  document_id: Uuid,
  chunk_id: Type.String({ minLength: 1, maxLength: 100 }),
})
export const PageParams = Type.Object({
  source_id: Uuid,
  document_id: Uuid,
  page_number: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
})
export const PassageSchema = Type.Object({
  chunk_id: Type.String(),
  source_id: Uuid,
  document_id: Uuid,
  document_name: Type.String(),
  page_number: Nullable(Type.Integer()),
  content: Type.String(),
})
export type PassageDto = Static<typeof PassageSchema>

export const DocumentSchema = Type.Object({
  id: Uuid,
  source_id: Uuid,
  file_name: Type.String(),
  mime_type: Type.String(),
  size_bytes: Type.Integer(),
  sha256: Type.String(),
  status: Type.Enum([...DOCUMENT_STATUSES]),
  error_message: Nullable(Type.String()),
  page_count: Nullable(Type.Integer()),
  chunk_count: Type.Integer(),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type DocumentDto = Static<typeof DocumentSchema>
/** One file answers with its document; several with `{items}` in upload order. */
export const UploadResult = Type.Union([DocumentSchema, Type.Object({ items: Type.Array(DocumentSchema) })])

export const IngestBody = Type.Object({
  agent_id: Type.Optional(Uuid),
  chunking_strategy: Type.Optional(ChunkingStrategySchema),
  chunking_params: Type.Optional(ChunkingParamsSchema),
})
export type IngestBody = Static<typeof IngestBody>

export const IngestionJobSchema = Type.Object({
  id: Uuid,
  source_id: Uuid,
  status: Type.Enum(['queued', 'running', 'succeeded', 'failed']),
  status_message: Nullable(Type.String()),
  progress: Type.Object({
    documents_total: Type.Integer(),
    documents_done: Type.Integer(),
    chunks_written: Type.Integer(),
  }),
  chunking_strategy: ChunkingStrategySchema,
  chunking_params: ChunkingParamsSchema,
  created_at: Timestamp,
  started_at: Nullable(Timestamp),
  finished_at: Nullable(Timestamp),
})
export type IngestionJobDto = Static<typeof IngestionJobSchema>
export const IngestionJobParams = Type.Object({ job_id: Uuid })

export const AgentParams = Type.Object({ agent_id: Uuid })
export const MountParams = Type.Object({ agent_id: Uuid, source_id: Uuid })
export const CreateMountBody = Type.Object({
  source_id: Uuid,
  is_active: Type.Optional(Type.Boolean({ default: true })),
  priority: Type.Optional(Type.Integer({ minimum: -1000, maximum: 1000, default: 0 })),
})
export type CreateMountBody = Static<typeof CreateMountBody>
export const MountSchema = Type.Object({
  agent_id: Uuid,
  source_id: Uuid,
  source_name: Type.String(),
  is_active: Type.Boolean(),
  priority: Type.Integer(),
  created_at: Timestamp,
})
export type MountDto = Static<typeof MountSchema>

export const RetrievalQueryBody = Type.Object({
  query: Type.String({ minLength: 1, maxLength: 4000 }),
  agent_id: Type.Optional(Uuid),
  source_ids: Type.Optional(Type.Array(Uuid, { maxItems: 100 })),
  top_k: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })),
  /** `hybrid` (default) fuses both rankings; `bm25` and `vector` show one half alone. */
  mode: Type.Optional(Type.Enum(['hybrid', 'bm25', 'vector'])),
})
export type RetrievalQueryBody = Static<typeof RetrievalQueryBody>
export const RetrievedChunkSchema = Type.Object({
  chunk_id: Uuid,
  source_id: Uuid,
  document_id: Uuid,
  document_name: Type.String(),
  page_number: Nullable(Type.Integer()),
  content: Type.String(),
  score: Type.Number({ description: 'The fused score the hit was ranked by' }),
  bm25_rank: Nullable(
    Type.Integer({ description: "1-based rank in BM25's candidates, null when not among them" }),
  ),
  bm25_score: Nullable(Type.Number({ description: 'BM25 score (higher is better)' })),
  vector_rank: Nullable(Type.Integer({ description: '1-based rank in the vector candidates' })),
  vector_score: Nullable(Type.Number({ description: 'Cosine similarity to the query' })),
  highlights: Type.Array(Type.Tuple([Type.Integer(), Type.Integer()]), {
    description:
      "UTF-16 [start, end) ranges of the content's words that share a stem with a content word of the query, stemmed as the index stems words",
  }),
})
export const RetrievalResult = Type.Object({ items: Type.Array(RetrievedChunkSchema) })

export const ReadinessSchema = Type.Object({
  ready: Type.Boolean(),
  backend_type: Type.String(),
  provider: Type.String(),
  model: Type.String(),
  dim: Nullable(Type.Integer()),
  latency_ms: Type.Number(),
  error: Nullable(Type.Object({ code: Type.String(), message: Type.String() })),
})
