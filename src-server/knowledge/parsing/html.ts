import type { HtmlToTextOptions } from 'html-to-text'

/**
 * What html-to-text keeps for the knowledge index: the words as written (no uppercased headings, no wrapping),
 * without link targets or images, whose addresses would only add noise to chunks and embeddings. A no-break
 * space is a space here, so the words on either side are found apart.
 */
const OPTIONS: HtmlToTextOptions = {
  wordwrap: false,
  whitespaceCharacters: ' \t\r\n\f\u200b\u00a0',
  selectors: [
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'img', format: 'skip' },
    ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, options: { uppercase: false } })),
    { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
  ],
}

/** Readable text of an HTML page: scripts, styles and comments dropped, block elements as line breaks. */
export async function htmlToText(html: string): Promise<string> {
  // Loaded with the first page, on the worker, never by importing this module (as docx.ts does mammoth).
  const { convert } = await import('html-to-text')
  return convert(html, OPTIONS).trim()
}
