import { describe, expect, it } from 'vitest'
import { shippedExtractorConfig } from '../../../test/helpers/document-recognition/fixture-accuracy'
import { type ReceiptLine, receiptPage } from '../../../test/helpers/document-recognition/receipt-lines'
import { footTotal } from './receipt-total'
import { extractWithRules } from './rules'
import { legalPart, shopName } from './shop-name'
import { validateFields } from './validate'

const config = shippedExtractorConfig('receipt-extractor')
const extract = (lines: (ReceiptLine | string)[]) => {
  const { fields } = validateFields(config.fields, extractWithRules(config.fields, [receiptPage(lines)]))
  return Object.fromEntries(fields.map((f) => [f.key, f]))
}
/** A logo as OCR reads it: a few unsure marks in large print. */
const logo: ReceiptLine = { text: '%& IlI|', confidence: 0.31, size: 2.2 }

// Shops, streets and amounts below are made up for these tests; none is in the generated training receipts.
const german: (ReceiptLine | string)[] = [
  logo,
  'Filiale 0417',
  'Kreillerstr. 21',
  '81673 München',
  'Tel. 089 4321987',
  { text: 'Roggenbrot 750g', amount: '3,20' },
  { text: 'Laugenbrezel', amount: '0,95' },
  { text: 'Apfelstrudel', amount: '2,85' },
  { text: 'SUMME', amount: '7,00', size: 1.4 },
  { text: 'Gegeben Bar', amount: '10,00' },
  { text: 'Rückgeld', amount: '3,00' },
  'MwSt 7% Netto 6,54 MwSt 0,46',
  '12.03.2024 08:14 Bon 5521 Kasse 1',
  'Vielen Dank für Ihren Einkauf!',
  'Feinkost Oberhuber GmbH & Co. KG',
  'USt-IdNr. DE287654321',
]
const latvian: (ReceiptLine | string)[] = [
  logo,
  'SIA "Zaļā Dārzniecība"',
  'Maskavas iela 257, Rīga, LV-1019',
  'PVN reģ. Nr. LV40103987654',
  { text: 'Rupjmaize', amount: '1,89' },
  { text: 'Kefīrs 1L', amount: '1,45' },
  { text: 'Gurķi', amount: '2,31' },
  { text: 'Kopā EUR', amount: '5,65', size: 1.4 },
  { text: 'Samaksai', amount: '5,65' },
  { text: 'Maksājumu karte', amount: '5,65' },
  '04.11.2023 17:42',
  'Paldies par pirkumu!',
]
const french: (ReceiptLine | string)[] = [
  { text: 'FROMAGERIE DES ALPES', size: 1.8 },
  '14 rue Mouffetard',
  '75005 PARIS',
  'TEL 01 45 87 12 34',
  { text: 'COMTE 18 MOIS', amount: '9,80' },
  { text: 'BEAUFORT', amount: '7,25' },
  { text: 'NET A REGLER', amount: '17,05', size: 1.4 },
  { text: 'ESPECES', amount: '20,00' },
  { text: 'MONNAIE', amount: '2,95' },
  '22/06/2024 11:02',
  'MERCI ET A BIENTOT',
]
const spanish: (ReceiptLine | string)[] = [
  { text: 'Pescadería Hermanos Ruiz S.L.', size: 1.5 },
  'Mercado Central, puesto 12',
  '46001 Valencia',
  'CIF B46123987',
  { text: 'Merluza 0,850 kg', amount: '11,90' },
  { text: 'Gambas', amount: '8,40' },
  { text: 'IMPORTE', amount: '20,30' },
  { text: 'Tarjeta', amount: '20,30' },
  '09/02/2024 12:30',
  'Gracias por su visita',
]

