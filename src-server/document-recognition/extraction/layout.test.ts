import { describe, expect, it } from 'vitest'
import type { Bbox } from '../document-recognition.tables'
import type { PageText } from '../page-text'
import { linesOf } from './layout'

/** Words as tesseract read them off a noisy A4 rendering: text, box (fractions of the page). */
const asRead = (words: [string, Bbox][]): PageText => ({
  page_number: 1,
  width: 595,
  height: 842,
  words: words.map(([text, bbox]) => ({ text, bbox, confidence: 0.9 })),
})

describe('lines of an OCR reading', () => {
  it('keeps a name and its legal form on one line when the legal form sits nearer the next line', () => {
    // "Ltd" has no descender: its middle is nearer "Payment terms: 14 days" beside it than "Quillstone Publishing",
    // and word by word it joined the line above, leaving the buyer's name without its legal form.
    const page = asRead([
      ['Attn:', [0.084, 0.2391, 0.121, 0.2482]],
      ['Mark', [0.128, 0.2387, 0.166, 0.2482]],
      ['Fellowes', [0.173, 0.2387, 0.239, 0.2482]],
      ['Date:', [0.606, 0.2333, 0.646, 0.2499]],
      ['Quillstone', [0.085, 0.2565, 0.162, 0.2686]],
      ['Publishing', [0.167, 0.2565, 0.245, 0.269]],
      ['Ltd', [0.251, 0.2565, 0.275, 0.2661]],
      ['Payment', [0.606, 0.2532, 0.66, 0.2653]],
      ['terms:', [0.666, 0.2532, 0.729, 0.2653]],
      ['14', [0.766, 0.2532, 0.783, 0.2624]],
      ['days', [0.788, 0.2528, 0.823, 0.2653]],
      ['3', [0.085, 0.2744, 0.094, 0.2836]],
      ['Printers', [0.099, 0.274, 0.163, 0.2836]],
      ['Yard', [0.167, 0.274, 0.203, 0.2836]],
    ])
    expect(linesOf(page).map((line) => line.text)).toEqual([
      'Attn: Mark Fellowes Date:',
      'Quillstone Publishing Ltd Payment terms: 14 days',
      '3 Printers Yard',
    ])
  })

  it('keeps a title in large print whole when one of its words is read over three times the print', () => {
    // "Hôtel Les Tilleuls" at 22 pt: "Les Tilleuls" was read taller than "Hôtel", past the size from which a word
    // counts as a stamp, and the title came apart into two lines.
    const small = (text: string, left: number, top: number): [string, Bbox] => [
      text,
      [left, top, left + 0.05, top + 0.0074],
    ]
    const page = asRead([
      ['Hôtel', [0.364, 0.0536, 0.445, 0.0735]],
      ['Les', [0.467, 0.0522, 0.516, 0.0778]],
      ['Tilleuls', [0.525, 0.0522, 0.643, 0.0778]],
      ...['5', 'place', 'du', 'Marché', '21200', 'Beaune'].map((text, i) =>
        small(text, 0.3 + i * 0.06, 0.0838),
      ),
      ...['Facture', 'n°', '2025-00871'].map((text, i) => small(text, 0.086 + i * 0.06, 0.14)),
    ])
    expect(linesOf(page).map((line) => line.text)).toEqual([
      'Hôtel Les Tilleuls',
      '5 place du Marché 21200 Beaune',
      'Facture n° 2025-00871',
    ])
  })
})
