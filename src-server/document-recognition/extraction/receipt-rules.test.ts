import { describe, expect, it } from 'vitest'
import { shippedExtractorConfig } from '../../../test/helpers/document-recognition/fixture-accuracy'
import { receipt } from '../../../test/helpers/document-recognition/receipt-lines'
import type { PageText } from '../page-text'
import { headerName, trailingLegalForm } from './header-name'
import { linesOf } from './layout'
import { correctedWord } from './lexicon'
import { extractWithRules } from './rules'
import { taxSummaryLines } from './tax-summary'
import { validateFields } from './validate'
import { documentDateOrder, parseDate } from './values'

const config = shippedExtractorConfig('receipt-extractor')
const extract = (page: PageText) => {
  const { fields } = validateFields(config.fields, extractWithRules(config.fields, [page]))
  return Object.fromEntries(fields.map((f) => [f.key, f]))
}

describe('receipt header name', () => {
  it('takes the first name line, passing a handwritten note, the registration, the address and contacts', () => {
    const page = receipt([
      'tan chay yee',
      'SOON HUAT MACHINERY ENTERPRISE',
      ['(JM0352019-K)', 0.65],
      'NO.53 JALAN PUTRA 1,',
      'TAMAN SRI PUTRA,',
      '81200 JOHOR BAHRU',
      'TEL 07-5547360/016-7993391 FAX: 07-5624059',
      'GST ID : 002116837376',
      ['CASH SALES .- ooo', 0.36],
      'Doc No. CS00004040 Date: 11/01/2019',
    ])
    expect(headerName([page])?.value).toBe('SOON HUAT MACHINERY ENTERPRISE')
  })

  it('prefers the line ending in a legal form over a logo line above it, and drops stray marks', () => {
    const page = receipt([
      ['F030/8', 0.12],
      ['Anz', 0.62],
      '- UNIHAKKA INTERNATIONAL SDN BHD',
      '05 Mar 2018 18:24',
      '(867388-U)',
    ])
    expect(headerName([page])?.value).toBe('UNIHAKKA INTERNATIONAL SDN BHD')
  })

  it('writes a legal form misread by one character as the form, and drops a registration after the name', () => {
    expect(trailingLegalForm(['TASTE', 'OF', 'THE', 'WORLD', 'SDN', '8HD'])).toMatchObject({
      exact: false,
      form: 'sdn bhd',
    })
    expect(trailingLegalForm(['HOME', 'MASTER', 'HARDWARE'])).toBeNull()
    const page = receipt(['TASTE OF THE WORLD (PUCHONG) SDN 8HD', 'LEON CO. (M) BHD (126926-H)'])
    expect(headerName([page])?.value).toBe('TASTE OF THE WORLD (PUCHONG) SDN BHD')
    expect(headerName([receipt(['LEON CO. (M) BHD (126926-H)'])])?.value).toBe('LEON CO. (M) BHD')
  })

  it('writes a header word OCR misread by a common confusion as the English word, on an English line', () => {
    expect(headerName([receipt(['POPULAR STAT10NERY SDN BHD'])])?.value).toBe('POPULAR STATIONERY SDN BHD')
    // 057.jpg, second reading: G for O is not a common confusion, and "UNIHAKKA" is no English word.
    const page = receipt(['UNIHAKKA INTERNATIGNAL SDN BHD', '29 Mar 2215 12:19', '(867388-U)'])
    expect(headerName([page])?.value).toBe('UNIHAKKA INTERNATIGNAL SDN BHD')
  })

  it('leaves a line in another language as printed', () => {
    // Dutch: "Boek" is one round-letter confusion from "book", "Goed" is not English either.
    expect(headerName([receipt(['Boekhandel Het Goed Boek'])])?.value).toBe('Boekhandel Het Goed Boek')
    expect(headerName([receipt(['Bakkerij Goed BV'])])?.value).toBe('Bakkerij Goed BV')
  })

  it('leaves words the lexicon does not know, words that are words and numbers as read', () => {
    // 046.jpg and 059.jpg as read: Malay words, a misread name no confusion explains, a shop number.
    expect(headerName([receipt(['PRGAR MINT JIN SENG'])])?.value).toBe('PRGAR MINT JIN SENG')
    expect(headerName([receipt(['riple Six Point Enterprise 866'])])?.value).toBe(
      'riple Six Point Enterprise 866',
    )
    expect(correctedWord('1234')).toBeNull()
    expect(correctedWord('MINT')).toBeNull()
  })

  it('corrects at most two confusions at two places, in the case the word was printed in', () => {
    expect(correctedWord('STAT10NERY')).toBe('STATIONERY')
    expect(correctedWord('C0ffee')).toBe('Coffee')
    expect(correctedWord('MlNl')).toBe('MINI')
    // 036.jpg: "ICG" for "IO" is a split letter, not a confusion.
    expect(correctedWord('INTERNATICGNAL')).toBeNull()
  })

  it('joins a name broken over two lines at an ampersand', () => {
    const page = receipt([
      'HOME MASTER HARDWARE',
      '& ELECTRICAL',
      '(001937400-W)',
      'NO.113G & 115G, JALAN SETIA',
    ])
    expect(headerName([page])?.value).toBe('HOME MASTER HARDWARE & ELECTRICAL')
  })
})

