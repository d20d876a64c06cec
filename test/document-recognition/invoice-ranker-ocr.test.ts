import { describe, expect, it } from 'vitest'
import {
  candidatesOf,
  pageContexts,
} from '../../src-server/document-recognition/extraction/invoice-ranker/candidates'
import { extractWithInvoiceRanker } from '../../src-server/document-recognition/extraction/invoice-ranker/rank'
import type { PageText } from '../../src-server/document-recognition/page-text'
import { readPdfText } from '../../src-server/document-recognition/pipeline/pdf-pages'
import { shippedExtractorConfig } from '../helpers/document-recognition/fixture-accuracy'
import { invoicePdf, type PrintedLine } from '../helpers/document-recognition/invoice-documents'

const config = shippedExtractorConfig('invoice-extractor')

/**
 * A PDF printed with `lines`, read as OCR reads a scan: every word certain (0.93) but those `uncertain` names,
 * which get the confidence OCR gives them (a logo's strokes read as letters, a word in an unusual face).
 */
async function scanReading(lines: PrintedLine[], uncertain: Record<string, number>): Promise<PageText[]> {
  const pages = await readPdfText({ bytes: await invoicePdf(lines) })
  return pages.map((page) => ({
    ...page,
    words: page.words.map((word) => ({ ...word, confidence: uncertain[word.text] ?? 0.93 })),
  }))
}

const rankedFields = (pages: PageText[]) =>
  Object.fromEntries(extractWithInvoiceRanker(config.fields, pages).map((f) => [f.key, f]))

const invoice = (header: PrintedLine[]): PrintedLine[] => [
  ...header,
  { text: 'Harbour Road 4, 12345 Brighton', x: 50, y: 62, size: 8 },
  { text: 'Tel. +44 123 4567890', x: 50, y: 73, size: 8 },
  { text: 'Bill To:', x: 50, y: 122, size: 8 },
  { text: 'Ivy Logistics Ltd', x: 50, y: 135 },
  { text: '12 Mill Lane', x: 50, y: 150 },
  { text: 'Leeds LS1 4AB', x: 50, y: 165 },
  { text: 'Invoice', x: 50, y: 215, size: 16 },
  { text: 'Invoice No.: INV-2023-0815', x: 330, y: 250 },
  { text: 'Date: 14/03/2023', x: 330, y: 265 },
  { text: 'Consulting services', x: 50, y: 320 },
  { text: '1,000.00', x: 480, y: 320 },
  { text: 'Subtotal', x: 330, y: 380 },
  { text: '1,000.00', x: 480, y: 380 },
  { text: 'VAT 20%', x: 330, y: 395 },
  { text: '200.00', x: 480, y: 395 },
  { text: 'Total', x: 330, y: 410 },
  { text: '1,200.00', x: 480, y: 410 },
]

describe('invoice parties read by OCR', () => {
  it('never takes a logo read as a word for a party, alone over the name or glued to its line', async () => {
    for (const header of [
      [
        { text: 'vwq', x: 50, y: 10, size: 22 },
        { text: 'Harbour Consulting Ltd', x: 50, y: 40, size: 15 },
      ],
      [{ text: 'Xl Harbour Consulting Ltd', x: 50, y: 40, size: 15 }],
    ]) {
      const pages = await scanReading(invoice(header), { vwq: 0.31, Xl: 0.22 })
      const names = candidatesOf('name', pageContexts(pages)).map((c) => String(c.value))
      expect(names.filter((name) => /vwq|Xl/.test(name))).toEqual([])
      const fields = rankedFields(pages)
      expect(fields.seller_name?.value).toBe('Harbour Consulting Ltd')
      expect(fields.buyer_name?.value).toBe('Ivy Logistics Ltd')
    }
  })

  it('keeps a capitalised name and a legal form OCR is unsure of, and reads a text layer as before', async () => {
    const header = [{ text: 'Harbour Consulting Ltd', x: 50, y: 40, size: 15 }]
    const unsure = rankedFields(await scanReading(invoice(header), { Ivy: 0.45, Ltd: 0.3 }))
    expect(unsure.seller_name?.value).toBe('Harbour Consulting Ltd')
    expect(unsure.buyer_name?.value).toBe('Ivy Logistics Ltd')
    const text = rankedFields(await readPdfText({ bytes: await invoicePdf(invoice(header)) }))
    expect(text.seller_name?.value).toBe('Harbour Consulting Ltd')
    expect(text.buyer_name?.value).toBe('Ivy Logistics Ltd')
  })
})
