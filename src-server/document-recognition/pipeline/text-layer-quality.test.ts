import { describe, expect, it } from 'vitest'
import type { PageText } from '../page-text'
import { unreadableTextLayer } from './text-layer-quality'

const page = (text: string): PageText => ({
  page_number: 1,
  width: 595,
  height: 842,
  words: text
    .split(/ +/u)
    .filter(Boolean)
    .map((word, i) => ({ text: word, bbox: [i / 100, 0.1, (i + 1) / 100, 0.12], confidence: 1 })),
})
/** The text as a font whose encoding names private-use glyphs decodes it. */
const privateUse = (text: string) =>
  text.replace(/\S/gu, (c) => String.fromCodePoint(0xe000 + (c.codePointAt(0) as number)))

describe('a text layer that decodes to junk', () => {
  it('is read as it is when its words are words and numbers, in any language', () => {
    for (const text of [
      'ACME Supplies Ltd Invoice No: INV-2024-0042 Total (EUR): 1,190.00',
      'Rechnung Nr. RE-2019/123 vom 04.05.2019 Gesamtbetrag 1.234,56 € Müller GmbH & Co. KG',
      'Facture n° 17 Total TTC 99,90 € -------- ******** Merci !',
      'Kopā EUR 5,65 Paldies par pirkumu!',
    ])
      expect(unreadableTextLayer(page(text)), text).toBe(false)
  })

  it('is not read when fonts without a character map give private-use, control or replacement characters', () => {
    for (const text of [
      privateUse('ACME Supplies Ltd Invoice No: INV-2024-0042 Total 1,190.00'),
      'ACME \u0003\u0011\u0012 \u0001\u0002\u0004\u0005 \u0013\u0014\u0015\u0016 Ltd',
      '\uFFFD\uFFFD\uFFFD \uFFFD\uFFFD\uFFFD\uFFFD\uFFFD \uFFFD\uFFFD 1,190.00',
    ])
      expect(unreadableTextLayer(page(text)), JSON.stringify(text)).toBe(true)
  })

  it('is not read when glyph codes decode to marks rather than words', () => {
    expect(unreadableTextLayer(page(`!"#$%& '()*+ ,-./ :;<=>? @[\\]^_ {|}~ 12`))).toBe(true)
  })

  it('leaves a page without words to the scan rule', () => {
    expect(unreadableTextLayer(page(''))).toBe(false)
  })
})
