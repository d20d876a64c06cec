import { extractWithInvoiceRanker } from '../../../src-server/document-recognition/extraction/invoice-ranker/rank'
import { readPdfText } from '../../../src-server/document-recognition/pipeline/pdf-pages'
import { shippedExtractorConfig } from './fixture-accuracy'
import { invoicePdf, type PrintedLine } from './invoice-documents'

const config = shippedExtractorConfig('invoice-extractor')

/** The shipped invoice extractor's ranker over a PDF printed with `lines`: its fields by key. */
export async function rankedInvoiceFields(lines: PrintedLine[]) {
  const pages = await readPdfText({ bytes: await invoicePdf(lines) })
  const fields = extractWithInvoiceRanker(config.fields, pages)
  return Object.fromEntries(fields.map((f) => [f.key, f]))
}