describe('receipt dates', () => {
  it('reads the document order: a date whose second part cannot be a month makes the document month first', () => {
    expect(documentDateOrder(['DATE : 12/28/2017 10:17:32 PM'])).toBe('month_first')
    expect(documentDateOrder(['Date 25/12/2018 8:13:39 PM'])).toBe('day_first')
    expect(parseDate('03/04/2018', 'month_first')?.value).toBe('2018-03-04')
    expect(parseDate('03/04/2018')?.value).toBe('2018-04-03')
  })

  it('takes an unlabelled date printed among the footer lines, trusted when it is the only one', () => {
    const page = receipt([
      'GRAND TOTAL : 20.00',
      'CASH : 20.00',
      'CHANGE : 0.00',
      '23-01-2019 13:14:15 PM, PRINT BY: root',
      'INVOICE NO: 22487',
    ])
    const fields = extract(page)
    expect(fields.purchase_date?.value).toBe('2019-01-23')
    expect(fields.purchase_date?.confidence).toBeGreaterThan(0.8)
    expect(fields.receipt_number?.value).toBe('22487')
  })
})

describe('receipt date plausibility', () => {
  const header = (dateLine: string) =>
    receipt([
      'UNIHAKKA INTERNATIONAL SDN BHD',
      [dateLine, 0.9],
      ['(867585-U)', 0.4],
      '12 Jalan Tampoi 7/4 Kawasan Perindustrian',
    ])

  it('flags a purchase date whose year OCR misread into the future', () => {
    // 057.jpg as tesseract reads it: "29 Mar 2215 12:19" for 2018.
    const misread = extract(header('29 Mar 2215 12:19'))
    expect(misread.purchase_date?.value).toBe('2215-03-29')
    expect(misread.purchase_date?.confidence).toBeLessThan(0.8)
  })

  it('trusts the same date line read correctly', () => {
    const read = extract(header('29 Mar 2018 12:19'))
    expect(read.purchase_date?.value).toBe('2018-03-29')
    expect(read.purchase_date?.confidence).toBeGreaterThan(0.8)
  })
})

describe('receipt totals', () => {
  it('takes the total the cash and change add up to, over a larger line above it', () => {
    const page = receipt([
      'Total Sales (Excluding GST) 93.72',
      'Total Sales (Inclusive GST) 99.35',
      'Rounding Adjustment 0.00',
      'TOTAL RM 99.35',
      'CASH RM 100.00',
      'CHANGE RM 0.65',
    ])
    const fields = extract(page)
    expect(fields.total_amount?.value).toBe(99.35)
    expect(fields.amount_tendered?.value).toBe(100)
    expect(fields.change_amount?.value).toBe(0.65)
  })

  it('takes "Total Sales Inc GST" over the total row of the GST summary table below it', () => {
    // 031.jpg as tesseract reads it.
    const page = receipt([
      'AMBROSIAL GREEK',
      'Sub-total 75.08',
      'Total Sales Inc GST 75.00',
      'Total After adj inci GST 75.00',
      'Summary Ann Tax',
      'p [Ri 70.75 4,25',
      'Total 0.75 4,25',
      '06/03/2016 20:01 1010 008 0060498',
    ])
    expect(extract(page).total_amount?.value).toBe(75)
  })

  it('reads no label inside a tax summary table, down to its total row', () => {
    const page = receipt([
      'Total (RM) 8.00',
      'GET SUMMARY',
      'Tax Cale % Amount BST',
      'SR [5 7.85 0.45',
      'Total 7.88 0.48',
      'GOODS SOLD ARE NOT RETURNABLE,',
    ])
    expect([...taxSummaryLines(linesOf(page)).values()]).toEqual([1, 2, 3, 4])
    expect(extract(page).total_amount?.value).toBe(8)
  })

  it('derives a total OCR lost from the cash and the change, and leaves it flagged', () => {
    // 046.jpg as tesseract reads it: the total line is "TL :RM 28 G0".
    const page = receipt(['SUBTOTAL: 28 r', 'TL :RM 28 G0', 'CASH 100.00', 'CABH CHANGE 71.40'])
    const total = extract(page).total_amount
    expect(total?.value).toBe(28.6)
    expect(total?.method).toBe('derived')
    expect(total?.bbox).toBeNull()
    expect(total?.confidence).toBeLessThan(0.8)
  })

  it('never takes a word for the receipt number', () => {
    const fields = extract(receipt(['Receipt No Actos', 'TOTAL 9.00']))
    expect(fields.receipt_number?.value).toBeNull()
  })
})
