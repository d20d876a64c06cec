import type { PageText, PageWord } from '../page-text'
import { cappedScale } from './page-limits'

interface TextItemLike {
  str: string
  transform: number[]
  width: number
  height: number
}

async function loadPdf(bytes: Uint8Array) {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs')
  // pdfjs takes ownership of the buffer it is given; pass a copy so the caller's bytes stay usable.
  return pdfjs.getDocument({
    data: new Uint8Array(bytes),
    useSystemFonts: false,
    isEvalSupported: false,
    verbosity: 0,
    // Keeps each loaded font's glyph widths and character map, so words are placed by their glyphs' advances.
    fontExtraProperties: true,
  }).promise
}

/** A character's advance in a font (in the font's units), where pdf.js knows it. */
type Advances = (char: string) => number | undefined

/**
 * The advances of a font pdf.js loaded: its `widths` by character code, reached from a character through the
 * font's `toUnicode` map (an identity map, as composite fonts have, maps a code to itself).
 */
function advancesOf(font: unknown): Advances | null {
  const { widths, toUnicode } = (font ?? {}) as {
    widths?: Record<number, number>
    toUnicode?: { _map?: Record<number, string> }
  }
  if (!widths) return null
  const codes = new Map<string, number>()
  for (const [code, unicode] of Object.entries(toUnicode?._map ?? {}))
    if (!codes.has(unicode)) codes.set(unicode, Number(code))
  return (char) => {
    const width = widths[codes.get(char) ?? char.charCodeAt(0)]
    return width && width > 0 ? width : undefined
  }
}

/**
 * Splits a text run into words. Each word starts where the advances of the characters before it end, scaled so
 * the run's advances add up to its width: a share per character (the old way) put a word after narrow letters and
 * spaces ("Invoice No: ") well inside its first glyph. Without the font's widths, each character gets an equal share.
 */
function wordsOfItem(
  item: TextItemLike,
  pageWidth: number,
  pageHeight: number,
  advance: Advances | null,
): PageWord[] {
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0] = item.transform
  const fontHeight = item.height || Math.hypot(c, d) || Math.hypot(a, b)
  if (!item.str.trim() || fontHeight <= 0) return []
  const known = [...item.str].map((char) => advance?.(char))
  const measured = known.filter((width) => width !== undefined)
  const usual = measured.length ? measured.reduce((sum, width) => sum + width, 0) / measured.length : 1
  // Where each character (by UTF-16 index, as the word matches are) starts, in the font's units.
  const starts: number[] = [0]
  for (const [i, char] of [...item.str].entries())
    for (let unit = 0; unit < char.length; unit++)
      starts.push((starts.at(-1) as number) + (unit === 0 ? (known[i] ?? usual) : 0))
  const total = starts.at(-1) as number
  const runWidth = item.width || fontHeight * 0.5 * item.str.length
  const at = (index: number) => e + (runWidth * (starts[index] as number)) / total
  // Ascenders reach about 0.8 of the font size above the baseline, descenders 0.2 below it.
  const top = Math.max(0, (pageHeight - (f + fontHeight * 0.85)) / pageHeight)
  const bottom = Math.min(1, (pageHeight - (f - fontHeight * 0.25)) / pageHeight)
  const words: PageWord[] = []
  for (const match of item.str.matchAll(/\S+/g)) {
    const index = match.index ?? 0
    words.push({
      text: match[0],
      bbox: [
        Math.max(0, at(index) / pageWidth),
        top,
        Math.min(1, at(index + match[0].length) / pageWidth),
        bottom,
      ],
      confidence: 1,
    })
  }
  return words
}

/** The text layer of every page with word positions (runs on a worker thread). */
export async function readPdfText(input: { bytes: Uint8Array }): Promise<PageText[]> {
  const pdf = await loadPdf(input.bytes)
  try {
    const pages: PageText[] = []
    for (let number = 1; number <= pdf.numPages; number++) {
      const page = await pdf.getPage(number)
      const viewport = page.getViewport({ scale: 1 })
      const content = await page.getTextContent()
      // The operator list loads the page's fonts into `commonObjs`, where their widths are read. A page without
      // text (a scan) has no fonts to load, and its operator list would decode its images in JavaScript: seconds
      // and hundreds of MB for a phone photo.
      if (content.items.length > 0) await page.getOperatorList()
      const fonts = new Map<string, Advances | null>()
      const advancesIn = (name: string) => {
        if (!fonts.has(name))
          fonts.set(name, page.commonObjs.has(name) ? advancesOf(page.commonObjs.get(name)) : null)
        return fonts.get(name) ?? null
      }
      const words = content.items.flatMap((item) =>
        'str' in item
          ? wordsOfItem(item as TextItemLike, viewport.width, viewport.height, advancesIn(item.fontName))
          : [],
      )
      pages.push({ page_number: number, width: viewport.width, height: viewport.height, words })
    }
    return pages
  } finally {
    await pdf.destroy()
  }
}

/**
 * One page rendered to PNG at `scale` (1 = 72 dpi), or smaller where that would be over `MAX_PAGE_PIXELS`, white
 * background; runs on a worker thread.
 */
export async function renderPdfPage(input: {
  bytes: Uint8Array
  pageNumber: number
  scale: number
}): Promise<Uint8Array> {
  const pdf = await loadPdf(input.bytes)
  try {
    if (input.pageNumber < 1 || input.pageNumber > pdf.numPages) throw new Error('No such page.')
    const page = await pdf.getPage(input.pageNumber)
    const { width, height } = page.getViewport({ scale: 1 })
    const viewport = page.getViewport({ scale: cappedScale(width, height, input.scale) })
    const canvasFactory = pdf.canvasFactory as {
      create(width: number, height: number): { canvas: { toBuffer(mime: 'image/png'): Buffer } }
    }
    const target = canvasFactory.create(Math.ceil(viewport.width), Math.ceil(viewport.height))
    await page.render({ canvas: target.canvas as never, viewport, background: 'rgb(255,255,255)' }).promise
    return new Uint8Array(target.canvas.toBuffer('image/png'))
  } finally {
    await pdf.destroy()
  }
}
