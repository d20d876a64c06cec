import type { Worker as NodeWorker } from 'node:worker_threads'
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js'
import type { Bbox } from '../document-recognition.tables'
import type { PageWord } from '../page-text'
import { boxBeforeTurn } from './deskew'
import { type OcrImage, prepareForOcr } from './ocr-image'
import { documentLanguage, languageDataDir, type OcrLanguage } from './ocr-language'
import { readWithPaddle } from './paddle-ocr'

interface OcrWordLike {
  text: string
  confidence: number
  bbox: { x0: number; y0: number; x1: number; y1: number }
}
interface OcrBlockLike {
  paragraphs?: { lines?: { words?: OcrWordLike[] }[] }[]
}

/** Makes the image tesseract reads from a page image. */
export type PrepareImage = (image: Uint8Array) => Promise<OcrImage>

/**
 * How tesseract finds the text on a page: its automatic page layout (blocks, columns, lines), or sparse text, every
 * word wherever it stands (`withLostAmounts`).
 */
export type Layout = 'auto' | 'sparse'

/**
 * How a document's pages are read. `rereadSparse`: a page holding fewer than `MIN_AMOUNTS` amounts is read again
 * as sparse text (`withLostAmounts`); for till receipts, whose amount column tesseract's layout drops, and not for
 * every scanned letter, which would be read twice for nothing.
 */
export interface ReadOptions {
  rereadSparse?: boolean
}

/** Reads a page image (or only `region` of it): words with boxes as fractions of the image. */
export type ReadImage = (image: Uint8Array, signal?: AbortSignal, region?: Bbox) => Promise<PageWord[]>

/** An engine reading page images one at a time, and ended with `close` (its memory given back). */
export interface PageReader {
  /** Words of a page image read with the model of `language` (English unless said). */
  read(image: Uint8Array, signal?: AbortSignal, language?: OcrLanguage, layout?: Layout): Promise<PageWord[]>
  close(): Promise<void> | void
}

export interface TwoReadings {
  /** Tesseract's reading, then PaddleOCR's when it read the page. */
  readings: PageWord[][]
  /** Why PaddleOCR did not read the page, when it did not. */
  secondFailed: string | null
}

/** How long an idle tesseract worker is kept (reloading its model takes about a second). */
const TESSERACT_IDLE_MS = 20_000
/**
 * Language models kept loaded at once: English, which reads every page first, and the page's own. Each worker holds
 * its model and a WebAssembly heap that never shrinks, and sixteen languages are installed; the reading process is
 * also replaced when it holds too much (`reading-processes.ts`).
 */
const MAX_LANGUAGE_WORKERS = 2

/** A tesseract worker and the thread it runs on (tesseract.js exposes the thread as `worker`). */
interface Tesseract {
  api: Worker
  thread: NodeWorker
  /** Rejects when the thread dies (an uncaught error in it, a WebAssembly abort, its heap exhausted). */
  died: Promise<never>
}

/**
 * Tesseract workers, one per language model, each loaded on first use and reused (loading a model costs more than
 * reading a page); they read one image at a time, prepared for it (`ocr-image.ts`) in the same queue, so one page's
 * images are in memory at a time. A read that fails, is aborted or whose thread dies gives the worker up; the next read
 * loads a new one. tesseract.js throws a failed job's error from its message listener, and its thread's `error`
 * event has no listener (it sets `onerror`, which a Node worker never calls): either was an uncaught exception
 * that ended the server. Both are caught here and fail the read instead.
 */
export class TesseractReader implements PageReader {
  private readonly workers = new Map<OcrLanguage, Promise<Tesseract>>()
  private queue: Promise<unknown> = Promise.resolve()
  private pending = 0
  private idle: NodeJS.Timeout | null = null

  constructor(private readonly prepare: PrepareImage = prepareForOcr) {}

  /** Words of one page image with boxes as fractions of the image and tesseract's confidence (0..1). */
  read(
    image: Uint8Array,
    signal?: AbortSignal,
    language: OcrLanguage = 'eng',
    layout: Layout = 'auto',
  ): Promise<PageWord[]> {
    this.pending++
    if (this.idle) clearTimeout(this.idle)
    const task = this.queue.then(async () =>
      this.recognise(await this.prepare(image), language, layout, signal),
    )
    this.queue = task
      .catch(() => undefined)
      .finally(() => {
        // A WebAssembly heap never shrinks: a worker idle for a while is ended, and its heap given back.
        if (--this.pending === 0) this.idle = setTimeout(() => void this.close(), TESSERACT_IDLE_MS).unref()
      })
    return task
  }

  /** The language models loaded now, the longest unused first. */
  loadedLanguages(): OcrLanguage[] {
    return [...this.workers.keys()]
  }

