import { describe, expect, it } from 'vitest'
import {
  candidatesOf,
  pageContexts,
} from '../../src-server/document-recognition/extraction/invoice-ranker/candidates'
import type { PageText } from '../../src-server/document-recognition/page-text'
import { readPdfText } from '../../src-server/document-recognition/pipeline/pdf-pages'
import { englishBody, invoicePdf, type PrintedLine } from '../helpers/document-recognition/invoice-documents'
import { rankedFieldsOfPages } from '../helpers/document-recognition/ranked-invoice'

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

const invoice = (header: PrintedLine[]): PrintedLine[] => [
  ...header,
  { text: 'Harbour Road 4, 12345 Brighton', x: 50, y: 62, size: 8 },
  { text: 'Tel. +44 123 4567890', x: 50, y: 73, size: 8 },
  { text: 'Bill To:', x: 50, y: 122, size: 8 },
  { text: 'Ivy Logistics Ltd', x: 50, y: 135 },
  { text: '12 Mill Lane', x: 50, y: 150 },
  { text: 'Leeds LS1 4AB', x: 50, y: 165 },
  ...englishBody(),
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
      const fields = rankedFieldsOfPages(pages)
      expect(fields.seller_name?.value).toBe('Harbour Consulting Ltd')
      expect(fields.buyer_name?.value).toBe('Ivy Logistics Ltd')
    }
  })

  it('keeps a capitalised name and a legal form OCR is unsure of, and reads a text layer as before', async () => {
    const header = [{ text: 'Harbour Consulting Ltd', x: 50, y: 40, size: 15 }]
    const unsure = rankedFieldsOfPages(await scanReading(invoice(header), { Ivy: 0.45, Ltd: 0.3 }))
    expect(unsure.seller_name?.value).toBe('Harbour Consulting Ltd')
    expect(unsure.buyer_name?.value).toBe('Ivy Logistics Ltd')
    const text = rankedFieldsOfPages(await readPdfText({ bytes: await invoicePdf(invoice(header)) }))
    expect(text.seller_name?.value).toBe('Harbour Consulting Ltd')
    expect(text.buyer_name?.value).toBe('Ivy Logistics Ltd')
  })
})
