import type { PageText, PageWord } from '../../../src-server/document-recognition/page-text'

/** A page from lines of text: each word gets a box in reading order (about 6 points per character). */
export function textPage(lines: string[]): PageText {
  const words: PageWord[] = []
  lines.forEach((text, row) => {
    let x = 40
    for (const part of text.split(/(\s+)/)) {
      if (part.trim())
        words.push({
          text: part,
          bbox: [x / 600, (40 + row * 20) / 800, (x + part.length * 6) / 600, (52 + row * 20) / 800],
          confidence: 1,
        })
      x += part.length * 6
    }
  })
  return { page_number: 1, width: 600, height: 800, words }
}
