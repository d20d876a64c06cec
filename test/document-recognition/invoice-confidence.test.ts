import { describe, expect, it } from 'vitest'
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
