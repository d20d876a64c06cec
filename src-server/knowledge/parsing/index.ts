import { type ChunkingParams, type ChunkingStrategy, chunkDocument, type DocumentChunk } from '../chunking'
import { extractDocxText } from './docx'
import { htmlToText } from './html'
import { extractPdfPages } from './pdf'
import { type DocumentKind, decodeText } from './sniff'

export { type ByteSource, bytesSource, fileSource } from './byte-source'
export { extractPdfPage } from './pdf-page'
export {
  type Detection,
  DOCUMENT_KINDS,
  type DocumentKind,
  detectKind,
  kindOfMime,
  MIME_TYPES,
} from './sniff'

export interface ParsedDocument {
  /** One entry per page for paged documents, a single entry otherwise. */
  pages: string[]
  paged: boolean
}

/** Text of a stored file. Throws an Error whose message is fit for the document's `error_message`. */
export async function parseDocument(kind: DocumentKind, bytes: Uint8Array): Promise<ParsedDocument> {
  let parsed: ParsedDocument
  switch (kind) {
    case 'pdf':
      parsed = { pages: await extractPdfPages(bytes), paged: true }
      break
    case 'docx':
      parsed = { pages: [await extractDocxText(bytes)], paged: false }
      break
    default: {
      const text = decodeText(bytes)
      if (text === null) throw new Error('The file is not UTF-8 text.')
      parsed = { pages: [kind === 'html' ? await htmlToText(text) : text], paged: false }
    }
  }
  if (parsed.pages.every((page) => page.trim().length === 0))
    throw new Error(
      kind === 'pdf'
        ? 'The PDF has no text layer (scanned pages are not read by ingestion).'
        : 'The document contains no text.',
    )
  return parsed
}

export interface PreparedDocument {
  pageCount: number | null
  chunks: DocumentChunk[]
}

/** Parse and chunk in one step: the worker-thread task of ingestion (structured-cloneable in and out). */
export async function prepareDocument(input: {
  kind: DocumentKind
  bytes: Uint8Array
  strategy: ChunkingStrategy
  params: ChunkingParams
}): Promise<PreparedDocument> {
  const parsed = await parseDocument(input.kind, input.bytes)
  return {
    pageCount: parsed.paged ? parsed.pages.length : null,
    chunks: chunkDocument(parsed, input.strategy, input.params),
  }
}
