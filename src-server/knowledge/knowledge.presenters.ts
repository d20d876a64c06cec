import type { JobRow } from '../platform/jobs'
import type { EmbeddingProgress } from './embedding-job.service'
import type { DocumentRow, IngestionJobView, MountView, SourceView } from './knowledge.repository'
import type { DocumentDto, IngestionJobDto, KnowledgeSourceDto, MountDto } from './knowledge.schemas'

/** Rows to the API's shapes, in one place so every endpoint answers alike. */
export function presentSource(view: SourceView, embeddingProgress: EmbeddingProgress): KnowledgeSourceDto {
  const { source } = view
  return {
    id: source.id,
    name: source.name,
    description: source.description,
    storage_type: source.storageType,
    default_chunking_strategy: source.defaultChunkingStrategy,
    default_chunking_params: source.defaultChunkingParams as unknown as Record<string, unknown>,
    owner: { id: source.ownerId, username: view.ownerName },
    document_count: view.documentCount,
    chunk_count: view.chunkCount,
    embedding_progress: embeddingProgress,
    created_at: source.createdAt,
    updated_at: source.updatedAt,
  }
}

export function presentDocument(row: DocumentRow): DocumentDto {
  return {
    id: row.id,
    source_id: row.sourceId,
    file_name: row.fileName,
    mime_type: row.mimeType,
    size_bytes: row.sizeBytes,
    sha256: row.sha256,
    status: row.status,
    error_message: row.errorMessage,
    page_count: row.pageCount,
    chunk_count: row.chunkCount,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  }
}

export interface IngestProgress {
  documents_total: number
  documents_done: number
  chunks_written: number
  /** What the job is doing now, or how it ended: the job's `status_message`. */
  message?: string
}

/** The runner's `cancelled` is reported as `failed`: the contract's job has four states. */
function jobStatus(row: JobRow): IngestionJobDto['status'] {
  return row.status === 'cancelled' ? 'failed' : row.status
}

export function presentIngestionJob({ ingestion, job }: IngestionJobView): IngestionJobDto {
  const progress = (job.progress ?? {}) as Partial<IngestProgress>
  const statusMessage =
    job.status === 'failed'
      ? (job.error ?? 'The ingestion failed.')
      : job.status === 'cancelled'
        ? 'The ingestion was cancelled.'
        : job.status === 'queued' && job.error
          ? `Retrying after: ${job.error}`
          : (progress.message ?? null)
  return {
    id: ingestion.id,
    source_id: ingestion.sourceId,
    status: jobStatus(job),
    status_message: statusMessage,
    progress: {
      documents_total: progress.documents_total ?? 0,
      documents_done: progress.documents_done ?? 0,
      chunks_written: progress.chunks_written ?? 0,
    },
    chunking_strategy: ingestion.chunkingStrategy,
    chunking_params: ingestion.chunkingParams as unknown as Record<string, unknown>,
    created_at: ingestion.createdAt,
    started_at: job.startedAt,
    finished_at: job.finishedAt,
  }
}

export function presentMountedSource(mount: MountView): MountDto {
  return {
    agent_id: mount.agentId,
    source_id: mount.sourceId,
    source_name: mount.sourceName,
    is_active: mount.isActive,
    priority: mount.priority,
    created_at: mount.createdAt,
  }
}
