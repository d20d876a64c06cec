import { eq } from 'drizzle-orm'
import type { AuthUser } from '../auth'
import type { Db } from '../db'
import { CommonErrors } from '../errors'
import { type PageQuery, pageWindow, type ReceivedFile, toPage } from '../http'
import type { BlobStore } from '../storage'
import { assertDocumentReadable, manageableSource } from './access'
import { documentDto } from './dto'
import { KnowledgeErrors } from './knowledge.errors'
import { findDocument, findDocumentBySha, listDocuments } from './knowledge.repository'
import type { DocumentDto } from './knowledge.schemas'
import { knowledgeDocument } from './knowledge.tables'
import { fileSource } from './parsing/byte-source'
import { detectKind, MIME_TYPES } from './parsing/sniff'

export interface UploadOutcome {
  document: DocumentDto
  created: boolean
}

export function createDocumentsService(db: Db, blobs: BlobStore) {
  return {
    assertManageable(caller: AuthUser, sourceId: string): void {
      manageableSource(db, caller, sourceId)
    },

    /**
     * Every file is checked before any is stored, so a bad file in a batch changes nothing. The same bytes
     * already in the source answer with the existing document instead of a duplicate.
     */
    async upload(caller: AuthUser, sourceId: string, files: ReceivedFile[]): Promise<UploadOutcome[]> {
      manageableSource(db, caller, sourceId)
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
        const existing = findDocumentBySha(db, sourceId, file.sha256)
        if (existing) {
          outcomes.push({ document: documentDto(existing), created: false })
          continue
        }
        await blobs.adopt(file.path, file)
        const row = db
          .insert(knowledgeDocument)
          .values({
            sourceId,
            fileName: file.fileName,
            mimeType: MIME_TYPES[file.kind],
            sizeBytes: file.size,
            sha256: file.sha256,
          })
          .onConflictDoNothing()
          .returning()
          .get()
        // A concurrent upload of the same bytes won the insert: answer with its document.
        const document = row ?? findDocumentBySha(db, sourceId, file.sha256)
        if (!document) throw CommonErrors.INTERNAL_ERROR()
        outcomes.push({ document: documentDto(document), created: Boolean(row) })
      }
      return outcomes
    },

    list(caller: AuthUser, sourceId: string, query: PageQuery) {
      manageableSource(db, caller, sourceId)
      const { rows, total } = listDocuments(db, sourceId, pageWindow(query))
      return toPage(rows.map(documentDto), total, query)
    },

    /** The original bytes, for opening a cited document: whoever may read the source, or was cited it. */
    async file(caller: AuthUser, sourceId: string, documentId: string) {
      assertDocumentReadable(db, caller, sourceId, documentId)
      const row = findDocument(db, sourceId, documentId)
      if (!row) throw KnowledgeErrors.DOCUMENT_NOT_FOUND()
      if (!blobs.has(row.sha256)) throw KnowledgeErrors.DOCUMENT_FILE_MISSING()
      return { fileName: row.fileName, mimeType: row.mimeType, bytes: await blobs.readBytes(row.sha256) }
    },

    get(caller: AuthUser, sourceId: string, documentId: string): DocumentDto {
      manageableSource(db, caller, sourceId)
      const row = findDocument(db, sourceId, documentId)
      if (!row) throw KnowledgeErrors.DOCUMENT_NOT_FOUND()
      return documentDto(row)
    },

    /** Chunks go with the row (cascade; FTS and vectors through triggers); the blob once nothing holds it. */
    async delete(caller: AuthUser, sourceId: string, documentId: string): Promise<void> {
      manageableSource(db, caller, sourceId)
      const row = findDocument(db, sourceId, documentId)
      if (!row) throw KnowledgeErrors.DOCUMENT_NOT_FOUND()
      db.delete(knowledgeDocument).where(eq(knowledgeDocument.id, row.id)).run()
      await blobs.release(row.sha256)
    },
  }
}
