import type { ExtractedField } from './extraction/extracted-field'
import type { ExtractionConfig, FieldDefinition } from './extraction/field-config'
import { rankInvoiceFields } from './extraction/invoice-ranker/rank'
import { loadLexicon } from './extraction/lexicon'
import { extractFromReadings } from './extraction/readings'
import type { PageText } from './page-text'
import { normaliseToPdf } from './pipeline/normalise'
import { prepareForOcr } from './pipeline/ocr-image'
import { readWithPaddle } from './pipeline/paddle-ocr'
import { readPdfText, renderPdfPage } from './pipeline/pdf-pages'

/**
 * Document recognition's CPU-heavy steps, run on worker threads: an upload made a PDF (images decoded and
 * scaled), the text layer, page rendering, the image
 * tesseract reads (decoding, the line-height pixel loop, resampling), PaddleOCR's reading of a scan (its models
 * load on each thread's first reading), and the rules' extraction over the pages' readings (tens of milliseconds for an invoice; the word list it checks names against loads on each thread's
 * first extraction).
 */
export const documentRecognitionWorkerTasks = {
  normaliseDocument: (input: { bytes: Uint8Array; mimeType: string; maxPages: number }) =>
    normaliseToPdf(input.bytes, input.mimeType, input.maxPages),
  documentText: readPdfText,
  renderPdfPage,
  prepareOcrImage: (input: { bytes: Uint8Array }) => prepareForOcr(input.bytes),
  readWithPaddle,
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
