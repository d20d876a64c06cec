import sharp from 'sharp'
import type { AppContext } from '../../platform/app-context'
import * as repo from '../document-recognition.repository'
import type { Bbox } from '../document-recognition.tables'
import { linesOf, unionBox } from '../extraction/layout'
import { wordsInBox } from '../extraction/locate'
import type { PageText, PageWord } from '../page-text'
import { pagesNeedingOcr, readTextLayer, renderPage } from '../pipeline/document-pages'
import type { OcrEngine } from '../pipeline/ocr'
import type { AgentRunRow } from '../runs/runs.repository'

export type StoredPage = PageText & { origin: 'text_layer' | 'ocr' }

/** Regions are rendered at the pipeline's OCR resolution (about 200 dpi for A4). */
const OCR_WIDTH_PX = 1700
/**
 * A region's words are enlarged to about this height (px, a word box's top to bottom) before tesseract reads them:
 * tesseract reads best at a cap height of about 20-40 px, and a word cut tightly out of a receipt scan is a dozen.
 * The pipeline's own resampling (`ocr-image.ts`) never shrinks, so the crop reaches it at this size.
 */
const REGION_LINE_PX = 36
/** Enlarging further invents no detail. */
const MAX_REGION_FACTOR = 6
/** Page pixels kept around a box, in line heights: a box drawn tightly may clip the strokes of its letters. */
const PAGE_MARGIN_LINES = 0.3
/**
 * White added around the crop, in line heights: tesseract's page layout finds no text block in an image that is
 * little more than one word (a tight crop of "9.00" on a faded receipt read nothing with one line of white, and
 * 0.66 confident with two).
 */
const WHITE_MARGIN_LINES = 2

/**
 * The height of a text line in the box, as a fraction of the page: the median height of the words the pipeline
 * read there, else the box's own height (a box drawn around one word is about one line high).
 */
function lineHeightIn(page: PageText, bbox: Bbox): number {
  const heights = wordsInBox(page.words, bbox)
    .map((word) => word.bbox[3] - word.bbox[1])
    .sort((a, b) => a - b)
  return heights[Math.floor(heights.length / 2)] ?? bbox[3] - bbox[1]
}

/**
 * The words of every page as the pipeline read them. Runs completed before the words were stored read their text
 * layer again (pages without one come back empty: a region of them is read by OCR).
 */
export async function pagesOf(ctx: AppContext, run: AgentRunRow): Promise<StoredPage[]> {
  const sizes = (await repo.findRunReview(ctx.database.reader, run.id))?.pages ?? []
  const stored = await repo.listPageTexts(ctx.database.reader, run.id)
  if (stored.length)
    return stored.map((row) => {
      const size = sizes.find((p) => p.page_number === row.pageNumber)
      return {
        page_number: row.pageNumber,
        width: size?.width ?? 0,
        height: size?.height ?? 0,
        words: row.words,
        origin: row.origin as StoredPage['origin'],
      }
    })
  if (!run.pdfSha256 || !ctx.blobs.has(run.pdfSha256)) return []
  const pages = await readTextLayer(ctx, await ctx.blobs.readBytes(run.pdfSha256))
  const scans = pagesNeedingOcr(pages)
  return pages.map((page) =>
    scans.includes(page.page_number)
      ? { ...page, words: [], origin: 'ocr' }
      : { ...page, origin: 'text_layer' },
  )
}

/** Words in reading order (lines top to bottom, left to right) and their text joined with spaces. */
export function readingOrder(page: PageText, words: PageWord[]): { text: string; words: PageWord[] } {
  const lines = linesOf({ ...page, words }).sort((a, b) => a.bbox[1] - b.bbox[1])
  return { text: lines.map((l) => l.text).join(' '), words: lines.flatMap((l) => l.words) }
}

/**
 * OCR of one region of a rendered page, cropped with a little of the page around it, stretched to full contrast,
 * enlarged so its lines are REGION_LINE_PX high and set on white; word boxes come back as fractions of the page.
 */
