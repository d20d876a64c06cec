import type { PageResult } from '@server/http/pagination'
import { api } from '../../../lib/api-client'

/**
 * Shapes of the knowledge API as the contract (30-knowledge.md) defines them.
 * Replace with the server's schema types once `src-server/knowledge` exports them.
 */
export type Strategy = 'fixed_size' | 'sentence' | 'paragraph' | 'semantic' | 'recursive'

export interface KnowledgeSource {
  id: string
  name: string
  description: string | null
  storage_type: string
  default_chunking_strategy: Strategy
  default_chunking_params: Record<string, unknown>
  document_count: number
  chunk_count: number
  created_at: string
  updated_at: string
}

export interface KnowledgeDocument {
  id: string
  source_id: string
  file_name: string
  mime_type: string
  size_bytes: number
  status: 'uploaded' | 'parsing' | 'parsed' | 'indexing' | 'indexed' | 'failed'
  error_message: string | null
  page_count: number | null
  chunk_count: number
  created_at: string
}

export interface IngestionJob {
  id: string
  source_id: string
  status: 'queued' | 'running' | 'succeeded' | 'failed'
  status_message: string | null
  progress: { documents_total: number; documents_done: number; chunks_written: number }
  created_at: string
  started_at: string | null
  finished_at: string | null
}

export interface RetrievedItem {
  chunk_id: string
  source_id: string
  document_id: string
  document_name: string
  page_number: number | null
  content: string
  score: number
}

export const STRATEGY_DEFAULTS: Record<Strategy, Record<string, unknown>> = {
  fixed_size: { chunk_size: 1000, chunk_overlap: 200 },
  sentence: { max_sentences: 5, chunk_overlap: 0 },
  paragraph: { target_size: 1200 },
  semantic: { target_size: 1200, threshold: 0.75 },
  recursive: { chunk_size: 1000, chunk_overlap: 200 },
}

export const knowledgeApi = {
  sources: () => api.get<PageResult<KnowledgeSource>>('/knowledge-sources', { query: { size: 100 } }),
  createSource: (body: {
    name: string
    description?: string
    default_chunking_strategy: Strategy
    default_chunking_params: Record<string, unknown>
  }) => api.post<KnowledgeSource>('/knowledge-sources', body, { quiet: true }),
  updateSource: (
    id: string,
    body: Partial<
      Pick<KnowledgeSource, 'name' | 'description' | 'default_chunking_strategy' | 'default_chunking_params'>
    >,
  ) => api.patch<KnowledgeSource>(`/knowledge-sources/${id}`, body, { quiet: true }),
  documents: (id: string) =>
    api.get<PageResult<KnowledgeDocument>>(`/knowledge-sources/${id}/documents`, { query: { size: 100 } }),
  upload(id: string, files: File[]) {
    const form = new FormData()
    for (const file of files) form.append('file', file)
    return api.post<unknown>(`/knowledge-sources/${id}/documents`, form, { quiet: true })
  },
  deleteDocument: (sourceId: string, documentId: string) =>
    api.delete<void>(`/knowledge-sources/${sourceId}/documents/${documentId}`),
  ingest: (id: string) => api.post<IngestionJob>(`/knowledge-sources/${id}/ingest`, {}),
  jobs: (id: string) =>
    api.get<PageResult<IngestionJob>>(`/knowledge-sources/${id}/ingestion-jobs`, { query: { size: 10 } }),
  query: (body: { query: string; source_ids?: string[]; agent_id?: string; top_k?: number }) =>
    api.post<{ items: RetrievedItem[] }>('/retrieval/query', body),
}
