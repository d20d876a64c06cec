import { readFileSync } from 'node:fs'
import sharp from 'sharp'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { receiptImage } from '../../../test/helpers/document-recognition/receipt-image'
import { fixturePath } from '../../../test/helpers/fixtures'
import type { PageText } from '../page-text'
import { withPageReadings } from './document-pages'
import { OcrEngine, TesseractReader } from './ocr'

const page = (pageNumber: number, text: string): PageText => ({
  page_number: pageNumber,
  width: 595,
  height: 842,
  words: [{ text, bbox: [0.1, 0.1, 0.2, 0.12], confidence: 0.9 }],
})

describe('two OCR readings', () => {
  const failing = new OcrEngine(undefined, async () => {
    throw new Error('PaddleOCR could not load its models.')
  })
  afterAll(() => failing.close())

  it('reads a page by tesseract alone when PaddleOCR fails, and names the failure', async () => {
    const receipt = readFileSync(fixturePath('receipts', 'sroie', '006.jpg'))
    const { readings, secondFailed } = await failing.readTwice(receipt)
    expect(secondFailed).toBe('PaddleOCR could not load its models.')
    expect(readings).toHaveLength(1)
    expect(readings[0]?.map((w) => w.text)).toContain('SOON')
  }, 60_000)

  it('keeps every page in every reading: a page read once stands in for its missing reading itself', () => {
    const scanned = page(1, 'SOON')
    const second = page(1, 'S00N')
    const once = page(2, 'HUAT')
    const twoReadings = withPageReadings([[page(1, ''), page(2, '')]], [scanned, second])
    const readings = withPageReadings(twoReadings, [once])
    expect(readings.map((r) => r.map((p) => p.words[0]?.text))).toEqual([
      ['SOON', 'HUAT'],
      ['S00N', 'HUAT'],
    ])
    // The same object: the chooser counts page 2 as read once, not as two readings that agree.
    expect(readings[1]?.[1]).toBe(readings[0]?.[1])
  })
})

describe('a receipt whose amounts stand apart at the right edge', () => {
  const engine = new OcrEngine()
  afterAll(() => engine.close())

  it('reads the amount column the automatic layout loses on a photo of the paper on a table', async () => {
    const photo = await receiptImage(
      [
        'The Copper Kettle',
        '7 Market Square, York',
        ['Flat White', '3.10'],
        ['Almond Croissant', '2.95'],
        ['Sparkling Water', '1.80'],
        ['Total', '£7.85'],
        ['Card', '£7.85'],
        ['VAT 20% incl.', '£1.31'],
        'Thank you',
      ],
      { onTable: true },
    )
    const words = await engine.recognise(photo, undefined, { rereadSparse: true })
    const texts = words.map((w) => w.text)
    expect(texts).toEqual(expect.arrayContaining(['3.10', '2.95', '1.80', '£7.85', '£1.31']))
    // The labels are read once: the second reading only adds the words the first one lacks.
    expect(texts.filter((t) => t === 'Total')).toHaveLength(1)
    const total = words.find((w) => w.text === 'Total')
    const amount = words.find((w) => w.text === '£7.85')
    // The amount lies on the label's line, at the paper's right edge.
    expect(
      Math.abs(
        ((amount?.bbox[1] ?? 0) + (amount?.bbox[3] ?? 0)) / 2 -
          ((total?.bbox[1] ?? 1) + (total?.bbox[3] ?? 1)) / 2,
      ),
    ).toBeLessThan(0.02)
    expect(amount?.bbox[0]).toBeGreaterThan(0.6)
  }, 90_000)

  it('reads a page with few amounts once when its extractor does not ask for the sparse reading', async () => {
    const layouts: (string | undefined)[] = []
    const tesseract = new TesseractReader()
    const counting = new OcrEngine(
      {
        read: (image, signal, language, layout) => {
          layouts.push(layout)
          return tesseract.read(image, signal, language, layout)
        },
        close: () => tesseract.close(),
      },
      () => Promise.resolve([]),
    )
    try {
      const letter = await receiptImage(['Dear customer,', 'your order has shipped.', 'Kind regards'])
      await counting.recognise(letter)
      expect(layouts).toEqual([undefined])
      await counting.recognise(letter, undefined, { rereadSparse: true })
      expect(layouts).toEqual([undefined, undefined, 'sparse'])
    } finally {
      await counting.close()
    }
  }, 90_000)
})

/** The tesseract.js workers the engine makes, so a test can break one as a crash or a bad image would. */
const tesseractWorkers = vi.hoisted(() => [] as { worker: import('node:worker_threads').Worker }[])
vi.mock('tesseract.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('tesseract.js')>()
  return {
    ...actual,
    createWorker: async (...args: Parameters<typeof actual.createWorker>) => {
      const made = await actual.createWorker(...args)
      tesseractWorkers.push(made as never)
      return made
    },
  }
})

describe('a failing tesseract worker', () => {
  const receipt = () => readFileSync(fixturePath('receipts', 'sroie', '006.jpg'))

  it('fails the read of an image tesseract cannot decode, and the next read works', async () => {
    const notAnImage = new OcrEngine(
      new TesseractReader(async () => ({
        png: new Uint8Array(Buffer.from('not a png at all')),
        width: 10,
        height: 10,
      })),
    )
    try {
      await expect(notAnImage.recognise(receipt())).rejects.toThrow(/tesseract/)
    } finally {
      await notAnImage.close()
    }
    const ocr = new OcrEngine()
    try {
      expect((await ocr.recognise(receipt())).map((w) => w.text)).toContain('SOON')
    } finally {
      await ocr.close()
    }
  }, 60_000)

  it('reads a strip longer than tesseract takes (a side over 32767 px) instead of failing without a reason', async () => {
    const strip = await sharp({ create: { width: 1, height: 40_000, channels: 3, background: '#808080' } })
      .png()
      .toBuffer()
    const ocr = new OcrEngine()
    try {
      expect(await ocr.recognise(strip)).toEqual([])
    } finally {
      await ocr.close()
    }
  }, 60_000)

  it('fails the read its thread died under, and reads the next image on a new thread', async () => {
    const ocr = new OcrEngine()
    try {
      await ocr.recognise(receipt())
      const worker = tesseractWorkers.at(-1)?.worker
      // A message the worker script has no handler for throws inside the thread: an uncaught error there, as a
      // WebAssembly abort is.
      worker?.postMessage({ workerId: 'x', jobId: 'crash', action: 'no-such-action', payload: {} })
      await expect(ocr.recognise(receipt())).rejects.toThrow(/tesseract/)
      expect((await ocr.recognise(receipt())).map((w) => w.text)).toContain('SOON')
    } finally {
      await ocr.close()
    }
  }, 90_000)
})
