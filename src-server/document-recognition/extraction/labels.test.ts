import { describe, expect, it } from 'vitest'
import { shippedExtractorConfig } from '../../../test/helpers/document-recognition/fixture-accuracy'
import { textPage } from '../../../test/helpers/document-recognition/text-page'
import { findAnchor, linesOf } from './layout'
import { extractWithRules } from './rules'

const config = shippedExtractorConfig('invoice-extractor')
const extract = (lines: string[]) =>
  Object.fromEntries(extractWithRules(config.fields, [textPage(lines)]).map((f) => [f.key, f]))
const labelIn = (text: string, anchor: string) => {
  const [line] = linesOf(textPage([text]))
  return findAnchor(line as NonNullable<typeof line>, anchor).map((hit) => text.slice(hit.start, hit.end))
}

describe('general labels', () => {
  it('finds a word-set label in either order, with a currency or a joining word between its parts', () => {
    const net = 'total|montant|base|prix|somme & HT|hors taxes|hors TVA'
    expect(labelIn('Montant EUR HT            35,78', net)).toEqual(['Montant EUR HT'])
    expect(labelIn('HT total 35,78', net)).toEqual(['HT total'])
    expect(labelIn('Total hors taxes : 35,78', net)).toEqual(['Total hors taxes'])
    expect(labelIn('Prix unitaire HT 12,00', net)).toEqual([])
    expect(labelIn('Date limite de paiement : 15/03/2018', 'date limite & paiement|règlement')).toEqual([
      'Date limite de paiement',
    ])
  })

  it('matches a compound written closed, open or hyphenated from one spelling', () => {
    for (const printed of ['BTW-bedrag', 'BTW bedrag', 'BTWbedrag'])
      expect(labelIn(`${printed} 21,00`, 'BTW-bedrag')).toEqual([printed])
    expect(labelIn('Factuurtotaal 121,00', 'Factuur-totaal')).toEqual(['Factuurtotaal'])
    expect(labelIn('Subtotaal 100,00', 'Sub-total')).toEqual([])
  })

  it('takes a label misread by one letter, but not a word of the language one letter from it', () => {
    expect(labelIn('Supp1ier: Northwind Traders', 'Supplier')).toEqual(['Supp1ier'])
    expect(labelIn('ACME Supplies Ltd', 'Supplier')).toEqual([])
    expect(labelIn('Bill To: Northwind Traders', 'Bill No')).toEqual([])
    // The header of the console's sample invoice: no seller label is printed, so no "Ltd" is read after one.
    expect(extract(['ACME Supplies Ltd', 'Invoice No: INV-2024-0042']).seller_name?.value).toBeNull()
  })

  // Lines of the Factur-X samples (development set, tuning part).
  it('reads the German net sum of a Factur-X summary and lets it confirm the tax', () => {
    const fields = extract([
      'Rechnungssumme ohne USt. 473,00',
      'Steuerbetrag 56,87',
      'Bruttosumme 529,87',
      'Zahlbetrag 529,87',
    ])
    expect(fields.net_amount?.value).toBe(473)
    // "Rechnungssumme" is a total label, but here it is inside the longer net label.
    expect(fields.total_amount?.value).toBe(529.87)
    expect(fields.tax_amount?.confidence).toBeGreaterThan(0.8)
  })

  it('reads "Nr." and "vom" as the invoice number and date only when they follow the document title', () => {
    const fields = extract([
      'Handelsrechnung (380) Nr. 471102 vom 05.03.2018',
      'USt.-Id.-Nr.: DE123456789',
      'HRB Nr. 372876',
      'Bemerkung Rechnung gemäß Bestellung Nr. 2018-471331 vom 01.03.2018.',
      'nach §4 Nr. 14 UStG',
    ])
    expect(fields.invoice_number?.value).toBe('471102')
    expect(fields.invoice_date?.value).toBe('2018-03-05')
    // No other number or date competes, so neither is sent to a reviewer as a guess.
    expect(fields.invoice_number?.confidence).toBeGreaterThan(0.8)
    expect(fields.invoice_date?.confidence).toBeGreaterThan(0.8)
    const correction = extract(['Rechnungskorrektur (384) Nr. RK21012345 vom 16.09.2018', 'Nummer: 549910'])
    expect(correction.invoice_number?.value).toBe('RK21012345')
    expect(correction.invoice_date?.value).toBe('2018-09-16')
    // A clause of its own dates the letter; a period's "du" dates the period.
    expect(extract(['Paris, le 12 mars 2018']).invoice_date?.value).toBe('2018-03-12')
    expect(extract(['Période du 01/03/2018 au 31/03/2018']).invoice_date?.value ?? null).toBeNull()
  })
})
