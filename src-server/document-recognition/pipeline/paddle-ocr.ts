import sharp from 'sharp'
import type { PageWord } from '../page-text'

/*
 * The second OCR reading of a scanned page: PaddleOCR's PP-OCRv4 text detection and recognition models (Apache-2.0)
 * run by ONNX Runtime through `@gutenye/ocr-node` (MIT), with the models inside the npm package, so it reads
 * offline from the first start. It reads what tesseract misreads on low-resolution receipt scans ("TEO HENG",
 * not "TED HENG"; dates under stamps), and tesseract reads what it misses (it runs words together:
 * "HREESTOOGES"), so the two readings side by side (`readings.ts`) beat either alone: on the SROIE receipts,
 * held-out merchant + date + total 71.1 % with tesseract's two thresholds, 84.4 % with PaddleOCR alone, 85.6 %
 * with tesseract and PaddleOCR (see the domain README).
 */

/** Images are read with their long side at most this: 1.4 s a receipt here, as good as full size (2480 px, 4.4 s). */
const LONG_SIDE_PX = 1600

interface PaddleLine {
  text: string
  /** Mean character probability, 0..1. */
  mean: number
  /** The line's quadrilateral, pixel corners from the top left, clockwise. */
  box: [number, number][]
}
interface PaddleOcr {
  detect(image: Buffer): Promise<PaddleLine[]>
}

/**
 * ONNX Runtime computes on one thread: tesseract reads the same page on the other core at the same time (receipt
 * upload p50 1.96 s so, 2.50 s with the runtime's default of a thread per core, same run).
 */
const ONE_THREAD = { intraOpNumThreads: 1, interOpNumThreads: 1 }

/** The models, loaded once per thread on first use (about a second): the server runs this on its worker pool. */
let engine: Promise<PaddleOcr> | null = null

function paddle(): Promise<PaddleOcr> {
  engine ??= import('@gutenye/ocr-node').then(
    ({ default: Ocr }) => Ocr.create({ onnxOptions: ONE_THREAD }) as Promise<PaddleOcr>,
  )
  engine.catch(() => {
    engine = null
  })
  return engine
}

/**
 * A line's words with boxes as fractions of the image: the line's box split along its width in proportion to the
 * characters (PaddleOCR gives lines, not words).
 */
export function wordsOfLine(line: PaddleLine, width: number, height: number): PageWord[] {
  const xs = line.box.map(([x]) => x)
  const ys = line.box.map(([, y]) => y)
  const [left, right, top, bottom] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)]
  const perCharacter = (right - left) / Math.max(1, line.text.length)
  const words: PageWord[] = []
  let at = 0
  for (const text of line.text.split(' ')) {
    if (text)
      words.push({
        text,
        bbox: [
          Math.max(0, (left + at * perCharacter) / width),
          Math.max(0, top / height),
          Math.min(1, (left + (at + text.length) * perCharacter) / width),
          Math.min(1, bottom / height),
        ],
        confidence: Math.max(0, Math.min(1, line.mean)),
      })
    at += text.length + 1
  }
  return words
}

/** The words PaddleOCR reads on a page image (PNG, JPEG, ...), boxes as fractions of the image. */
export async function readWithPaddle(input: { bytes: Uint8Array }): Promise<PageWord[]> {
  const { data, info } = await sharp(input.bytes)
    .flatten({ background: '#ffffff' })
    .resize({ width: LONG_SIDE_PX, height: LONG_SIDE_PX, fit: 'inside', withoutEnlargement: true })
    .png()
    .toBuffer({ resolveWithObject: true })
  const lines = await (await paddle()).detect(data)
  return lines.flatMap((line) => wordsOfLine(line, info.width, info.height))
}