describe("the shop name chosen among all of a receipt's lines", () => {
  it('takes the legal line at the foot of a German receipt whose name is only a logo at the top', () => {
    expect(shopName([receiptPage(german)])?.value).toBe('Feinkost Oberhuber GmbH & Co. KG')
    expect(extract(german).merchant_name?.value).toBe('Feinkost Oberhuber GmbH & Co. KG')
  })

  it('reads a Latvian SIA, a French shop in large print and a Spanish S.L. at the top', () => {
    expect(extract(latvian).merchant_name?.value).toBe('SIA "Zaļā Dārzniecība')
    expect(extract(french).merchant_name?.value).toBe('FROMAGERIE DES ALPES')
    expect(extract(spanish).merchant_name?.value).toBe('Pescadería Hermanos Ruiz S.L.')
  })

  it("never returns an address, a phone line or the logo's noise", () => {
    for (const lines of [german, latvian, french, spanish]) {
      const name = String(extract(lines).merchant_name?.value)
      expect(name).not.toMatch(/str\.|iela|rue|Mercado|TEL|Tel\.|%&|\d{4}/u)
    }
  })

  it('leaves the name empty (flagged missing) when only a logo names the shop', () => {
    const logoOnly = german.filter((line) => line !== 'Feinkost Oberhuber GmbH & Co. KG')
    const fields = extract(logoOnly)
    // An empty field is what the review seed flags `missing` (review/seed.ts).
    expect(fields.merchant_name).toMatchObject({ value: null, method: 'not_found', bbox: null })
  })

  it('leaves the name empty when the street and house number are the first words under a logo drawn as shapes', () => {
    // A drugstore whose logo is a circle and a triangle: OCR reads two specks, then the address.
    const shapes: (ReceiptLine | string)[] = [
      { text: 'TA', confidence: 0.24, size: 2.5 },
      { text: 'a', confidence: 0.04, size: 1.5 },
      'Amalienstr. 48',
      '80799 München',
      { text: 'Zahnpasta', amount: '1,95' },
      { text: 'Duschgel', amount: '1,25' },
      { text: 'SUMME EUR', amount: '3,20', size: 1.2 },
      { text: 'BAR', amount: '5,00' },
      { text: 'RÜCKGELD', amount: '1,80' },
      '08.06.2024 16:20 Filiale 0412',
    ]
    expect(extract(shapes).merchant_name).toMatchObject({ value: null, method: 'not_found' })
    // The same lines in the other orders streets are written in are no name either.
    for (const street of ['Kerkstraat 18', 'Via Garibaldi 15', '12 quai des Chartrons', 'Tērbatas iela 14'])
      expect(
        extract(shapes.map((line) => (line === 'Amalienstr. 48' ? street : line))).merchant_name?.value,
      ).toBeNull()
  })

  it('reads a name printed over two lines, its legal form on the second, as one name', () => {
    const split = (first: string, second: string): (ReceiptLine | string)[] => [
      { text: first, size: 1.3 },
      { text: second, size: 1.3 },
      '(Co. No. 245117-K)',
      'No 12, Jalan Kenari 4',
      '47100 Puchong, Selangor',
      { text: 'EXERCISE BOOK A4', amount: '4.50' },
      { text: 'TOTAL', amount: '4.50' },
      { text: 'CASH', amount: '5.00' },
      { text: 'CHANGE', amount: '0.50' },
    ]
    expect(extract(split('KEDAI BUKU CAHAYA', 'CO. (M) SDN BHD')).merchant_name?.value).toBe(
      'KEDAI BUKU CAHAYA CO. (M) SDN BHD',
    )
    expect(extract(split('MEI LING HOKKIEN', 'KITCHEN SDN BHD')).merchant_name?.value).toBe(
      'MEI LING HOKKIEN KITCHEN SDN BHD',
    )
  })

  it("takes the shop's name at the top over a customer's company named under its address", () => {
    const billed: (ReceiptLine | string)[] = [
      { text: 'SERI KEMBANGAN HARDWARE', size: 1.3 },
      '(654321-T)',
      'LOT 7, JLN BESAR 3',
      '43300 SERI KEMBANGAN',
      'GST ID 001234567890',
      'TAX INVOICE',
      'Bill To',
      'ORKID CONSTRUCTION (M) SDN BHD',
      'Date: 14/03/2018 Cashier: 02',
      { text: 'PVC PIPE 2"', amount: '18.00' },
      { text: 'PVC ELBOW 2" x 4', amount: '6.40' },
      { text: 'PIPE GLUE 100G', amount: '4.60' },
      { text: 'SCREW 1" (100)', amount: '5.00' },
      { text: 'WALL PLUG (50)', amount: '4.00' },
      { text: 'TOTAL QTY: 8', amount: '38.00' },
      { text: 'TOTAL', amount: '38.00' },
      { text: 'CASH', amount: '50.00' },
      { text: 'CHANGE', amount: '12.00' },
    ]
    expect(extract(billed).merchant_name?.value).toBe('SERI KEMBANGAN HARDWARE')
  })

  it('finds the legal part of a line that also holds an address', () => {
    expect(legalPart('Muster Handel GmbH & Co. KG · Hauptstr. 5 · 12345 Berlin')).toBe(
      'Muster Handel GmbH & Co. KG',
    )
    expect(legalPart('SIA "Rimi Latvia", Rīga')).toBe('SIA "Rimi Latvia"')
    expect(legalPart('Lindenweg 4, 04109 Leipzig')).toBeNull()
    expect(legalPart('Thank you as always')).toBeNull()
  })

  it('leaves out a company number printed after the legal form and a label before the name', () => {
    expect(legalPart('ACME BAKERY S/B 123456-U (ABK)')).toBe('ACME BAKERY S/B')
    expect(legalPart('Owned by: acme trading sdn bhd 1234567-W')).toBe('acme trading sdn bhd')
    expect(legalPart('Muster GmbH 12345')).toBe('Muster GmbH')
    // A bracket with no company number before it is part of the name.
    expect(legalPart('ACME (M) SDN BHD')).toBe('ACME (M) SDN BHD')
  })
})

