import type { AppContext } from '../../platform/app-context'
import type { Bbox } from '../document-recognition.tables'
import type { PageText, PageWord } from '../page-text'
import type { ReadingProcesses } from './reading-processes'
import { unreadableTextLayer } from './text-layer-quality'

/** A page with fewer words than this in its text layer is treated as a scan and read by OCR. */
const MIN_TEXT_LAYER_WORDS = 3
/** Pages are rendered about 1700 px wide for OCR: 200 dpi for A4, which tesseract reads well. */
const OCR_WIDTH_PX = 1700
/**
 * How long one task of a document may run on a worker thread (parsing, rendering, image preparation, the rules'
 * extraction): one that hangs fails the run, and its thread is replaced.
 */
export const PDF_TASK_TIMEOUT_MS = 120_000

/** The text layer of every page. `pdf` moves to the worker thread: pass `sharedBytes(pdf)` to use it again. */
export async function readTextLayer(ctx: AppContext, pdf: Uint8Array): Promise<PageText[]> {
  return ctx.workers.run<PageText[]>(
    'documentText',
    { bytes: pdf },
    { timeoutMs: PDF_TASK_TIMEOUT_MS, timeoutMessage: 'Reading the PDF took too long.', transfer: [pdf] },
  )
}

/**
 * Pages read by OCR: a scan (fewer than MIN_TEXT_LAYER_WORDS words in its text layer), or a page whose text layer
 * decodes to junk (`unreadableTextLayer`: fonts without a usable character map), whose rendering still shows text.
 */
export function pagesNeedingOcr(pages: PageText[]): number[] {
  return pages
    .filter((page) => page.words.length < MIN_TEXT_LAYER_WORDS || unreadableTextLayer(page))
    .map((page) => page.page_number)
}

/**
 * OCR of one page: the image the page was made of when there is one (an uploaded scan's own pixels, resampled for
 * tesseract, read better than a rendering of the PDF page that wraps it: 79.8 % against 67.4 % of merchant, date
 * and total on the tuning receipts), else the page rendered in the reading process. Read by tesseract, and with
 * `readings` 2 by PaddleOCR as well: the page's readings, tesseract's first, and why the second is missing when it
 * failed.
 */
export async function ocrPage(
  reading: ReadingProcesses,
  pdf: Uint8Array,
  page: PageText,
  signal: AbortSignal,
  options: { pageImage?: Uint8Array; readings: number; rereadSparse: boolean },
): Promise<{ readings: PageText[]; secondFailed: string | null }> {
  const image = await ocrImage(reading, pdf, page, options.pageImage)
  const read =
    options.readings > 1
      ? await reading.ocr.readTwice(image, signal, options)
      : { readings: [await reading.ocr.recognise(image, signal, options)], secondFailed: null }
  return { readings: read.readings.map((words) => ({ ...page, words })), secondFailed: read.secondFailed }
}

/** The image a page is read from by OCR: the one it was made of, else its rendering (`ocrPage`). */
async function ocrImage(reading: ReadingProcesses, pdf: Uint8Array, page: PageText, pageImage?: Uint8Array) {
  return pageImage ?? (await reading.render(pdf, page.page_number, OCR_WIDTH_PX / page.width))
}

/** Rows across a page, those overlapping joined into one (a row is read once). */
function joinedRows(rows: Bbox[]): Bbox[] {
  const joined: Bbox[] = []
  for (const row of [...rows].sort((a, b) => a[1] - b[1])) {
    const last = joined.at(-1)
    if (last && row[1] <= last[3]) joined[joined.length - 1] = [0, last[1], 1, Math.max(last[3], row[3])]
    else joined.push(row)
  }
  return joined
}

/**
 * Rows across one page read a second time, by PaddleOCR alone (`extraction/invoice-ranker/second-reading.ts`):
 * the page's image made once, each row (overlapping ones joined) read from it; their words as one page.
 */
export async function readRowsAgain(
  reading: ReadingProcesses,
  pdf: Uint8Array,
  page: PageText,
  rows: Bbox[],
  signal: AbortSignal,
  pageImage?: Uint8Array,
): Promise<PageText> {
  const image = await ocrImage(reading, pdf, page, pageImage)
  const words: PageWord[] = []
  for (const row of joinedRows(rows)) words.push(...(await reading.ocr.readSecond(image, row, signal)))
  return { ...page, words }
}

/**
 * The document's readings with one page's readings put in: reading i of the document holds that page's reading i.
 * A page read fewer times than another stands in for its missing readings with its own first one, the same page
 * object, which the readings' chooser counts as read once (`extraction/readings.ts`).
 */
export function withPageReadings(readings: PageText[][], pageReadings: PageText[]): PageText[][] {
  const [firstOfPage] = pageReadings
  if (!firstOfPage) return readings
  const count = Math.max(readings.length, pageReadings.length)
  return Array.from({ length: count }, (_, i) =>
    (readings[i] ?? (readings[0] as PageText[])).map((page) =>
      page.page_number === firstOfPage.page_number ? (pageReadings[i] ?? firstOfPage) : page,
    ),
  )
}

/**
 * A PNG of one page, rendered on a worker thread (a page image shown in the review). `pdf` moves to the worker
 * thread: pass `sharedBytes(pdf)` to use it again.
 */
export async function renderPage(
  ctx: AppContext,
  pdf: Uint8Array,
  pageNumber: number,
  scale: number,
): Promise<Uint8Array> {
  return ctx.workers.run<Uint8Array>(
    'renderPdfPage',
    { bytes: pdf, pageNumber, scale },
    {
      timeoutMs: PDF_TASK_TIMEOUT_MS,
      timeoutMessage: `Rendering page ${pageNumber} took too long.`,
      transfer: [pdf],
    },
  )
}
