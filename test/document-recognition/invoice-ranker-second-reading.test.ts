import { describe, expect, it } from 'vitest'
import type { ExtractedField } from '../../src-server/document-recognition/extraction/extracted-field'
import {
  partiesReadAgain,
  unsureParties,
} from '../../src-server/document-recognition/extraction/invoice-ranker/second-reading'
import type { PageText, PageWord } from '../../src-server/document-recognition/page-text'

/** Words printed left to right on one row at `top`, each with tesseract's confidence. */
function row(top: number, words: [string, number][]): PageWord[] {
  let x = 0.08
  return words.map(([text, confidence]) => {
    const word: PageWord = { text, bbox: [x, top, x + text.length * 0.012, top + 0.015], confidence }
    x += text.length * 0.012 + 0.01
    return word
  })
}

/** PaddleOCR's reading of a row: one line, its words cut from it, every word the line's confidence. */
function paddleRow(top: number, text: string, confidence = 0.98): PageWord[] {
  return row(
    top,
    text.split(' ').map((w) => [w, confidence]),
  ).map((w) => ({ ...w, line: 0 }))
}

const page = (words: PageWord[]): PageText => ({ page_number: 1, width: 595, height: 842, words })

/** The ranker's seller: the words of `words` as its value, its box around them. */
function seller(words: PageWord[]): ExtractedField {
  const boxes = words.map((w) => w.bbox)
  return {
    key: 'seller_name',
    value: words.map((w) => w.text).join(' '),
    confidence: 0.7,
    page_number: 1,
    bbox: [
      Math.min(...boxes.map((b) => b[0])),
      Math.min(...boxes.map((b) => b[1])),
      Math.max(...boxes.map((b) => b[2])),
      Math.max(...boxes.map((b) => b[3])),
    ],
    method: 'pattern',
    anchor: null,
  }
}

describe('a party name read again by a second OCR reading', () => {
  it("takes a word tesseract read unsurely from the other reading's line, without the label run into it", () => {
    const words = row(0.05, [
      ['Tidewater', 0.96],
      ['Sighs', 0.58],
    ])
    const first = [page(words)]
    const field = seller(words)
    expect(unsureParties([field], first)).toEqual([field])
    const read = partiesReadAgain([field], first, [page(paddleRow(0.05, 'Vendeur:TidewaterSigns Invoice'))])
    expect(read.fields[0]?.value).toBe('Tidewater Signs')
    // The stored words read as the value, in tesseract's boxes.
    const stored = read.pages[0]?.words ?? []
    expect(stored.map((w) => w.text)).toEqual(['Tidewater', 'Signs'])
    expect(stored[1]?.bbox).toEqual(words[1]?.bbox)
  })

  it('keeps a word tesseract read surely, a word one glyph apart and one the other reads with digits', () => {
    for (const [own, theirs] of [
      [['Weiß', 0.95], 'WeiB'],
      [['Ivy', 0.6], 'lvy'],
      [['Kloster', 0.6], 'Kl0ster'],
    ] as const) {
      const words = row(0.05, [
        [own[0], own[1]],
        ['GmbH', 0.95],
      ])
      const first = [page(words)]
      const read = partiesReadAgain([seller(words)], first, [page(paddleRow(0.05, `${theirs} GmbH`))])
      expect(read.fields[0]?.value).toBe(`${own[0]} GmbH`)
      expect(read.pages).toBe(first)
    }
  })

  it('reads nothing again on a page both readings share (a text layer) or a name read surely', () => {
    const words = row(0.05, [
      ['Garcfa', 0.85],
      ['Holding', 0.96],
    ])
    const shared = page(words)
    const read = partiesReadAgain([seller(words)], [shared], [shared])
    expect(read.fields[0]?.value).toBe('Garcfa Holding')
    const sure = row(0.05, [
      ['Garcia', 0.95],
      ['Holding', 0.96],
    ])
    expect(unsureParties([seller(sure)], [page(sure)])).toEqual([])
  })
})
