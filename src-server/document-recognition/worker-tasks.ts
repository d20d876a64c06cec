import type { ExtractedField } from './extraction/extracted-field'
import type { FieldDefinition } from './extraction/field-config'
import { loadLexicon } from './extraction/lexicon'
import { extractFromReadings } from './extraction/readings'
import type { PageText } from './page-text'
import { normaliseToPdf } from './pipeline/normalise'
import { readWithTesseract } from './pipeline/ocr'
import { readWithPaddle } from './pipeline/paddle-ocr'
import { readPdfText, renderPdfPage } from './pipeline/pdf-pages'

/**
 * Document recognition's CPU-heavy steps that run on the server's worker threads: the text layer, page rendering
 * for the review (page images, a region read again), and the rules' extraction over the pages' readings (tens of
 * milliseconds for an invoice; the word list it checks names against loads on each thread's first extraction).
 */
export const documentRecognitionWorkerTasks = {
  documentText: readPdfText,
  renderPdfPage,
  extractFields: async (input: {
    fields: FieldDefinition[]
    readings: PageText[][]
    known: ExtractedField[]
  }) => {
    await loadLexicon()
    return extractFromReadings(input.fields, input.readings, input.known)
  },
}

/**
 * The steps that decode and read page images, run in child processes (`pipeline/reading-processes.ts`): an upload
 * made a PDF (images decoded and scaled), a scanned page rendered for OCR, tesseract's reading (the image prepared
 * for it, then read), PaddleOCR's. Their native memory (libvips, a WebAssembly heap, ONNX Runtime) is given back
 * only when a process exits.
 */
export const documentRecognitionProcessTasks = {
  normaliseDocument: (input: { bytes: Uint8Array; mimeType: string; maxPages: number }) =>
    normaliseToPdf(input.bytes, input.mimeType, input.maxPages),
  renderPdfPage,
  readWithTesseract,
  readWithPaddle,
}
