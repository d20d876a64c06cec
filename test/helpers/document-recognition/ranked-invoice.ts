import { extractWithInvoiceRanker } from '../../../src-server/document-recognition/extraction/invoice-ranker/rank'
import type { PageText } from '../../../src-server/document-recognition/page-text'
import { readPdfText } from '../../../src-server/document-recognition/pipeline/pdf-pages'
import { shippedExtractorConfig } from './fixture-accuracy'
import { invoicePdf, type PrintedLine } from './invoice-documents'

const config = shippedExtractorConfig('invoice-extractor')

/** The shipped invoice extractor's ranker over pages as read (a text layer, or OCR's words): its fields by key. */
export function rankedFieldsOfPages(pages: PageText[]) {
  const fields = extractWithInvoiceRanker(config.fields, pages)
  return Object.fromEntries(fields.map((f) => [f.key, f]))
}

/** The shipped invoice extractor's ranker over a PDF printed with `lines`: its fields by key. */
export async function rankedInvoiceFields(lines: PrintedLine[]) {
  return rankedFieldsOfPages(await readPdfText({ bytes: await invoicePdf(lines) }))
}
