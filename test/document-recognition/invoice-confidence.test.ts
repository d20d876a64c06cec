import { describe, expect, it } from 'vitest'
import { confidenceFeatures } from '../../src-server/document-recognition/extraction/invoice-ranker/confidence'
import type {
  RankedCandidate,
  ValueChoice,
} from '../../src-server/document-recognition/extraction/invoice-ranker/rank'
import { validateFields } from '../../src-server/document-recognition/extraction/validate'
import { DEFAULT_LOW_CONFIDENCE_THRESHOLD } from '../../src-server/platform/config'
import { shippedExtractorConfig } from '../helpers/document-recognition/fixture-accuracy'
import { germanServiceInvoice } from '../helpers/document-recognition/invoice-documents'
import { rankedInvoiceFields } from '../helpers/document-recognition/ranked-invoice'

const SUMS = ['net_amount', 'tax_amount', 'total_amount'] as const
const config = shippedExtractorConfig('invoice-extractor')

describe('invoice confidence: the sum between the chosen amounts', () => {
  it('trusts net, tax and total when net + tax = total', async () => {
    const fields = await rankedInvoiceFields(germanServiceInvoice('142,50 €'))
    expect(SUMS.map((key) => fields[key]?.value)).toEqual([750, 142.5, 892.5])
    for (const key of SUMS)
      expect(fields[key]?.confidence).toBeGreaterThanOrEqual(DEFAULT_LOW_CONFIDENCE_THRESHOLD)
  })

  it('flags the same labels and places for review when the printed tax breaks the sum, and trusts them less', async () => {
    const holding = await rankedInvoiceFields(germanServiceInvoice('142,50 €'))
    const fields = await rankedInvoiceFields(germanServiceInvoice('152,50 €'))
    expect(SUMS.map((key) => fields[key]?.value)).toEqual([750, 152.5, 892.5])
    // The ranker trusts all three less, the tax (the odd one out) least; the sum check then sends all three to a
    // reviewer whatever their confidence, as a review of the run shows them.
    const tax = fields.tax_amount?.confidence ?? 1
    expect(tax).toBeLessThan(
      Math.min(fields.net_amount?.confidence ?? 0, fields.total_amount?.confidence ?? 0),
    )
    const validated = validateFields(config.fields, Object.values(fields)).fields
    for (const key of SUMS) {
      expect(fields[key]?.confidence).toBeLessThan(holding[key]?.confidence ?? 0)
      const reviewed = validated.find((field) => field.key === key)
      expect(reviewed?.confidence).toBeLessThan(DEFAULT_LOW_CONFIDENCE_THRESHOLD)
    }
    // What the sum does not involve keeps its trust.
    expect(fields.invoice_number?.confidence).toBeGreaterThanOrEqual(DEFAULT_LOW_CONFIDENCE_THRESHOLD)
  })
})

describe('invoice confidence: the currency printed with the chosen total', () => {
  it('trusts the charged currency printed beside the total the ranker chose, though a reference column names another', async () => {
    // The sums in two right-aligned columns, the charged one with its code and a reference one: the rules read the
    // reference column's total, the ranker the charged one; "EUR" in the header keeps the currency from being the
    // only one the page names.
    const fields = await rankedInvoiceFields([
      { text: 'Harbourline Fittings Ltd', x: 50, y: 45, size: 14 },
      { text: '12 Quay Street, Bristol BS1 4DJ', x: 50, y: 62, size: 9 },
      { text: 'Invoice INV-2041', x: 380, y: 45, size: 12 },
      { text: 'Date: 14/03/2024', x: 380, y: 62, size: 9 },
      { text: 'Invoice to', x: 50, y: 110, size: 8 },
      { text: 'Kestrel Marine Supplies', x: 50, y: 122, size: 10 },
      { text: '4 Dock Road, Cardiff CF10 5AB', x: 50, y: 134, size: 9 },
      { text: 'Description', x: 50, y: 190, size: 9 },
      { text: 'Amount', x: 505, y: 190, size: 9 },
      { text: 'Pump housings', x: 50, y: 206, size: 9 },
      { text: '4,200.00', x: 500, y: 206, size: 9 },
      { text: 'USD', x: 444, y: 230, size: 8 },
      { text: 'EUR (for reference)', x: 466, y: 230, size: 8 },
      { text: 'Net amount', x: 250, y: 244, size: 9 },
      { text: '4,200.00', x: 420, y: 244, size: 9 },
      { text: '3,864.00', x: 500, y: 244, size: 9 },
      { text: 'VAT 20%', x: 250, y: 258, size: 9 },
      { text: '840.00 USD', x: 410, y: 258, size: 9 },
      { text: '772.80', x: 506, y: 258, size: 9 },
      { text: 'Total Amount', x: 250, y: 272, size: 9 },
      { text: '5,040.00 USD', x: 403, y: 272, size: 9 },
      { text: '4,636.80', x: 500, y: 272, size: 9 },
    ])
    expect(fields.total_amount?.value).toBe(5040)
    expect(fields.currency?.value).toBe('USD')
    expect(fields.currency?.confidence).toBeGreaterThanOrEqual(DEFAULT_LOW_CONFIDENCE_THRESHOLD)
  })
})

describe("invoice confidence: a party's full name chosen over its wordmark", () => {
  it('counts the wordmark it continues with it, as one party, and no rival', () => {
    const value = (name: string, probability: number): ValueChoice => {
      const best: RankedCandidate = { candidate: null, value: name, features: {} }
      return { value: name, probability, best, bestP: probability, copies: 1 }
    }
    const [wordmark, full, other] = [
      value('QUORVEX', 0.55),
      value('Quorvex Systems, Inc.', 0.3),
      value('Pinecrest Studio LLC', 0.1),
    ]
    const choices = new Map([['seller_name', { values: [wordmark, full, other], chosen: full }]])
    const features = confidenceFeatures(config.fields, choices, 'seller_name', [])
    // Together 0.85 likely; the runner-up is the other company, not the wordmark.
    expect(features.log_odds).toBeCloseTo(Math.log(0.85 / 0.15) / 10, 6)
    expect(features.margin).toBeCloseTo(0.85 - 0.1, 6)
    // A name before the wordmark's words is no completion of it: the full name stands by its own probability.
    const sentence = value('Contact Quorvex Systems, Inc.', 0.3)
    const alone = confidenceFeatures(
      config.fields,
      new Map([['seller_name', { values: [wordmark, sentence, other], chosen: sentence }]]),
      'seller_name',
      [],
    )
    expect(alone.log_odds).toBeCloseTo(Math.log(0.3 / 0.7) / 10, 6)
    expect(alone.margin).toBeCloseTo(0.3 - 0.55, 6)
  })
})
