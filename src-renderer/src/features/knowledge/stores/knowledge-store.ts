import { create } from 'zustand'
import {
  type IngestionJob,
  type KnowledgeDocument,
  type KnowledgeSource,
  knowledgeApi,
} from '../api/knowledge-api'

interface KnowledgeState {
  sources: KnowledgeSource[]
  selectedId: string | null
  documents: KnowledgeDocument[]
  jobs: IngestionJob[]
  loadSources(): Promise<void>
  /** Chooses a source; its detail fetches the documents and jobs (see SourceDetail's load). */
  select(id: string | null): void
  refreshSelected(): Promise<void>
  upload(files: File[]): Promise<void>
  ingest(): Promise<void>
}

export const useKnowledge = create<KnowledgeState>((set, get) => ({
  sources: [],
  selectedId: null,
  documents: [],
  jobs: [],
  async loadSources() {
    const sources = (await knowledgeApi.sources()).items
    set({ sources })
    if (!get().selectedId && sources[0]) get().select(sources[0].id)
  },
  select(id) {
    set({ selectedId: id, documents: [], jobs: [] })
  },
  async refreshSelected() {
    const id = get().selectedId
    if (!id) return
    // The source list is refreshed too: its document and chunk counts move with uploads and ingestion.
    const [documents, jobs, sources] = await Promise.all([
      knowledgeApi.documents(id),
      knowledgeApi.jobs(id),
      knowledgeApi.sources(),
    ])
    if (get().selectedId === id) set({ documents: documents.items, jobs: jobs.items, sources: sources.items })
  },
  async upload(files) {
    const id = get().selectedId
    if (!id) return
    await knowledgeApi.upload(id, files)
    await get().refreshSelected()
  },
  async ingest() {
    const id = get().selectedId
    if (!id) return
    await knowledgeApi.ingest(id)
    await get().refreshSelected()
  },
}))

export const jobActive = (job: IngestionJob) => job.status === 'queued' || job.status === 'running'