  async close(): Promise<void> {
    const workers = [...this.workers.values()]
    this.workers.clear()
    await Promise.all(workers.map((worker) => worker.then((w) => w.api.terminate()).catch(() => undefined)))
  }

  private load(language: OcrLanguage): Promise<Tesseract> {
    const loaded = this.workers.get(language)
    if (loaded) {
      // Most recently used last: the one ended when another language needs a place is the longest unused.
      this.workers.delete(language)
      this.workers.set(language, loaded)
      return loaded
    }
    // Reads run one at a time, so no other worker is reading now: the longest unused one ends to make room.
    if (this.workers.size >= MAX_LANGUAGE_WORKERS) {
      const [oldest, worker] = this.workers.entries().next().value as [OcrLanguage, Promise<Tesseract>]
      this.workers.delete(oldest)
      void worker.then((w) => w.api.terminate()).catch(() => undefined)
    }
    const worker = createWorker(language, OEM.LSTM_ONLY, {
      langPath: languageDataDir(language),
      cacheMethod: 'none',
      gzip: true,
      // The failed job's promise rejects with the same error; without a handler the library also throws it.
      errorHandler: () => undefined,
    }).then(async (api) => {
      const thread = (api as unknown as { worker: NodeWorker }).worker
      const died = new Promise<never>((_, reject) => {
        thread.once('error', (error) => reject(new Error(`the OCR engine crashed: ${error.message}`)))
        thread.once('exit', (code) => reject(new Error(`the OCR engine stopped (exit code ${code})`)))
      })
      died.catch(() => undefined)
      // Automatic page segmentation: tesseract's library default (one uniform block, PSM 6) runs the columns of a
      // receipt's item and total lines together (77.5 % against 80.9 % on the tuning receipts). The prepared
      // image carries no resolution; its lines are the size of 300 dpi print, so tesseract need not guess one.
      await Promise.race([
        api.setParameters({ tessedit_pageseg_mode: PSM.AUTO, user_defined_dpi: '300' }),
        died,
      ])
      return { api, thread, died }
    })
    this.workers.set(language, worker)
    return worker
  }

  private async recognise(
    image: OcrImage,
    language: OcrLanguage,
    layout: Layout,
    signal?: AbortSignal,
  ): Promise<PageWord[]> {
    signal?.throwIfAborted()
    const loading = this.load(language)
    const abort = () => void this.close()
    signal?.addEventListener('abort', abort, { once: true })
    try {
      const { api, died } = await loading
      const mode = layout === 'sparse' ? PSM.SPARSE_TEXT : PSM.AUTO
      await Promise.race([api.setParameters({ tessedit_pageseg_mode: mode }), died])
      const png = Buffer.from(image.png.buffer, image.png.byteOffset, image.png.byteLength)
      const { data } = await Promise.race([api.recognize(png, {}, { blocks: true }), died])
      signal?.throwIfAborted()
      const words = ((data.blocks ?? []) as OcrBlockLike[]).flatMap((block) =>
        (block.paragraphs ?? []).flatMap((p) => (p.lines ?? []).flatMap((line) => line.words ?? [])),
      )
      return words
        .filter((word) => word.text.trim())
        .map((word) => {
          const box: Bbox = [
            word.bbox.x0 / image.width,
            word.bbox.y0 / image.height,
            word.bbox.x1 / image.width,
            word.bbox.y1 / image.height,
          ]
          return {
            text: word.text.trim(),
            // Boxes are fractions of the page as uploaded, which is what is stored and shown.
            bbox: image.turn ? boxBeforeTurn(box, image.turn) : box,
            confidence: Math.max(0, Math.min(1, word.confidence / 100)),
          }
        })
    } catch (error) {
      signal?.throwIfAborted()
      // A worker that failed a read may hold a broken heap: the next read starts a new one.
      if (this.workers.get(language) === loading) await this.close()
      throw new Error(`tesseract: ${error instanceof Error ? error.message : String(error)}`)
    } finally {
      signal?.removeEventListener('abort', abort)
    }
  }
}

/**
 * A page read as holding fewer amounts than this has, as a rule, lost a column to tesseract's automatic layout:
 * on a till receipt the amounts stand alone at the paper's right edge, a wide gap from their labels, and the layout
 * analysis drops that column whole, or all of it but a tax line (a receipt of two items prints five amounts: the
 * items, the total, the payment, the change or tax). Such a page is read again as sparse text, which finds every
 * word wherever it stands, and the words the first reading lacks are added to it (`OcrEngine`, once the page's
 * language is known, so a page read first in English to find its language is not read sparse in English too).
 */
const MIN_AMOUNTS = 5
const AMOUNT = /\d[.,]\d{2}(?!\d)/
const amountsIn = (words: PageWord[]) => words.filter((word) => AMOUNT.test(word.text)).length

