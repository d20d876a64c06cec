import { PDFDocument, type PDFFont, StandardFonts } from 'pdf-lib'
import { describe, expect, it } from 'vitest'
import { readPdfText } from './pdf-pages'

/** Where pdf-lib draws each character: one after the other by its advance (a drawn string is not kerned). */
const advance = (font: PDFFont, text: string, size: number) =>
  [...text].reduce((x, char) => x + font.widthOfTextAtSize(char, size), 0)

const LINES = [
  { font: StandardFonts.Helvetica, label: 'Invoice No: ', value: 'INV-2024-0042', y: 700 },
  { font: StandardFonts.HelveticaBold, label: 'Total due (EUR): ', value: '1,190.00', y: 660 },
  { font: StandardFonts.TimesRoman, label: 'Order ref. ', value: 'WX-77/iii', y: 620 },
  { font: StandardFonts.Courier, label: 'Till: ', value: 'T3-0815', y: 580 },
]
const [X, SIZE] = [50, 10]

describe('word boxes of a text layer', () => {
  it('start at or before the glyphs a generated PDF draws, and end at or after them', async () => {
    const pdf = await PDFDocument.create()
    const page = pdf.addPage([595, 842])
    const drawn: { value: string; left: number; right: number }[] = []
    for (const line of LINES) {
      const font = await pdf.embedFont(line.font)
      page.drawText(line.label + line.value, { x: X, y: line.y, size: SIZE, font })
      const left = X + advance(font, line.label, SIZE)
      drawn.push({ value: line.value, left, right: left + advance(font, line.value, SIZE) })
    }
    const [text] = await readPdfText({ bytes: await pdf.save() })
    if (!text) throw new Error('no page read')
    for (const { value, left, right } of drawn) {
      const word = text.words.find((w) => w.text === value)
      if (!word) throw new Error(`${value} was not read`)
      const [x0, , x1] = word.bbox.map((edge, i) => edge * (i % 2 ? text.height : text.width))
      // Enclosing the glyphs, and not reaching back over the space before them.
      expect(x0).toBeLessThanOrEqual(left + 0.01)
      expect(x0).toBeGreaterThan(left - 1)
      expect(x1).toBeGreaterThanOrEqual(right - 0.01)
    }
  })
})
