import type { PageText, PageWord } from '../../../src-server/document-recognition/page-text'

/**
 * A receipt page from lines in the shape tesseract reads SROIE receipts (tuning part): most are taken as read,
 * a few (the cash-and-change totals, the misread legal form) are written after them to isolate one rule. Each
 * line is [text, confidence], laid out top to bottom, centred like a receipt's header.
 */
export function receipt(lines: (string | [string, number])[]): PageText {
  const words: PageWord[] = []
  lines.forEach((entry, row) => {
    const [text, confidence] = typeof entry === 'string' ? [entry, 0.92] : entry
    const height = 0.015
    const y = 0.03 + row * 0.022
    let x = 0.5 - (text.length * 0.011) / 2
    for (const part of text.split(' ')) {
      words.push({ text: part, bbox: [x, y, x + part.length * 0.011, y + height], confidence })
      x += (part.length + 1) * 0.011
    }
  })
  return { page_number: 1, width: 460, height: 1100, words }
}

/** One printed line of a generated receipt as OCR would give it: its text, how sure the reader was, how large it is printed. */
export interface ReceiptLine {
  text: string
  confidence?: number
  /** Line height relative to the body text (a name printed large is 1.6). */
  size?: number
  /** Right-aligned amount printed on the same line, in the value column. */
  amount?: string
}

const BODY_HEIGHT = 0.012
const CHAR_WIDTH = 0.018

/**
 * A receipt's page as OCR reads it: lines top to bottom, words left to right with boxes as fractions of the page,
 * an amount at the right edge when a line has one. The page is a narrow till roll (80 mm wide).
 */
export function receiptPage(lines: (ReceiptLine | string)[]): PageText {
  const words: PageWord[] = []
  let y = 0.03
  for (const entry of lines) {
    const line = typeof entry === 'string' ? { text: entry } : entry
    const height = BODY_HEIGHT * (line.size ?? 1)
    const confidence = line.confidence ?? 0.92
    let x = 0.05
    for (const text of line.text.split(/\s+/u).filter(Boolean)) {
      const width = text.length * CHAR_WIDTH * (line.size ?? 1)
      words.push({ text, bbox: [x, y, Math.min(0.7, x + width), y + height], confidence })
      x += width + CHAR_WIDTH
    }
    if (line.amount) {
      const width = line.amount.length * CHAR_WIDTH
      words.push({ text: line.amount, bbox: [0.95 - width, y, 0.95, y + height], confidence })
    }
    y += height * 1.6
  }
  // The page is as long as the roll: positions are fractions of it.
  const length = y + 0.03
  return {
    page_number: 1,
    width: 300,
    height: Math.round(300 * length * 10),
    words: words.map((w) => ({ ...w, bbox: [w.bbox[0], w.bbox[1] / length, w.bbox[2], w.bbox[3] / length] })),
  }
}
