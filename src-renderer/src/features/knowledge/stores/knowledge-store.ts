import type { RetrievalQueryBody } from '@server/knowledge/knowledge.schemas'
import { create } from 'zustand'
import { ApiError } from '../../../lib/api-client'
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

/** A cited document as the console shows it: text decoded, anything else held as an object URL. */
export type CitedFile =
  | { kind: 'pdf'; url: string }
  | { kind: 'text'; text: string }
  | { kind: 'other'; url: string; mimeType: string }

export interface CitedDocument {
  sourceId: string
  documentId: string
  title: string
  file: CitedFile
  /** The whole document (its source is readable), or only what the citation grants: its PDF page or passage. */
  part: 'whole' | 'page' | 'passage'
}

/** What a citation names, for a reader who may open only that. */
export interface CitedPart {
  chunkId?: string
  page?: number
}

const TEXT_TYPES = /^(?:text\/|application\/(?:json|xml|csv))/

/** Frees the file an object URL holds; text holds none. */
function release(document: CitedDocument | null) {
  if (document && document.file.kind !== 'text') URL.revokeObjectURL(document.file.url)
}

/**
 * The whole document for a reader of its source; anyone else (a buyer of the agent that cited it) gets 404 there
 * and is shown what the citation grants: the cited page of a PDF, or the cited passage.
 */
async function citedFile(sourceId: string, documentId: string, cited: CitedPart) {
  try {
    return { ...(await knowledgeApi.file(sourceId, documentId)), part: 'whole' as const }
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404) || !cited.chunkId) throw error
  }
  if (cited.page)
    return { ...(await knowledgeApi.page(sourceId, documentId, cited.page)), part: 'page' as const }
  const passage = await knowledgeApi.passage(sourceId, documentId, cited.chunkId)
  return {
    blob: new Blob([passage.content], { type: 'text/plain' }),
    mimeType: 'text/plain',
    fileName: passage.document_name,
    part: 'passage' as const,
  }
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
  /** The cited document open in the console (one at a time: opening another or closing frees its file). */
  citedDocument: CitedDocument | null
  openCitedDocument(sourceId: string, documentId: string, cited?: CitedPart): Promise<void>
  closeCitedDocument(): void
}

/**
 * A question asked again, or another cited document opened (or the page closed) before the last answer came,
 * drops that answer.
 */
const current = latestAnswers<'playground' | 'citedDocument'>()

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
  citedDocument: null,
  async openCitedDocument(sourceId, documentId, cited = {}) {
    await current(
      'citedDocument',
      async () => {
        const file = await citedFile(sourceId, documentId, cited)
        const text = TEXT_TYPES.test(file.mimeType)
          ? new TextDecoder('utf-8').decode(await file.blob.arrayBuffer())
          : null
        return { ...file, text }
      },
      ({ blob, mimeType, fileName, text, part }) => {
        // The object URL is made only for the answer kept, so a dropped answer holds no file.
        const file: CitedFile =
          text !== null
            ? { kind: 'text', text }
            : mimeType === 'application/pdf'
              ? { kind: 'pdf', url: URL.createObjectURL(blob) }
              : { kind: 'other', url: URL.createObjectURL(blob), mimeType }
        release(get().citedDocument)
        set({ citedDocument: { sourceId, documentId, title: fileName, file, part } })
      },
    )
  },
  closeCitedDocument() {
    // Closing counts as the newest request, so a file still on its way is dropped rather than kept.
    void current(
      'citedDocument',
      async () => null,
      () => {
        release(get().citedDocument)
        set({ citedDocument: null })
      },
    )
  },
}))

forgetOnSignOut(useKnowledge, (state) => release(state.citedDocument))
