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
