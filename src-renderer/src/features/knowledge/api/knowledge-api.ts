import type {
  CreateSourceBody,
  DocumentDto,
  IngestionJobDto,
  KnowledgeSourceDto,
  RetrievalQueryBody,
  RetrievedChunkSchema,
  UpdateSourceBody,
} from '@server/knowledge/knowledge.schemas'
import type { PageResult } from '@server/platform/http/pagination'
import type { Static } from 'typebox'
import { api } from '../../../lib/api-client'

export type Strategy = KnowledgeSourceDto['default_chunking_strategy']
export type KnowledgeSource = KnowledgeSourceDto
export type KnowledgeDocument = DocumentDto
export type IngestionJob = IngestionJobDto
export type RetrievedItem = Static<typeof RetrievedChunkSchema>

export const STRATEGY_DEFAULTS: Record<Strategy, Record<string, unknown>> = {
  fixed_size: { chunk_size: 1000, chunk_overlap: 200 },
  sentence: { max_sentences: 5, chunk_overlap: 0 },
  paragraph: { target_size: 1200 },
  semantic: { target_size: 1200, threshold: 0.75 },
  recursive: { chunk_size: 1000, chunk_overlap: 200 },
}

export const knowledgeApi = {
  sources: () => api.get<PageResult<KnowledgeSource>>('/knowledge-sources', { query: { size: 100 } }),
  createSource: (body: CreateSourceBody) => api.post<KnowledgeSource>('/knowledge-sources', body),
  updateSource: (id: string, body: UpdateSourceBody) =>
    api.patch<KnowledgeSource>(`/knowledge-sources/${id}`, body),
  documents: (id: string) =>
    api.get<PageResult<KnowledgeDocument>>(`/knowledge-sources/${id}/documents`, { query: { size: 100 } }),
  upload(id: string, files: File[]) {
    const form = new FormData()
    for (const file of files) form.append('file', file)
    return api.post<unknown>(`/knowledge-sources/${id}/documents`, form)
  },
  deleteDocument: (sourceId: string, documentId: string) =>
    api.delete<void>(`/knowledge-sources/${sourceId}/documents/${documentId}`),
  ingest: (id: string) => api.post<IngestionJob>(`/knowledge-sources/${id}/ingest`, {}),
  jobs: (id: string) =>
    api.get<PageResult<IngestionJob>>(`/knowledge-sources/${id}/ingestion-jobs`, { query: { size: 10 } }),
  query: (body: RetrievalQueryBody) => api.post<{ items: RetrievedItem[] }>('/retrieval/query', body),
}
