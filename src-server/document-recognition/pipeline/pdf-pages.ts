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
  }).promise
}

/** Splits a text run into words, giving each a share of the run's width proportional to its characters. */
function wordsOfItem(item: TextItemLike, pageWidth: number, pageHeight: number): PageWord[] {
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0] = item.transform
  const fontHeight = item.height || Math.hypot(c, d) || Math.hypot(a, b)
  if (!item.str.trim() || fontHeight <= 0) return []
  const runWidth = item.width || fontHeight * 0.5 * item.str.length
  const perChar = runWidth / item.str.length
  // Ascenders reach about 0.8 of the font size above the baseline, descenders 0.2 below it.
  const top = Math.max(0, (pageHeight - (f + fontHeight * 0.85)) / pageHeight)
  const bottom = Math.min(1, (pageHeight - (f - fontHeight * 0.25)) / pageHeight)
  const words: PageWord[] = []
  for (const match of item.str.matchAll(/\S+/g)) {
    const x0 = e + perChar * (match.index ?? 0)
    const x1 = x0 + perChar * match[0].length
    words.push({
      text: match[0],
      bbox: [Math.max(0, x0 / pageWidth), top, Math.min(1, x1 / pageWidth), bottom],
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
      const words = content.items.flatMap((item) =>
        'str' in item ? wordsOfItem(item as TextItemLike, viewport.width, viewport.height) : [],
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
