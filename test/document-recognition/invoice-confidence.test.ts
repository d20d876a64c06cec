import { describe, expect, it } from 'vitest'
import { DEFAULT_LOW_CONFIDENCE_THRESHOLD } from '../../src-server/platform/config'
import type { PrintedLine } from '../helpers/document-recognition/invoice-documents'
import { rankedInvoiceFields } from '../helpers/document-recognition/ranked-invoice'

/** A German invoice's meta block, one item and its sums: net 750,00, the tax as given, total 892,50. */
const invoice = (tax: string): PrintedLine[] => [
  { text: 'Rechnung', x: 57, y: 240, size: 16 },
  { text: 'Rechnungsnummer', x: 380, y: 240 },
  { text: '2024-5512', x: 500, y: 240 },
  { text: 'Rechnungsdatum', x: 380, y: 255 },
  { text: '27.08.2024', x: 500, y: 255 },
  { text: 'Leistung', x: 57, y: 300 },
  { text: 'Betrag', x: 500, y: 300 },
  { text: 'Tontechnik Hoffest', x: 57, y: 318 },
  { text: '750,00', x: 500, y: 318 },
  { text: 'Nettobetrag', x: 330, y: 370 },
  { text: '750,00 €', x: 500, y: 370 },
  { text: 'USt. 19 %', x: 330, y: 385 },
  { text: tax, x: 500, y: 385 },
  { text: 'Gesamtbetrag', x: 330, y: 400 },
  { text: '892,50 €', x: 500, y: 400 },
]

const SUMS = ['net_amount', 'tax_amount', 'total_amount'] as const

describe('invoice confidence: the sum between the chosen amounts', () => {
  it('trusts net, tax and total when net + tax = total', async () => {
    const fields = await rankedInvoiceFields(invoice('142,50 €'))
    expect(SUMS.map((key) => fields[key]?.value)).toEqual([750, 142.5, 892.5])
    for (const key of SUMS)
      expect(fields[key]?.confidence).toBeGreaterThanOrEqual(DEFAULT_LOW_CONFIDENCE_THRESHOLD)
  })

  it('flags the same labels and places for review when the printed tax breaks the sum', async () => {
    const fields = await rankedInvoiceFields(invoice('152,50 €'))
    expect(SUMS.map((key) => fields[key]?.value)).toEqual([750, 152.5, 892.5])
    for (const key of SUMS) expect(fields[key]?.confidence).toBeLessThan(DEFAULT_LOW_CONFIDENCE_THRESHOLD)
    // What the sum does not involve keeps its trust.
    expect(fields.invoice_number?.confidence).toBeGreaterThanOrEqual(DEFAULT_LOW_CONFIDENCE_THRESHOLD)
  })
})
