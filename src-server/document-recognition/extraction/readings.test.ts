import { describe, expect, it } from 'vitest'
import { shippedExtractorConfig } from '../../../test/helpers/document-recognition/fixture-accuracy'
import {
  type ReceiptLine,
  receipt,
  receiptPage,
} from '../../../test/helpers/document-recognition/receipt-lines'
import { DEFAULT_LOW_CONFIDENCE_THRESHOLD } from '../../platform/config'
import { extractFromReadings } from './readings'
import { CONFIDENCE_FEATURES, calibratedReceiptConfidence } from './receipt-confidence'

// The confidence of a field read from several readings by the factors below; calibrated fields' is learned
// (receipt-confidence.ts) and tested with it.
const shipped = shippedExtractorConfig('receipt-extractor')
const config = { ...shipped, fields: shipped.fields.map((f) => ({ ...f, calibrated: false })) }
const fieldsOf = (readings: ReturnType<typeof receipt>[][]) => {
  const { fields, pages } = extractFromReadings(config.fields, readings)
  return { byKey: Object.fromEntries(fields.map((f) => [f.key, f])), pages }
}

/**
 * Tuning receipts as two OCR readings read them: these pairs came from tesseract's default threshold (first) and
 * Sauvola's (second), the second reading before PaddleOCR took its place; the choice between readings is the same.
 */