async function ocrRegion(
  ctx: AppContext,
  ocr: OcrEngine,
  pdf: Uint8Array,
  page: PageText,
  bbox: Bbox,
): Promise<PageWord[]> {
  const png = await renderPage(ctx, pdf, page.page_number, OCR_WIDTH_PX / page.width)
  const meta = await sharp(png).metadata()
  const width = meta.width ?? 0
  const height = meta.height ?? 0
  const linePx = Math.max(1, lineHeightIn(page, bbox) * height)
  const margin = Math.round(linePx * PAGE_MARGIN_LINES)
  const left = Math.max(0, Math.floor(bbox[0] * width) - margin)
  const top = Math.max(0, Math.floor(bbox[1] * height) - margin)
  const right = Math.min(width, Math.ceil(bbox[2] * width) + margin)
  const bottom = Math.min(height, Math.ceil(bbox[3] * height) + margin)
  const cropWidth = Math.max(1, right - left)
  const cropHeight = Math.max(1, bottom - top)
  const factor = Math.max(1, Math.min(MAX_REGION_FACTOR, REGION_LINE_PX / linePx))
  const scaledWidth = Math.round(cropWidth * factor)
  const scaledHeight = Math.round(cropHeight * factor)
  const pad = Math.round(REGION_LINE_PX * WHITE_MARGIN_LINES)
  const region = await sharp(
    await sharp(png)
      .extract({ left, top, width: cropWidth, height: cropHeight })
      // Stretched to full contrast: faded thermal print in a crop of a few words is mostly paper, and tesseract
      // reads it surer (the "9.00" above: 0.96 with both). Whole pages are not stretched (see `ocr-image.ts`).
      .greyscale()
      .normalise()
      .resize(scaledWidth, scaledHeight, { kernel: 'lanczos3' })
      .png()
      .toBuffer(),
  )
    .extend({ top: pad, bottom: pad, left: pad, right: pad, background: '#ffffff' })
    .png()
    .toBuffer()
  const paddedWidth = scaledWidth + 2 * pad
  const paddedHeight = scaledHeight + 2 * pad
  const toPageX = (fraction: number) => (left + (fraction * paddedWidth - pad) / factor) / width
  const toPageY = (fraction: number) => (top + (fraction * paddedHeight - pad) / factor) / height
  const clamp = (n: number) => Math.max(0, Math.min(1, n))
  return (await ocr.recognise(new Uint8Array(region))).map((word) => ({
    ...word,
    bbox: [
      clamp(toPageX(word.bbox[0])),
      clamp(toPageY(word.bbox[1])),
      clamp(toPageX(word.bbox[2])),
      clamp(toPageY(word.bbox[3])),
    ],
  }))
}

export interface RegionRead {
  page_number: number
  origin: 'text_layer' | 'ocr'
  text: string
  bbox: Bbox | null
  words: PageWord[]
}

/**
 * The words inside a box on a page: from the text layer, or, for a page without a usable one, by OCR of that
 * region of the rendered page (a crop reads small print better than the whole page did).
 */
export async function readRegion(
  ctx: AppContext,
  ocr: OcrEngine,
  run: AgentRunRow,
  page: StoredPage,
  bbox: Bbox,
): Promise<RegionRead> {
  let words: PageWord[]
  if (page.origin === 'ocr' && run.pdfSha256) {
    const pdf = await ctx.blobs.readBytes(run.pdfSha256)
    words = wordsInBox(await ocrRegion(ctx, ocr, pdf, page, bbox), bbox)
  } else words = wordsInBox(page.words, bbox)
  const read = readingOrder(page, words)
  return {
    page_number: page.page_number,
    origin: page.origin,
    text: read.text,
    bbox: read.words.length ? unionBox(read.words.map((w) => w.bbox)) : null,
    words: read.words,
  }
}
