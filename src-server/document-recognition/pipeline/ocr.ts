import { createRequire } from 'node:module'
import path from 'node:path'
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js'
import type { Bbox } from '../document-recognition.tables'
import type { PageWord } from '../page-text'
import { boxBeforeTurn } from './deskew'
import { type OcrImage, prepareForOcr } from './ocr-image'

/** The bundled English model: read from node_modules, never downloaded. */
function englishDataDir(): string {
  const packageJson = createRequire(import.meta.url).resolve('@tesseract.js-data/eng/package.json')
  return path.join(path.dirname(packageJson), '4.0.0_best_int')
}

interface OcrWordLike {
  text: string
  confidence: number
  bbox: { x0: number; y0: number; x1: number; y1: number }
}
interface OcrBlockLike {
  paragraphs?: { lines?: { words?: OcrWordLike[] }[] }[]
}

/** Makes the image tesseract reads from a page image; the server runs it on its worker pool. */
export type PrepareImage = (image: Uint8Array) => Promise<OcrImage>

/**
 * How tesseract turns the grey image into black and white before reading it: its default, Otsu's one global
 * threshold, or Sauvola's threshold per neighbourhood, which keeps faded strokes on a receipt whose paper darkens
 * towards one edge but loses small marks such as decimal points. The two readings fail on different characters.
 */
const THRESHOLDS = { otsu: '0', sauvola: '2' } as const

/**
 * One tesseract worker, loaded on first use and reused (loading the model costs more than reading a page); it
 * reads one image at a time. An aborted read terminates it; the next read loads a new one.
 */
class Reader {
  private worker: Promise<Worker> | null = null
  private queue: Promise<unknown> = Promise.resolve()

  constructor(private readonly threshold: keyof typeof THRESHOLDS) {}

  read(image: OcrImage, signal?: AbortSignal): Promise<PageWord[]> {
    const task = this.queue.then(() => this.recognise(image, signal))
    this.queue = task.catch(() => undefined)
    return task
  }

  async close(): Promise<void> {
    const worker = this.worker
    this.worker = null
    if (worker) await (await worker).terminate().catch(() => undefined)
  }

  private load(): Promise<Worker> {
    this.worker ??= createWorker('eng', OEM.LSTM_ONLY, {
      langPath: englishDataDir(),
      cacheMethod: 'none',
      gzip: true,
    }).then(async (worker) => {
      // Automatic page segmentation: tesseract's library default (one uniform block, PSM 6) runs the columns of a
      // receipt's item and total lines together (77.5 % against 80.9 % on the tuning receipts). The prepared
      // image carries no resolution; its lines are the size of 300 dpi print, so tesseract need not guess one.
      await worker.setParameters({
        tessedit_pageseg_mode: PSM.AUTO,
        user_defined_dpi: '300',
        thresholding_method: THRESHOLDS[this.threshold],
      })
      return worker
    })
    return this.worker
  }

  private async recognise(image: OcrImage, signal?: AbortSignal): Promise<PageWord[]> {
    signal?.throwIfAborted()
    const worker = await this.load()
    const abort = () => void this.close()
    signal?.addEventListener('abort', abort, { once: true })
    try {
      const png = Buffer.from(image.png.buffer, image.png.byteOffset, image.png.byteLength)
      const { data } = await worker.recognize(png, {}, { blocks: true })
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
    } finally {
      signal?.removeEventListener('abort', abort)
    }
  }
}

/**
 * The process's OCR: a tesseract worker with the default threshold for every read, and a second one with
 * Sauvola's for documents read twice (`readTwice`), started on first use, so both readings run at once.
 */
export class OcrEngine {
  private readonly first = new Reader('otsu')
  private readonly second = new Reader('sauvola')

  constructor(private readonly prepare: PrepareImage = prepareForOcr) {}

  /** Words of one page image with boxes as fractions of the image and tesseract's confidence (0..1). */
  async recognise(image: Uint8Array, signal?: AbortSignal): Promise<PageWord[]> {
    signal?.throwIfAborted()
    return this.first.read(await this.prepare(image), signal)
  }

  /** Two readings of one page image, with the default threshold first and Sauvola's second, read in parallel. */
  async readTwice(image: Uint8Array, signal?: AbortSignal): Promise<[PageWord[], PageWord[]]> {
    signal?.throwIfAborted()
    const prepared = await this.prepare(image)
    return Promise.all([this.first.read(prepared, signal), this.second.read(prepared, signal)])
  }

  async close(): Promise<void> {
    await Promise.all([this.first.close(), this.second.close()])
  }
}
