import type { RetrievalQueryBody } from '@server/knowledge/knowledge.schemas'
import { create } from 'zustand'
import { latestAnswers } from '../../../lib/latest-answer'
import { errorMessage } from '../../../lib/use-load'
import { forgetOnSignOut } from '../../../stores/session-store'
import {
  type IngestionJob,
  type KnowledgeDocument,
  type KnowledgeSource,
  knowledgeApi,
  type RetrievedItem,
} from '../api/knowledge-api'

export const ACCEPTED_EXTENSIONS = ['.txt', '.md', '.pdf', '.docx', '.html', '.csv']
/** The server's multipart limit per file (src-server/platform/http/uploads.ts MAX_UPLOAD_BYTES). */
export const MAX_FILE_MB = 50

export interface UploadReport {
  uploaded: string[]
  refused: { name: string; reason: string }[]
}

/** Why a file is refused before it is sent (the server checks the content again), or null. */
function refusalOf(file: File): string | null {
  const extension = file.name.includes('.') ? file.name.slice(file.name.lastIndexOf('.')).toLowerCase() : ''
  if (!ACCEPTED_EXTENSIONS.includes(extension))
    return `Not an accepted type; use ${ACCEPTED_EXTENSIONS.join(', ')}.`
  if (file.size === 0) return 'The file is empty.'
  if (file.size > MAX_FILE_MB * 1024 * 1024)
    return `${(file.size / 1024 / 1024).toFixed(1)} MB is over the ${MAX_FILE_MB} MB limit per file.`
  return null
}

export const jobActive = (job: IngestionJob) => job.status === 'queued' || job.status === 'running'

interface KnowledgeState {
  sources: KnowledgeSource[]
  selectedId: string | null
  documents: KnowledgeDocument[]
  jobs: IngestionJob[]
  loadSources(): Promise<void>
  /** Chooses a source; its detail fetches the documents and jobs (see SourceDetail's load). */
  select(id: string | null): void
  refreshSelected(): Promise<void>
  /** Uploads each acceptable file on its own, so one refused file does not refuse the others. */
  upload(files: File[]): Promise<UploadReport>
  ingest(): Promise<void>
  /** Re-reads the selected source while one of its ingestion jobs is active; returns the stop. */
  followIngestion(): () => void
  /** The retrieval playground's last question and its answer; null before the first. */
  playground: { query: string; hits: RetrievedItem[] } | null
  askPlayground(body: RetrievalQueryBody): Promise<void>
}

/** A question asked again before the last answer came drops that answer. */
const current = latestAnswers<'playground'>()

/** How often a running ingestion is re-read: the server has no live feed for ingestion jobs. */
const PROGRESS_MS = 1000

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
    const report: UploadReport = { uploaded: [], refused: [] }
    const id = get().selectedId
    if (!id) return report
    for (const file of files) {
      const refusal = refusalOf(file)
      if (refusal) {
        report.refused.push({ name: file.name, reason: refusal })
        continue
      }
      try {
        await knowledgeApi.upload(id, [file])
        report.uploaded.push(file.name)
      } catch (caught) {
        report.refused.push({ name: file.name, reason: errorMessage(caught, 'The upload failed.') })
      }
    }
    await get().refreshSelected()
    return report
  },
  async ingest() {
    const id = get().selectedId
    if (!id) return
    await knowledgeApi.ingest(id)
    await get().refreshSelected()
  },
  followIngestion() {
    const timer = setInterval(() => {
      // A failed re-read leaves the last progress on screen; the next tick tries again.
      if (get().jobs.some(jobActive))
        void get()
          .refreshSelected()
          .catch(() => undefined)
    }, PROGRESS_MS)
    return () => clearInterval(timer)
  },
  playground: null,
  async askPlayground(body) {
    await current(
      'playground',
      () => knowledgeApi.query(body),
      (answer) => set({ playground: { query: body.query, hits: answer.items } }),
    )
  },
}))

forgetOnSignOut(useKnowledge)
