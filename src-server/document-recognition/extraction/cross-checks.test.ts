import { describe, expect, it } from 'vitest'
import { shippedExtractorConfig } from '../../../test/helpers/document-recognition/fixture-accuracy'
import { textPage } from '../../../test/helpers/document-recognition/text-page'
import { extractWithRules } from './rules'

const config = shippedExtractorConfig('invoice-extractor')
const extract = (lines: string[]) =>
  Object.fromEntries(extractWithRules(config.fields, [textPage(lines)]).map((f) => [f.key, f]))

describe('checks across fields', () => {
  // Lines of SammyMaystoneLinesTest (development set, tuning part), with a payment stub that repeats the due date.
  it('trusts an issue date whose only rival under a bare "Date" label is the due date', () => {
    const stub = extract(['Date: Jan 1, 2022', 'Due Date: Jan 31, 2022', 'Date: Jan 31, 2022'])
    expect(stub.invoice_date).toMatchObject({ value: '2022-01-01' })
    expect(stub.invoice_date?.confidence).toBeGreaterThan(0.8)
    // A rival the due date does not explain keeps the pick a guess.
    const rival = extract(['Date: Jan 1, 2022', 'Due Date: Jan 31, 2022', 'Date: Dec 15, 2021'])
    expect(rival.invoice_date?.confidence).toBeLessThan(0.8)
  })

  // Lines of AmazonWebServices.pdf (tuning part): the currency is only ever a sign.
  it('trusts an unlabelled currency printed with a labelled amount, and only then', () => {
    const printed = extract(['Total for this invoice $4.11', 'Shipping $2.00'])
    // As trusted as the amount it is printed with (here itself doubted: words stand between label and amount).
    expect(printed.currency).toMatchObject({ value: 'USD', confidence: printed.total_amount?.confidence })
    const apart = extract(['Total for this invoice 4.11', 'Shipping $2.00'])
    expect(apart.currency).toMatchObject({ value: 'USD' })
    expect(apart.currency?.confidence).toBeLessThan(0.65)
    expect(extract(['Balance Due $127.50']).currency?.confidence).toBeGreaterThan(0.8)
  })

  it('trusts a currency the document names one way only, by its code or a sign no other currency shares', () => {
    const named = (lines: string[]) => extract(lines).currency
    for (const lines of [
      ['Total for this invoice 4.11', 'All charges and prices are in US Dollars'],
      ['Total 34.73', 'Amount due: 34.73 EUR', 'Bank charges 1,50 €'],
      ['Montant 12,00', 'Payable en EUR'],
    ])
      expect(named(lines)?.confidence, lines.join(' / ')).toBeGreaterThanOrEqual(0.8)
    // A sign several currencies print, alone: a Canadian invoice prints "$" too.
    expect(named(['Total 12.00', 'Shipping $2.00'])?.confidence).toBeLessThan(0.8)
    expect(named(['Total 12.00', 'Rs 40 off'])?.confidence).toBeLessThan(0.8)
    // Two currencies printed: the reference column's may be the one read.
    const two = named(['Total 12.00', 'Amount 12.00 EUR', 'Equivalent 13.10 USD'])
    expect(two?.confidence).toBeLessThan(0.8)
  })

  it('reads no currency inside a web address ("fr." of free.fr is no Swiss franc)', () => {
    const read = extract([
      'Total 29,99',
      'Tarifs sur free.fr. Questions : http://www.free.fr/assistance/',
      'Montant 29,99 €',
    ])
    expect(read.currency).toMatchObject({ value: 'EUR' })
    expect(read.currency?.confidence).toBeGreaterThanOrEqual(0.8)
  })
})