describe('fields chosen across two OCR readings', () => {
  it('takes the header name from the reading that reads it surely, and stores that reading’s words there', () => {
    // 052.jpg: "PAGCH" at 0.89 with the default threshold, "PAGOH" at 0.94 with Sauvola's.
    const read = (name: [string, number]) =>
      receipt(['TQ FOR SHOPPING WITH myNEWS.com', name, '24600,PAGOH, JOHOR', 'sug TOTAL 10.00'])
    const { byKey, pages } = fieldsOf([
      [read(['PAGCH REST AND SERVICE AREA', 0.89])],
      [read(['PAGOH REST AND SERVICE AREA', 0.94])],
    ])
    expect(byKey.merchant_name?.value).toBe('PAGOH REST AND SERVICE AREA')
    // The readings disagree: the chosen one is doubted.
    expect(byKey.merchant_name?.confidence).toBeLessThan(0.94 * 0.8)
    const words = pages[0]?.words.map((w) => w.text) ?? []
    expect(words).toContain('PAGOH')
    expect(words).not.toContain('PAGCH')
  })

  it('trusts a value both readings agree on more only when a check verifies it: a date printed twice', () => {
    // 013.jpg: the date in the header and again, in another form, in the footer.
    const read = () =>
      receipt(['DATE 2 12/28/2017 10:17:32 PN', 'Thank You.Come Again', '2017-12-28 22: 17py'])
    const once = fieldsOf([[read()]]).byKey
    const twice = fieldsOf([[read()], [read()]]).byKey
    expect(twice.purchase_date?.value).toBe('2017-12-28')
    expect(twice.purchase_date?.confidence).toBeGreaterThan(once.purchase_date?.confidence ?? 1)
  })

  it('does not trust a value more because both readings of one image agree on it', () => {
    // 030.jpg: the date printed once; the same misread in both readings would look the same.
    const read = () => receipt(['HOME MASTER HARDWARE', ['05 Mar 2018 18:24', 0.83], 'TOTAL 8.20'])
    const once = fieldsOf([[read()]]).byKey
    const twice = fieldsOf([[read()], [read()]]).byKey
    expect(twice.purchase_date?.value).toBe('2018-03-05')
    expect(twice.purchase_date?.confidence).toBe(once.purchase_date?.confidence)
    // Every word of the name is an English word: agreement counts for it.
    expect(twice.merchant_name?.confidence).toBeGreaterThan(once.merchant_name?.confidence ?? 1)
  })

  it('does not count a total derived from cash and change as verified by the sum it was computed from', () => {
    // Cash and change read, the total lost: the total is cash - change, so cash = total + change holds by design.
    const read = () => receipt(['UNIHAKKA INTERNATIONAL SDN BHD', 'CASH 100.00', 'CHANGE 71.40'])
    const once = fieldsOf([[read()]]).byKey
    const twice = fieldsOf([[read()], [read()]]).byKey
    expect(twice.total_amount?.method).toBe('derived')
    expect(twice.total_amount?.value).toBe(28.6)
    expect(twice.total_amount?.confidence).toBe(once.total_amount?.confidence)
  })

  it('counts an amount printed again only under a total or payment label, not an item price that equals it', () => {
    const trust = (lines: string[]) => {
      const once = fieldsOf([[receipt(lines)]]).byKey.total_amount
      const twice = fieldsOf([[receipt(lines)], [receipt(lines)]]).byKey.total_amount
      expect(twice?.value).toBe(8.2)
      return (twice?.confidence ?? 0) > (once?.confidence ?? 1)
    }
    expect(trust(['HOME MASTER HARDWARE', 'PAINT BRUSH 8.20', 'TOTAL 8.20'])).toBe(false)
    expect(trust(['HOME MASTER HARDWARE', 'TOTAL 8.20', 'CASH 8.20'])).toBe(true)
  })

  it('counts a page both readings share (a text layer) as read once', () => {
    const textLayer = receipt(['Date: 22/12/2017 14:03', ['Total Amt Rounded 15.90', 0.7]])
    const once = fieldsOf([[textLayer]]).byKey
    const shared = fieldsOf([[textLayer], [textLayer]]).byKey
    expect(shared.purchase_date).toEqual(once.purchase_date)
  })

  it('merges a name the two readings read differently, and stores the second reading’s words without its lines', () => {
    // 024.jpg: tesseract lost the faded T and read O as D; PaddleOCR (its words tagged with the line it read them
    // in) ran two words together.
    const first = receipt([['ED HENG STATIONERY & BOOKS', 0.51], '(001451637-M)', 'TOTAL 55.10'])
    const second = receipt([['TEO HENGSTATIONERY & BOOKS', 0.72], '(001451637-M)', 'TOTAL 55.10'])
    const readLines = {
      ...second,
      words: second.words.map((w) => ({ ...w, line: Math.round(w.bbox[1] * 1000) })),
    }
    const { byKey, pages } = fieldsOf([[first], [readLines]])
    expect(byKey.merchant_name?.value).toBe('TEO HENG STATIONERY & BOOKS')
    // Neither reading read it so: the value is doubted.
    expect(byKey.merchant_name?.confidence).toBeLessThan(0.72 * 0.8)
    const stored = pages[0]?.words ?? []
    expect(stored.map((w) => w.text)).toContain('HENGSTATIONERY')
    expect(stored.every((w) => !('line' in w))).toBe(true)
  })

  it('takes the amount with cents when the other reading has only its whole part', () => {
    // 012.jpg: Sauvola's threshold misses the "Total" labels of the total lines and reads the net line instead.
    const { byKey } = fieldsOf([
      [receipt(['Total Excl. of GST 15.00', 'Tota Incl. of GST 15.90', ['Total Amt Rounded 15.90', 0.81]])],
      [receipt(['Total Excl. of GST 15.00', 'Tot Incl. of GST 15.90', ['Told Amt Rounded 15.90', 0.35]])],
    ])
    expect(byKey.total_amount?.value).toBe(15.9)
  })

  it('takes the reading of a name that holds the other whole: the other lost the start of the line', () => {
    // 014.jpg: the default threshold lost "AS" of the faded first word, surely; Sauvola's read it.
    const { byKey } = fieldsOf([
      [receipt([['IA MART', 0.96], 'NO.23 BATU 10, TAMAN SENTOSA,', 'TOTAL 32.70'])],
      [receipt([['ASIA MART', 0.9], 'NO.23 BATU 10, TAMAN SENTOSA,', 'TOTAL 32.70'])],
    ])
    expect(byKey.merchant_name?.value).toBe('ASIA MART')
    // A speck after a name is no fuller reading of it.
    const specked = fieldsOf([
      [receipt([['ASIA MART i', 0.7], 'TOTAL 32.70'])],
      [receipt([['ASIA MART', 0.9], 'TOTAL 32.70'])],
    ])
    expect(specked.byKey.merchant_name?.value).toBe('ASIA MART')
  })

  it('takes the reading of a name with more words of the language over a surer misread', () => {
    // 036.jpg: "INTERNATICGNAL" (a split letter) read more surely than "INTERNATIONAL".
    const { byKey } = fieldsOf([
      [receipt([['UNIHAKKA INTERNATICGNAL SDN BHD', 0.95], 'TOTAL 8.20'])],
      [receipt([['UNIHAKKA INTERNATIONAL SDN BHD', 0.9], 'TOTAL 8.20'])],
    ])
    expect(byKey.merchant_name?.value).toBe('UNIHAKKA INTERNATIONAL SDN BHD')
  })

  it('keeps the first reading’s word box for a value taken from the second where the first printed it too', () => {
    // The first reading misread the label; the second (PaddleOCR's words are its lines cut by characters) read
    // it, and the cash and change agree with it.
    const first = receipt(['Total Qty: 2 52.00', 'T0TAI 55.10', 'CASH 60.00', 'CHANGE 4.90'])
    const second = receipt(['Total Qty: 2 52.00', 'TOTAL 55.10', 'CASH 60.00', 'CHANGE 4.90'])
    const shifted = {
      ...second,
      words: second.words.map((w) => ({
        ...w,
        bbox: w.bbox.map((v, i) => (i % 2 ? v : v + 0.004)) as typeof w.bbox,
      })),
    }
    const { byKey, pages } = fieldsOf([[first], [shifted]])
    expect(byKey.total_amount?.value).toBe(55.1)
    expect(byKey.total_amount?.bbox).toEqual(first.words.find((w) => w.text === '55.10')?.bbox)
    expect(pages[0]?.words.map((w) => w.text)).toContain('T0TAI')
  })

  it('reads one reading as the rules do', () => {
    const page = receipt(['PAGOH REST AND SERVICE AREA', 'TOTAL 10.00'])
    const { byKey, pages } = fieldsOf([[page]])
    expect(byKey.total_amount?.value).toBe(10)
    expect(pages[0]).toBe(page)
  })

  it('gives a calibrated field the learned probability of being right, flagged under the trained threshold', () => {
    const named = (name: string, total: string) => [
      receipt([name, 'DATE 12/28/2017', `TOTAL ${total}`, 'CASH 20.00', 'CHANGE 10.00']),
    ]
    const agreeing = [
      named('PAGOH REST AND SERVICE AREA', '10.00'),
      named('PAGOH REST AND SERVICE AREA', '10.00'),
    ]
    const disagreeing = [
      named('PAGCH REST AND SERVICE AREA', '10.00'),
      named('PAGOH REST AND SERVICE AREA', '10.00'),
    ]
    const confidences = (readings: ReturnType<typeof named>[]) => {
      const { fields, evidence } = extractFromReadings(shipped.fields, readings)
      for (const field of fields.filter((f) => evidence?.has(f.key))) {
        const learned = calibratedReceiptConfidence(field.key, evidence?.get(field.key) ?? [])
        if (learned !== null) expect(field.confidence, field.key).toBe(learned)
      }
      return Object.fromEntries(fields.map((f) => [f.key, f.confidence]))
    }
    const agreed = confidences(agreeing)
    const disputed = confidences(disagreeing)
    // A name the two readings read differently is doubted more than one they read alike, and goes to review.
    expect(disputed.merchant_name).toBeLessThan(agreed.merchant_name as number)
    expect(disputed.merchant_name).toBeLessThan(DEFAULT_LOW_CONFIDENCE_THRESHOLD)
    // A total that cash minus change balances is trusted.
    expect(agreed.total_amount).toBeGreaterThanOrEqual(DEFAULT_LOW_CONFIDENCE_THRESHOLD)
  })

  it('keeps the accents of a name one reading reads in the language model and the other without them', () => {
    const read = (name: string, sure: number) => [
      receiptPage([
        { text: name, size: 1.6, confidence: sure },
        'Marktplatz 3',
        '79098 Freiburg',
        { text: 'Brezel', amount: '1,80' },
        { text: 'Gesamt', amount: '1,80' },
        { text: 'Bar', amount: '5,00' },
        { text: 'Rückgeld', amount: '3,20' },
      ]),
    ]
    for (const readings of [
      [read('Bäckerei Kornblume', 0.9), read('Backerei Kornblume', 0.97)],
      [read('Backerei Kornblume', 0.97), read('Bäckerei Kornblume', 0.9)],
    ]) {
      const { fields, evidence } = extractFromReadings(shipped.fields, readings)
      expect(fields.find((f) => f.key === 'merchant_name')?.value).toBe('Bäckerei Kornblume')
      // The readings agree on the name, accents aside.
      expect(evidence?.get('merchant_name')?.[CONFIDENCE_FEATURES.indexOf('other_reading_same')]).toBe(1)
    }
  })

  it('does not count as merged a name the other reading read with only a space less', () => {
    const read = (name: string, sure: number) => [
      receiptPage([{ text: name, size: 1.4, confidence: sure }, 'Lindenstraße 12', '50674 Köln']),
    ]
    const { fields, evidence } = extractFromReadings(shipped.fields, [
      read('Frischmarkt Weber GmbH & Co. KG', 0.95),
      read('Frischmarkt Weber GmbH & Co.KG', 0.9),
    ])
    expect(fields.find((f) => f.key === 'merchant_name')?.value).toBe('Frischmarkt Weber GmbH & Co. KG')
    expect(evidence?.get('merchant_name')?.[CONFIDENCE_FEATURES.indexOf('merged')]).toBe(0)
  })

  it("trusts a total in labels it does not know when the till's arithmetic comes to it, not when only items do", () => {
    // Latvian and Italian labels, none of them the extractor's: only the amounts' arithmetic speaks.
    const items: ReceiptLine[] = [
      { text: 'Rupjmaize', amount: '1,89' },
      { text: 'Kefīrs 1L', amount: '1,45' },
      { text: 'Gurķi', amount: '2,31' },
    ]
    const head = ['SIA "Zaļā Dārzniecība"', 'Maskavas iela 257, Rīga', '04.11.2023 17:42']
    const total = (lines: (ReceiptLine | string)[]) => {
      const page = () => receiptPage(lines)
      return extractFromReadings(shipped.fields, [[page()], [page()]]).fields.find(
        (f) => f.key === 'total_amount',
      )
    }
    const cash = total([
      ...head,
      ...items,
      { text: 'Samaksai', amount: '5,65' },
      { text: 'Skaidra nauda', amount: '10,00' },
      { text: 'Atlikums', amount: '4,35' },
    ])
    const card = total([
      ...head,
      ...items,
      { text: 'TOTALE EURO', amount: '5,65' },
      { text: 'Pagamento elettronico', amount: '5,65' },
    ])
    const itemsOnly = total([...head, ...items, { text: 'Kopsumma', amount: '5,65' }, 'Paldies par pirkumu!'])
    for (const field of [cash, card, itemsOnly]) expect(field?.value).toBe(5.65)
    // Cash given less change, and the items' sum that a payment line repeats, verify the total read.
    expect(cash?.confidence).toBeGreaterThanOrEqual(DEFAULT_LOW_CONFIDENCE_THRESHOLD)
    expect(card?.confidence).toBeGreaterThanOrEqual(DEFAULT_LOW_CONFIDENCE_THRESHOLD)
    // Items alone add up to a total before its discount as well: that goes to review.
    expect(itemsOnly?.confidence).toBeLessThan(DEFAULT_LOW_CONFIDENCE_THRESHOLD)
  })
})
