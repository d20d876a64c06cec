import { describe, expect, it } from 'vitest'
import type { PrintedLine } from '../helpers/document-recognition/invoice-documents'
import { rankedInvoiceFields } from '../helpers/document-recognition/ranked-invoice'

/**
 * Layout classes of real invoicing software that invoices nobody tuned on showed the extractor getting wrong, each
 * on a document the test prints.
 */

/** A shop's order invoice: every amount with a dollar sign, the currency's code only once, beside the total. */
const shopOrder: PrintedLine[] = [
  { text: 'Maple & Moss Goods', x: 50, y: 50, size: 16 },
  { text: 'Invoice for #1047', x: 400, y: 50 },
  { text: 'May 18, 2024', x: 400, y: 66 },
  { text: 'Bill to', x: 50, y: 120 },
  { text: 'Priya Raman', x: 50, y: 135 },
  { text: '19 Elm Crescent', x: 50, y: 150 },
  { text: 'Item', x: 50, y: 240 },
  { text: 'Price', x: 380, y: 240 },
  { text: 'Line total', x: 470, y: 240 },
  { text: 'Beeswax Candle Set', x: 50, y: 258 },
  { text: '$24.00', x: 380, y: 258 },
  { text: '$48.00', x: 470, y: 258 },
  { text: 'Linen Tea Towel', x: 50, y: 274 },
  { text: '$30.00', x: 380, y: 274 },
  { text: '$60.00', x: 470, y: 274 },
  { text: 'Subtotal', x: 380, y: 330 },
  { text: '$108.00', x: 470, y: 330 },
  { text: 'HST 13%', x: 380, y: 345 },
  { text: '$14.04', x: 470, y: 345 },
  { text: 'Total', x: 380, y: 360 },
  { text: '$122.04 CAD', x: 470, y: 360 },
]

describe('invoices laid out as invoicing software prints them', () => {
  it('reads the currency from its code beside the total, not from a sign several currencies use', async () => {
    const fields = await rankedInvoiceFields(shopOrder)
    expect(fields.currency?.value).toBe('CAD')
    expect(fields.total_amount?.value).toBe(122.04)
  })
})
