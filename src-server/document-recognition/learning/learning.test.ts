import { describe, expect, it } from 'vitest'
import type { Bbox } from '../document-recognition.tables'
import type { FieldDefinition } from '../extraction/field-config'
import type { PageText, PageWord } from '../page-text'
import { layoutFingerprint } from './fingerprint'
import { applyHint, lessonFrom } from './hints'

/** Words laid out like text: each word 0.01 wide per character, lines 0.02 high. */
function page(lines: { text: string; x: number; y: number }[]): PageText {
  const words: PageWord[] = []
  for (const line of lines) {
    let x = line.x
    for (const text of line.text.split(' ')) {
      words.push({ text, bbox: [x, line.y, x + text.length * 0.01, line.y + 0.02], confidence: 1 })
      x += (text.length + 1) * 0.01
    }
  }
  return { page_number: 1, width: 595, height: 842, words }
}
const numberField: FieldDefinition = {
  key: 'invoice_number',
  label: 'Invoice number',
  type: 'string',
  required: true,
  anchors: [],
}
const boxOf = (p: PageText, text: string) => (p.words.find((w) => w.text === text) as PageWord).bbox as Bbox

describe('layout fingerprint', () => {
  it('is the IBAN when a valid one is printed, never a number that fails its check', () => {
    const withIban = page([
      { text: 'Acme GmbH', x: 0.1, y: 0.05 },
      { text: 'IBAN DE89 3704 0044 0532 0130 00', x: 0.1, y: 0.9 },
    ])
    expect(layoutFingerprint([withIban])).toBe('iban:DE89370400440532013000')
    const badChecksum = page([
      { text: 'Acme GmbH', x: 0.1, y: 0.05 },
      { text: 'IBAN DE88 3704 0044 0532 0130 00', x: 0.1, y: 0.9 },
    ])
    expect(layoutFingerprint([badChecksum])).toMatch(/^header:/)
  })

  it('takes a VAT id, and otherwise the header words without the numbers that change per document', () => {
    expect(layoutFingerprint([page([{ text: 'USt-IdNr. DE123456789', x: 0.1, y: 0.5 }])])).toBe(
      'vat:DE123456789',
    )
    const first = page([{ text: 'Acme Supplies Invoice 2024-001', x: 0.1, y: 0.05 }])
    const second = page([{ text: 'Acme Supplies Invoice 2024-777', x: 0.1, y: 0.05 }])
    const other = page([{ text: 'Bolt Hardware Invoice 2024-001', x: 0.1, y: 0.05 }])
    expect(layoutFingerprint([first])).toBe(layoutFingerprint([second]))
    expect(layoutFingerprint([first])).not.toBe(layoutFingerprint([other]))
  })
})

describe('learned hints', () => {
  const taught = page([
    { text: 'Ref. code: RC-99812', x: 0.5, y: 0.15 },
    { text: 'Total 12.00', x: 0.5, y: 0.4 },
  ])
  const lesson = lessonFrom(taught, boxOf(taught, 'RC-99812'))
  const hint = { ...lesson, fieldKey: 'invoice_number', confirmations: 1, learnedFromRunId: 'run-1' }

  it('remembers the label words left of the value', () => {
    expect(lesson.label).toEqual(['ref', 'code'])
  })

  it('reads the value next to the label where the label moved, with the confidence earned', () => {
    const moved = page([{ text: 'Ref. code: RC-10457', x: 0.45, y: 0.22 }])
    expect(applyHint(numberField, hint, [moved])).toMatchObject({
      value: 'RC-10457',
      method: 'learned',
      confidence: 0.9,
      bbox: boxOf(moved, 'RC-10457'),
      learned_from_run_id: 'run-1',
    })
    expect(applyHint(numberField, { ...hint, confirmations: 2 }, [moved])?.confidence).toBe(0.95)
  })

  it('takes as many words as the reviewer took from a line that goes on, not the line', () => {
    const header = (address: string) =>
      page([
        { text: `QualityHosting AG - ${address}`, x: 0.1, y: 0.05 },
        { text: 'Total 12.00', x: 0.5, y: 0.4 },
      ])
    const learnedOn = header('Uferweg 40-42 - D-63571 Gelnhausen')
    const words = learnedOn.words.slice(0, 2).map((w) => w.bbox)
    const taken: Bbox = [words[0]?.[0] ?? 0, words[0]?.[1] ?? 0, words[1]?.[2] ?? 0, words[1]?.[3] ?? 0]
    const nameLesson = lessonFrom(learnedOn, taken)
    expect(nameLesson).toMatchObject({ label: [], valueWords: 2 })
    const seller = { ...numberField, key: 'seller_name', label: 'Seller' }
    const nameHint = { ...nameLesson, fieldKey: 'seller_name', confirmations: 1, learnedFromRunId: 'run-2' }
    expect(applyHint(seller, nameHint, [header('Hanauer Str. 1 - D-63571 Gelnhausen')])?.value).toBe(
      'QualityHosting AG',
    )
    // A number after its label runs to the end of its phrase: its length may change from one document to the next.
    expect(lesson.valueWords).toBeNull()
  })

  it('reads nothing when the label is gone, so the general rules decide', () => {
    const without = page([{ text: 'Order RC-10457', x: 0.5, y: 0.15 }])
    expect(applyHint(numberField, hint, [without])).toBeNull()
  })
})
