import { defineErrors } from '../platform/errors'

export const KnowledgeErrors = defineErrors({
  KNOWLEDGE_SOURCE_NOT_FOUND: { status: 404, message: 'Knowledge source not found.' },
  DOCUMENT_NOT_FOUND: { status: 404, message: 'Document not found.' },
  INGESTION_JOB_NOT_FOUND: { status: 404, message: 'Ingestion job not found.' },
  MOUNT_NOT_FOUND: { status: 404, message: 'This source is not mounted on the agent.' },
  ALREADY_MOUNTED: { status: 409, message: 'This source is already mounted on the agent.' },
  UNSAFE_ARCHIVE: {
    status: 422,
    message: 'The .docx file was refused: it inflates beyond what it declares or what a document needs.',
  },
  NO_FILE: { status: 422, message: 'Send one or more files in the multipart field "file".' },
  PASSAGE_NOT_FOUND: { status: 404, message: 'Passage not found (the document may have been re-indexed).' },
  DOCUMENT_PAGE_NOT_FOUND: { status: 404, message: 'This document has no such page (only PDFs have pages).' },
  DOCUMENT_PAGE_UNREADABLE: { status: 422, message: 'The page could not be taken out of this PDF.' },
  DOCUMENT_FILE_MISSING: { status: 410, message: 'The stored file of this document is no longer available.' },
})
