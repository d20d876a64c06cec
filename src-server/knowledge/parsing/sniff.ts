import path from 'node:path'
import type { ByteSource } from './byte-source'
import { isZip, readZipEntries, zipGuardReason } from './zip-guard'

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

/** A file judged: its kind, or why it is refused (not an accepted kind, or a docx that is a zip bomb). */
export type Detection =
  | { kind: DocumentKind }
  | { refused: 'unsupported' }
  | { refused: 'unsafe'; reason: string }

/**
 * The kind of an upload, judged by its name and confirmed by its bytes, read in ranges and streams rather than
 * whole: a PDF must start like one; a docx must be a ZIP holding `word/document.xml` that passes the zip guard
 * (every entry inflated and counted); text kinds must be UTF-8 without NUL or other binary control bytes.
 */
export async function detectKind(fileName: string, source: ByteSource): Promise<Detection> {
  const unsupported = { refused: 'unsupported' } as const
  const kind = BY_EXTENSION[path.extname(fileName).toLowerCase()]
  if (!kind) return unsupported
  switch (kind) {
    case 'pdf':
      return looksLikePdf(await source.read(0, 1024)) ? { kind } : unsupported
    case 'docx': {
      const entries = (await isZip(source)) ? await readZipEntries(source) : null
      if (!entries?.some((e) => e.name === 'word/document.xml')) return unsupported
      const reason = await zipGuardReason(source, entries)
      return reason ? { refused: 'unsafe', reason } : { kind }
    }
    default:
      return (await isTextStream(source)) ? { kind } : unsupported
  }
}

function looksLikePdf(head: Uint8Array): boolean {
  return Buffer.from(head).toString('latin1').includes('%PDF-')
}

/** `decodeText`'s judgement over a stream, chunk by chunk, stopping at the first byte that is not text. */
async function isTextStream(source: ByteSource): Promise<boolean> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false })
  const stream = source.stream(0, source.size)
  try {
    for await (const chunk of stream) {
      if (hasBinaryControl(decoder.decode(chunk as Uint8Array, { stream: true }))) return false
    }
    return !hasBinaryControl(decoder.decode())
  } catch {
    return false
  } finally {
    stream.destroy()
  }
}

/** Control characters other than tab, newlines and form feed mean a binary file with a text name. */
function hasBinaryControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0c && code !== 0x0d) || code === 0x7f)
      return true
  }
  return false
}

/** UTF-8 text without a BOM, or null for bytes that are not text. */
export function decodeText(bytes: Uint8Array): string | null {
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes)
  } catch {
    return null
  }
  return hasBinaryControl(text) ? null : text
}
