import type { ExtractedField } from './extraction/extracted-field'
import type { ExtractionConfig, FieldDefinition } from './extraction/field-config'
import { rankInvoiceFields } from './extraction/invoice-ranker/rank'
import { loadLexicon } from './extraction/lexicon'
import { extractFromReadings } from './extraction/readings'
import type { PageText } from './page-text'
import { normaliseToPdf } from './pipeline/normalise'
import { readWithTesseract } from './pipeline/ocr'
import { preparePaddle, readWithPaddle } from './pipeline/paddle-ocr'
import { readPdfText, renderPdfPage } from './pipeline/pdf-pages'

/**
 * Document recognition's CPU-heavy steps that run on the server's worker threads, for the review: a page's text
 * layer and its rendering (page images, a region read again).
 */
export const documentRecognitionWorkerTasks = {
  documentText: readPdfText,
  renderPdfPage,
}

/**
 * A document's steps, run in child processes (`pipeline/reading-processes.ts`): an upload made a PDF (images
 * decoded and scaled), its text layer, a scanned page rendered for OCR, tesseract's reading (the image prepared for
 * it, then read), PaddleOCR's, and the rules' extraction over the pages' readings (the word list it checks names
 * against loads on the process's first extraction). Their memory (libvips, pdfjs, a WebAssembly heap, ONNX
 * Runtime) is given back only when a process exits, and a worker thread in the server kept ~140 MB after one
 * document.
 */
export const documentRecognitionProcessTasks = {
  normaliseDocument: (input: { bytes: Uint8Array; mimeType: string; maxPages: number }) =>
    normaliseToPdf(input.bytes, input.mimeType, input.maxPages),
  documentText: readPdfText,
  renderPdfPage,
  readWithTesseract,
  readWithPaddle,
  preparePaddle,
  extractFields: async (input: {
    fields: FieldDefinition[]
    readings: PageText[][]
    known: ExtractedField[]
    ranker?: ExtractionConfig['ranker']
  }) => {
    await loadLexicon()
    const read = extractFromReadings(input.fields, input.readings, input.known)
    if (input.ranker !== 'invoice') return read
    return { ...read, fields: rankInvoiceFields(input.fields, read.pages, read.fields) }
  },
}
