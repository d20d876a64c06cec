import path from 'node:path'
import { isZip, readZipEntries } from './zip-guard'

export const DOCUMENT_KINDS = ['pdf', 'docx', 'text', 'markdown', 'html', 'csv'] as const
export type DocumentKind = (typeof DOCUMENT_KINDS)[number]

const BY_EXTENSION: Record<string, DocumentKind> = {
  '.pdf': 'pdf',
  '.docx': 'docx',
  '.txt': 'text',
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.html': 'html',
  '.htm': 'html',
  '.csv': 'csv',
}

export const MIME_TYPES: Record<DocumentKind, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  text: 'text/plain',
  markdown: 'text/markdown',
  html: 'text/html',
  csv: 'text/csv',
}

const KIND_BY_MIME = new Map(Object.entries(MIME_TYPES).map(([kind, mime]) => [mime, kind as DocumentKind]))

export function kindOfMime(mimeType: string): DocumentKind | null {
  return KIND_BY_MIME.get(mimeType) ?? null
}

/**
 * The kind of an upload, judged by its name and confirmed by its bytes: a PDF must start like one, a docx must
 * be a ZIP holding `word/document.xml`, and text kinds must be UTF-8 without NUL or other binary control bytes.
 * Null when it is not an accepted kind.
 */
export function detectKind(fileName: string, bytes: Uint8Array): DocumentKind | null {
  const kind = BY_EXTENSION[path.extname(fileName).toLowerCase()]
  if (!kind) return null
  switch (kind) {
    case 'pdf':
      return looksLikePdf(bytes) ? kind : null
    case 'docx':
      return isZip(bytes) && (readZipEntries(bytes)?.some((e) => e.name === 'word/document.xml') ?? false)
        ? kind
        : null
    default:
      return decodeText(bytes) === null ? null : kind
  }
}

function looksLikePdf(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1')
  return head.includes('%PDF-')
}

/** UTF-8 text without a BOM, or null for bytes that are not text. */
export function decodeText(bytes: Uint8Array): string | null {
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes)
  } catch {
    return null
  }
  // Control characters other than tab, newlines and form feed mean a binary file with a text name.
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0c && code !== 0x0d) || code === 0x7f)
      return null
  }
  return text
}
