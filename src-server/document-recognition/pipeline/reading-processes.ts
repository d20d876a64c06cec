import { TaskProcess } from '../../platform/jobs'
import type { ExtractedField } from '../extraction/extracted-field'
import type { ExtractionConfig, FieldDefinition } from '../extraction/field-config'
import type { PageText, PageWord } from '../page-text'
import { PDF_TASK_TIMEOUT_MS } from './document-pages'
import type { NormalisedSource } from './normalise'
import { OcrEngine } from './ocr'
import { PADDLE_TIMEOUT_MS } from './paddle-ocr'

/**
 * How long an idle reading process is kept. Its memory (decoded pages, tesseract's heap, PaddleOCR's models and
 * buffers) goes back only when it exits, and the server's resident memory is to be back under 500 MB within a
 * minute of a document read; reloading the engines costs about a second.
 */
export const READING_IDLE_MS = 10_000

/**
 * A reading process holding more than this after a task (its garbage collected) is ended, and the next task starts
 * a new one: what it freed stays resident otherwise, and grows page after page. Tesseract's process, its engine
 * loaded, holds ~0.25 GB. PaddleOCR's holds ~0.2 GB with its models loaded, ~0.35 GB more at the peak of a page's
 * reading and 0.32-0.56 GB after it, and a second page read on top of that took it to 0.73-0.81 GB and the
 * server's tree past its 1.2 GB budget (1.18-1.27 GB): so it is replaced after every page it reads whole, and the
 * new one loads its models at once (`prepareTask`), while the server does the rest of the document, so that the
 * next page seldom waits for them (12 MP receipt p50 1.8-2.1 s against 1.6-1.7 s without replacing it, and 2.4 s
 * replacing it without loading ahead; the tree's peak 0.85-0.92 GB).
 */
const PAGES_RECYCLE_MB = 400
const PADDLE_RECYCLE_MB = 300

/**
 * Where the server decodes and reads documents: two child processes that start on first use and exit when idle
 * (`jobs/task-process.ts`). One makes uploads PDFs, reads their text layer, renders scanned pages and reads them
 * with tesseract, a page at a time, and extracts the fields; the other reads pages with PaddleOCR, beside it on
 * the other core. The server process keeps only bytes
 * and words, so its memory stays what serving requests needs; a crash or an exhausted heap in either ends that
 * process alone and fails the page it read.
 */
export class ReadingProcesses {
  private readonly pages: TaskProcess
  private readonly paddle: TaskProcess

  /** `entry`: the processes' module where it is not the one beside the server's (a test's bundle). */
  constructor(entry?: URL) {
    this.pages = new TaskProcess(READING_IDLE_MS, { entry, recycleAboveMb: PAGES_RECYCLE_MB })
    // Named: its crash is a page's `ocr_errors` entry, which says which engine failed.
    this.paddle = new TaskProcess(READING_IDLE_MS, {
      entry,
      recycleAboveMb: PADDLE_RECYCLE_MB,
      prepareTask: 'preparePaddle',
      name: "PaddleOCR's process",
    })
  }

  readonly ocr = new OcrEngine(
    {
      read: (image, _signal, language, layout) =>
        this.pages.run<PageWord[]>(
          'readWithTesseract',
          { bytes: image, language, layout },
          { timeoutMs: PDF_TASK_TIMEOUT_MS, timeoutMessage: 'tesseract took too long to read the page.' },
        ),
      close: () => this.pages.close(),
    },
    (image, _signal, region) =>
      this.paddle.run<PageWord[]>(
        'readWithPaddle',
        { bytes: image, region },
        { timeoutMs: PADDLE_TIMEOUT_MS, timeoutMessage: 'PaddleOCR took too long to read the page.' },
      ),
  )

  /** The upload as a PDF, its images decoded and scaled (`normalise.ts`). */
  normalise(bytes: Uint8Array, mimeType: string, maxPages: number): Promise<NormalisedSource> {
    return this.pages.run(
      'normaliseDocument',
      { bytes, mimeType, maxPages },
      { timeoutMs: PDF_TASK_TIMEOUT_MS, timeoutMessage: 'Reading the uploaded file took too long.' },
    )
  }

  /** The text layer of every page of `pdf`. */
  textLayer(pdf: Uint8Array): Promise<PageText[]> {
    return this.pages.run(
      'documentText',
      { bytes: pdf },
      { timeoutMs: PDF_TASK_TIMEOUT_MS, timeoutMessage: 'Reading the PDF took too long.' },
    )
  }

  /** The rules' fields from the pages' readings (`extraction/readings.ts`), and the pages they chose. */
  extract(input: {
    fields: FieldDefinition[]
    readings: PageText[][]
    known: ExtractedField[]
    /** `invoice`: the learned ranker chooses after the rules (`extraction/invoice-ranker/`). */
    ranker?: ExtractionConfig['ranker']
  }): Promise<{ fields: ExtractedField[]; pages: PageText[] }> {
    return this.pages.run('extractFields', input, {
      timeoutMs: PDF_TASK_TIMEOUT_MS,
      timeoutMessage: 'Extracting the fields took too long.',
    })
  }

  /** A PNG of one page of `pdf` at `scale` (1 = 72 dpi), for OCR. */
  render(pdf: Uint8Array, pageNumber: number, scale: number): Promise<Uint8Array> {
    return this.pages.run(
      'renderPdfPage',
      { bytes: pdf, pageNumber, scale },
      { timeoutMs: PDF_TASK_TIMEOUT_MS, timeoutMessage: `Rendering page ${pageNumber} took too long.` },
    )
  }

  close(): void {
    this.pages.close()
    this.paddle.close()
  }
}
