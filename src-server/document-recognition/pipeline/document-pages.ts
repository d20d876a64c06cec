import type { AppContext } from '../../app-context'
import type { PageText } from '../page-text'
import type { OcrEngine } from './ocr'

/** A page with fewer words than this in its text layer is treated as a scan and read by OCR. */
const MIN_TEXT_LAYER_WORDS = 3
/** Pages are rendered about 1700 px wide for OCR: 200 dpi for A4, which tesseract reads well. */
const OCR_WIDTH_PX = 1700
/**
 * How long one page task (parse, render, image preparation) may run on a worker thread: one that hangs fails the
 * run, and its thread is replaced.
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

export function pagesNeedingOcr(pages: PageText[]): number[] {
  return pages.filter((page) => page.words.length < MIN_TEXT_LAYER_WORDS).map((page) => page.page_number)
}

/**
 * OCR of one page by tesseract with the bundled English model: the image the page was made of when there is
 * one (an uploaded scan's own pixels, resampled for tesseract, read better than a rendering of the PDF page that
 * wraps it: 79.8 % against 67.4 % of merchant, date and total on the tuning receipts), else the page rendered
 * on a worker thread (which `pdf` moves to, as in `renderPage`). Read `readings` times (1 or 2): the page's
 * readings, the default one first.
 */
export async function ocrPage(
  ctx: AppContext,
  ocr: OcrEngine,
  pdf: Uint8Array,
  page: PageText,
  signal: AbortSignal,
  options: { pageImage?: Uint8Array; readings: number },
): Promise<PageText[]> {
  const image = options.pageImage ?? (await renderPage(ctx, pdf, page.page_number, OCR_WIDTH_PX / page.width))
  const readings =
    options.readings > 1 ? await ocr.readTwice(image, signal) : [await ocr.recognise(image, signal)]
  return readings.map((words) => ({ ...page, words }))
}

/** A PNG of one page. `pdf` moves to the worker thread: pass `sharedBytes(pdf)` to use it again. */
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