const centre = (box: Bbox) => [(box[0] + box[2]) / 2, (box[1] + box[3]) / 2] as const
const holds = (box: Bbox, [x, y]: readonly [number, number]) =>
  x >= box[0] && x <= box[2] && y >= box[1] && y <= box[3]
/** Two readings' words are one printed word when either's centre lies inside the other's box. */
const sameWord = (a: PageWord, b: PageWord) => holds(a.bbox, centre(b.bbox)) || holds(b.bbox, centre(a.bbox))

/** This process's tesseract reader (the server's document process runs `readWithTesseract`). */
let processReader: TesseractReader | null = null

/** Task `readWithTesseract`: a page image prepared and read by this process's tesseract, in `language`. */
export function readWithTesseract(input: {
  bytes: Uint8Array
  language?: OcrLanguage
  layout?: Layout
}): Promise<PageWord[]> {
  processReader ??= new TesseractReader()
  return processReader.read(input.bytes, undefined, input.language, input.layout)
}

/**
 * The OCR of a document: tesseract reads every page, and for documents read twice (`readTwice`) PaddleOCR
 * (`paddle-ocr.ts`) reads it too, both at once. The engines misread different characters, so the rules take each
 * field from the reading it is best read in (`readings.ts`). Both read in this process unless given readers that
 * read elsewhere (the server's: `reading-processes.ts`).
 */
export class OcrEngine {
  constructor(
    private readonly first: PageReader = new TesseractReader(),
    private readonly readOther: ReadImage = (image, _signal, region) =>
      readWithPaddle({ bytes: image, region }),
  ) {}

  /**
   * Words of one page image with boxes as fractions of the image and tesseract's confidence (0..1), read with the
   * model of the page's language (`inPageLanguage`).
   */
  async recognise(image: Uint8Array, signal?: AbortSignal, options: ReadOptions = {}): Promise<PageWord[]> {
    signal?.throwIfAborted()
    const english = await this.first.read(image, signal)
    return this.inPageLanguage(image, [english], options, signal)
  }

  /**
   * Two readings of one page image, tesseract's first and PaddleOCR's second, read in parallel. A second reading
   * that fails leaves the first alone (the page is still read, its fields checked as one reading would be), with
   * the failure named; tesseract failing fails the page.
   */
  async readTwice(image: Uint8Array, signal?: AbortSignal, options: ReadOptions = {}): Promise<TwoReadings> {
    signal?.throwIfAborted()
    const [first, second] = await Promise.allSettled([
      this.first.read(image, signal),
      this.readOther(image, signal),
    ])
    if (first.status === 'rejected') throw first.reason
    const other = second.status === 'fulfilled' ? [second.value] : []
    const tesseract = await this.inPageLanguage(image, [first.value, ...other], options, signal)
    if (second.status === 'fulfilled') return { readings: [tesseract, second.value], secondFailed: null }
    const reason = second.reason instanceof Error ? second.reason.message : String(second.reason)
    return { readings: [tesseract], secondFailed: reason }
  }

  /**
   * PaddleOCR's reading of `region` of one page image alone: a row whose value the first reading left unsure. A
   * row reads in a fraction of a page's time: 0.16-0.46 s against 2-3 s for an A4 page at 1700 px, on a shared
   * machine, its models loaded.
   */
  readSecond(image: Uint8Array, region: Bbox, signal?: AbortSignal): Promise<PageWord[]> {
    signal?.throwIfAborted()
    return this.readOther(image, signal, region)
  }

  /**
   * Every page is read with the English model first; a page whose words are another installed language's
   * (`documentLanguage`) is read again with that language's model, which knows its letters ("ä", "ß", "ā") and
   * words, and that reading replaces the English one.
   */
  private async inPageLanguage(
    image: Uint8Array,
    readings: PageWord[][],
    options: ReadOptions,
    signal?: AbortSignal,
  ) {
    const language = documentLanguage(readings)
    const laidOut =
      language === 'eng' ? (readings[0] as PageWord[]) : await this.first.read(image, signal, language)
    return options.rereadSparse ? this.withLostAmounts(image, laidOut, language, signal) : laidOut
  }

  /**
   * A page reading with the words tesseract's automatic layout lost added (`MIN_AMOUNTS`): read again as sparse
   * text, the words the first reading lacks (no box overlapping theirs) are added to it.
   */
  private async withLostAmounts(
    image: Uint8Array,
    laidOut: PageWord[],
    language: OcrLanguage,
    signal?: AbortSignal,
  ): Promise<PageWord[]> {
    if (amountsIn(laidOut) >= MIN_AMOUNTS) return laidOut
    const sparse = await this.first.read(image, signal, language, 'sparse')
    return [...laidOut, ...sparse.filter((word) => !laidOut.some((kept) => sameWord(kept, word)))]
  }

  async close(): Promise<void> {
    await this.first.close()
  }
}
