import type { AuthUser } from '../auth'
import { CommonErrors } from '../platform/errors'
import { type PageQuery, pageWindow, type ReceivedFile, toPage } from '../platform/http'
import type { WorkerPool } from '../platform/jobs'
import type { BlobStore } from '../platform/storage'
import { assertCitedPartReadable, type KnowledgeStores, manageableSource, readableSource } from './access'
import { KnowledgeErrors } from './knowledge.errors'
import { presentDocument } from './knowledge.presenters'
import {
  deleteDocument,
  findDocument,
  findDocumentBySha,
  findPassage,
  insertDocument,
  listDocuments,
} from './knowledge.repository'
import type { DocumentDto, PassageDto } from './knowledge.schemas'
import { fileSource } from './parsing/byte-source'
import { detectKind, MIME_TYPES } from './parsing/sniff'

export interface UploadOutcome {
  document: DocumentDto
  created: boolean
}

/** Taking one page out of a PDF parses the whole file: bounded like a parse, on a worker thread. */
const PAGE_TIMEOUT_MS = 60_000

export function createDocumentsService(stores: KnowledgeStores, blobs: BlobStore, workers: WorkerPool) {
  const reader = stores.database.reader
  async function storedBytes(row: { sha256: string }) {
    if (!blobs.has(row.sha256)) throw KnowledgeErrors.DOCUMENT_FILE_MISSING()
    return blobs.readBytes(row.sha256)
  }

  return {
    async assertManageable(caller: AuthUser, sourceId: string): Promise<void> {
      await manageableSource(stores, caller, sourceId)
    },

    /**
     * Every file is checked before any is stored, so a bad file in a batch changes nothing. The same bytes
     * already in the source answer with the existing document instead of a duplicate.
     */
    async upload(caller: AuthUser, sourceId: string, files: ReceivedFile[]): Promise<UploadOutcome[]> {
      await manageableSource(stores, caller, sourceId)
      if (files.length === 0) throw KnowledgeErrors.NO_FILE()
      const checked = []
      // One file at a time: each is read in ranges and streams, so a batch never sits in memory.
      for (const file of files) {
        if (file.size === 0) throw CommonErrors.EMPTY_FILE({ file_name: file.fileName })
        const detection = await detectKind(file.fileName, fileSource(file.path, file.size))
        if ('refused' in detection && detection.refused === 'unsafe')
          throw KnowledgeErrors.UNSAFE_ARCHIVE(
            { file_name: file.fileName, reason: detection.reason },
            `${file.fileName} was refused because ${detection.reason}.`,
          )
        if (!('kind' in detection))
          throw CommonErrors.UNSUPPORTED_FILE_TYPE(
            { file_name: file.fileName, accepted: ['.txt', '.md', '.pdf', '.docx', '.html', '.csv'] },
            `${file.fileName} is not an accepted document (.txt, .md, .pdf, .docx, .html, .csv) or its content does not match its name.`,
          )
        checked.push({ ...file, kind: detection.kind })
      }
      const outcomes: UploadOutcome[] = []
      for (const file of checked) {
        const existing = await findDocumentBySha(reader, sourceId, file.sha256)
        if (existing) {
          outcomes.push({ document: presentDocument(existing), created: false })
          continue
        }
        await blobs.adopt(file.path, file)
        const row = await stores.database.transact((tx) =>
          insertDocument(tx, {
            sourceId,
            fileName: file.fileName,
            mimeType: MIME_TYPES[file.kind],
            sizeBytes: file.size,
            sha256: file.sha256,
          }),
        )
        // A concurrent upload of the same bytes won the insert: answer with its document.
        const document = row ?? (await findDocumentBySha(reader, sourceId, file.sha256))
        if (!document) throw CommonErrors.INTERNAL_ERROR()
        outcomes.push({ document: presentDocument(document), created: Boolean(row) })
      }
      return outcomes
    },

    async list(caller: AuthUser, sourceId: string, query: PageQuery) {
      await manageableSource(stores, caller, sourceId)
      const { rows, total } = await listDocuments(reader, sourceId, pageWindow(query))
      return toPage(rows.map(presentDocument), total, query)
    },

    /** The whole original: only whoever may read the source (a citation grants its passage and page, not this). */
    async file(caller: AuthUser, sourceId: string, documentId: string) {
      await readableSource(stores, caller, sourceId)
      const row = await findDocument(reader, sourceId, documentId)
      if (!row) throw KnowledgeErrors.DOCUMENT_NOT_FOUND()
      return { fileName: row.fileName, mimeType: row.mimeType, bytes: await storedBytes(row) }
    },

    /** One passage (chunk): whoever may read the source, or was cited it by a standing citation. */
    async passage(
      caller: AuthUser,
      sourceId: string,
      documentId: string,
      chunkId: string,
    ): Promise<PassageDto> {
      await assertCitedPartReadable(stores, caller, sourceId, documentId, { chunkId })
      const found = await findPassage(reader, sourceId, documentId, chunkId)
      if (!found) throw KnowledgeErrors.PASSAGE_NOT_FOUND()
      return {
        chunk_id: found.chunkId,
        source_id: sourceId,
        document_id: documentId,
        document_name: found.documentName,
        page_number: found.pageNumber,
        content: found.content,
      }
    },

    /** One page of a PDF, as a PDF of its own: whoever may read the source, or was cited a passage on it. */
    async page(caller: AuthUser, sourceId: string, documentId: string, pageNumber: number) {
      await assertCitedPartReadable(stores, caller, sourceId, documentId, { pageNumber })
      const row = await findDocument(reader, sourceId, documentId)
      if (!row) throw KnowledgeErrors.DOCUMENT_NOT_FOUND()
      if (row.mimeType !== MIME_TYPES.pdf || row.pageCount === null || pageNumber > row.pageCount)
        throw KnowledgeErrors.DOCUMENT_PAGE_NOT_FOUND({ page_count: row.pageCount })
      const bytes = await storedBytes(row)
      const page = await workers
        .run<Uint8Array>(
          'knowledgePdfPage',
          { bytes, pageNumber },
          {
            timeoutMs: PAGE_TIMEOUT_MS,
            timeoutMessage: 'Taking the page out took too long.',
            transfer: [bytes],
          },
        )
        .catch(() => {
          throw KnowledgeErrors.DOCUMENT_PAGE_UNREADABLE()
        })
      const stem = row.fileName.replace(/\.pdf$/i, '')
      return { fileName: `${stem} (page ${pageNumber}).pdf`, bytes: Buffer.from(page) }
    },

    async get(caller: AuthUser, sourceId: string, documentId: string): Promise<DocumentDto> {
      await manageableSource(stores, caller, sourceId)
      const row = await findDocument(reader, sourceId, documentId)
      if (!row) throw KnowledgeErrors.DOCUMENT_NOT_FOUND()
      return presentDocument(row)
    },

    /** Chunks go with the row (cascade; FTS and vectors through triggers); the blob once nothing holds it. */
    async delete(caller: AuthUser, sourceId: string, documentId: string): Promise<void> {
      await manageableSource(stores, caller, sourceId)
      const row = await findDocument(reader, sourceId, documentId)
      if (!row) throw KnowledgeErrors.DOCUMENT_NOT_FOUND()
      await stores.database.transact((tx) => deleteDocument(tx, row.id))
      await blobs.release(row.sha256)
    },
  }
}
