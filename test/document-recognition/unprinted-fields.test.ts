import { describe, expect, it } from 'vitest'
import type { ExtractedField } from '../../src-server/document-recognition/extraction/extracted-field'
import { notPrinted } from '../../src-server/document-recognition/extraction/extracted-field'
import { extractWithInvoiceRanker } from '../../src-server/document-recognition/extraction/invoice-ranker/rank'
import type { PageText } from '../../src-server/document-recognition/page-text'
import { readPdfText } from '../../src-server/document-recognition/pipeline/pdf-pages'
import { scorePages, shippedExtractorConfig } from '../helpers/document-recognition/fixture-accuracy'
import {
  INCLUDED_TAX_TOTAL,
  invoicePdf,
  invoiceToPerson,
  type PrintedLine,
} from '../helpers/document-recognition/invoice-documents'

const config = shippedExtractorConfig('invoice-extractor')

const invoice = invoiceToPerson
const withoutNet = INCLUDED_TAX_TOTAL

async function pagesOf(lines: PrintedLine[]) {
  return readPdfText({ bytes: await invoicePdf(lines) })
}
const fieldOf = (pages: PageText[], key: string) =>
  extractWithInvoiceRanker(config.fields, pages).find((f) => f.key === key) as ExtractedField

describe('fields the invoice does not print', () => {
  it('marks a net the invoice does not print as not printed: no net label, the tax printed, a text layer', async () => {
    const net = fieldOf(await pagesOf(invoice(withoutNet)), 'net_amount')
    expect(net).toMatchObject({ value: null, method: 'not_printed' })
  })

  it('keeps a net whose label is printed without a value read as not found, for a reviewer', async () => {
    const net = fieldOf(
      await pagesOf(invoice([{ text: 'Nettobetrag', x: 330, y: 365 }, ...withoutNet])),
      'net_amount',
    )
    expect(net.method).not.toBe('not_printed')
  })

  it('keeps the same invoice read poorly (OCR confidence 0.6) as not found, for a reviewer', async () => {
    const poor = (await pagesOf(invoice(withoutNet))).map((page) => ({
      ...page,
      words: page.words.map((word) => ({ ...word, confidence: 0.6 })),
    }))
    expect(fieldOf(poor, 'net_amount')).toMatchObject({ value: null, method: 'not_found' })
  })

  it('does not call the net of an untaxed invoice unprinted: it is the total', async () => {
    const untaxed = invoice([
      { text: 'Rechnungsbetrag', x: 330, y: 380 },
      { text: '1.190,00', x: 480, y: 380 },
      { text: 'Gemäß § 19 UStG wird keine Umsatzsteuer berechnet.', x: 50, y: 420 },
    ])
    expect(fieldOf(await pagesOf(untaxed), 'net_amount').method).not.toBe('not_printed')
  })

  it('never marks a required field not printed: an invoice without a total goes to a reviewer', async () => {
    const total = fieldOf(await pagesOf(invoice([])), 'total_amount')
    expect(total.method).not.toBe('not_printed')
  })

  it('scores a value marked not printed on an invoice that prints it as a wrong value let through', async () => {
    const pages = await pagesOf(
      invoice([{ text: 'Nettobetrag', x: 330, y: 365 }, { text: '1.000,00', x: 480, y: 365 }, ...withoutNet]),
    )
    // An extractor that says the printed net is not there: the benchmark must count it wrong and unflagged.
    const claimsUnprinted = (...args: Parameters<typeof extractWithInvoiceRanker>) =>
      extractWithInvoiceRanker(...args).map((f) => (f.key === 'net_amount' ? notPrinted(f.key) : f))
    const fixture = { name: 'net printed', issuer: 'test', expected: { net_amount: 1000 } }
    const [net] = scorePages(config, fixture, pages, claimsUnprinted).fields
    expect(net).toMatchObject({ actual: null, correct: false, flagged: false })
    // The same field merely not found is wrong and flagged; the honest extractor reads it.
    const notFound = scorePages(config, fixture, pages, (...args) =>
      extractWithInvoiceRanker(...args).map((f) =>
        f.key === 'net_amount' ? { ...notPrinted(f.key), method: 'not_found' as const } : f,
      ),
    ).fields[0]
    expect(notFound).toMatchObject({ correct: false, flagged: true })
    expect(scorePages(config, fixture, pages, extractWithInvoiceRanker).fields[0]).toMatchObject({
      correct: true,
    })
  })
})