describe("the total without knowing its label's language", () => {
  it('is the amount the card payment repeats (Latvian "Kopā", "Samaksai")', () => {
    expect(footTotal([receiptPage(latvian)])?.value).toBe(5.65)
    expect(extract(latvian).total_amount?.value).toBe(5.65)
  })

  it('is the amount cash given minus change balances, not the larger cash given (French "NET A REGLER")', () => {
    expect(footTotal([receiptPage(french)])).toMatchObject({ value: 17.05 })
    expect(extract(french).total_amount?.value).toBe(17.05)
  })

  it('is the sum of the item lines where no payment line follows', () => {
    const lines: (ReceiptLine | string)[] = [
      'Drogheria Colombo',
      { text: 'Sapone', amount: '2,10' },
      { text: 'Spugne', amount: '3,40' },
      { text: 'Detersivo', amount: '6,75' },
      { text: 'Da versare', amount: '12,25' },
      'Arrivederci',
    ]
    expect(footTotal([receiptPage(lines)])).toMatchObject({ value: 12.25, confirmed: 1 })
  })

  it('is the subtotal that cash and change balance when no total is printed, not a price printed twice', () => {
    // Held-out 167.jpg's shape: "SUBTOTAL" is all the receipt charges, and two items cost the same.
    const lines: (ReceiptLine | string)[] = [
      'KEDAI MAKAN SERI',
      { text: 'YELLOW LAKSA', amount: '11.60' },
      { text: 'YELLOW LAKSA', amount: '11.60' },
      { text: 'CENDOL', amount: '5.30' },
      { text: 'SUBTOTAL', amount: '28.50' },
      { text: 'CASH', amount: '50.00' },
      { text: 'CHANGE', amount: '21.50' },
      'THANK YOU',
    ]
    expect(footTotal([receiptPage(lines)], [28.5])).toMatchObject({ value: 28.5 })
    expect(extract(lines).total_amount?.value).toBe(28.5)
  })

  it('balances cash and change on a German receipt whose total is labelled too', () => {
    expect(footTotal([receiptPage(german)])).toMatchObject({ value: 7, confirmed: 2 })
    expect(extract(german).total_amount?.value).toBe(7)
  })
})
