import sharp from 'sharp'
import type { Bbox } from '../document-recognition.tables'
import type { PageWord } from '../page-text'
import { boxBeforeTurn } from './deskew'
import { levellingTurn } from './ocr-image'

/*
 * The second OCR reading of a scanned page: PaddleOCR's PP-OCRv4 text detection and recognition models (Apache-2.0)
 * run by ONNX Runtime through `@gutenye/ocr-node` (MIT), with the models inside the npm package, so it reads
 * offline from the first start. It reads what tesseract misreads on low-resolution receipt scans ("TEO HENG",
 * not "TED HENG"; dates under stamps), and tesseract reads what it misses (it runs words together:
 * "HREESTOOGES"), so the two readings side by side (`readings.ts`) beat either alone on the SROIE receipts'
 * held-out part: merchant + date + total 71.1 % with tesseract's two thresholds, 87.8 % with tesseract and
 * PaddleOCR (PaddleOCR alone within a value of the pair in the first measurement; see the domain README).
 */

/** A reading takes 1-3 s; past this the process is assumed hung, ended, and the page read by tesseract alone. */
export const PADDLE_TIMEOUT_MS = 60_000

/**
 * Images are read with their short side at most this and at most `MAX_PIXELS` in all: a 2480 x 3508 scan read at
 * 1131 x 1600 took 1.4 s here and read as well as at full size (4.4 s); a receipt is narrow, so its width, not
 * its length, sets the size of its print (a long strip keeps its print readable). The process's peak grows by
 * ~0.33 GB per MP read (0.96 GB for a 12 MP photo read at 1216 x 1600, 0.6 GB at 704 x 960): 1.2 MP rather than 4
 * changed 47 of the first 70 SROIE receipts' second reading and read merchant, date and total as well (193 of
 * 209 against 191, held-out 95 of 105 against 94).
 */
const SHORT_SIDE_PX = 1200
const MAX_PIXELS = 1_200_000
/** The detection model reads images whose sides are multiples of this. */
const MODEL_STEP_PX = 32

interface PaddleLine {
  text: string
  /** Mean character probability, 0..1. */
  mean: number
  /** The line's quadrilateral, pixel corners from the top left, clockwise. */
  box: [number, number][]
}
interface PaddleOcr {
  /** The library types this as a file path; it opens it with sharp, which takes the image's bytes as well. */
  detect(image: Buffer): Promise<PaddleLine[]>
}

/**
 * ONNX Runtime computes on one thread, without its memory arena (which keeps the largest image's tensors, some
 * hundreds of MB, for good after it is read): tesseract reads the same page on the other core at the same time (receipt
 * upload p50 1.96 s so, 2.50 s with the runtime's default of a thread per core, same run). With the arena the
 * process stays at 0.6-0.7 GB and is never reloaded (1.9-2.1 CPU s per 12 MP receipt against 2.45), but it holds
 * that while tesseract's process reads another document: the tree peaked at 1.35-1.46 GB in four runs. Without it
 * the peak was 1.03-1.07 GB in two runs and 1.48 GB in a third, where the process read its second page.
 */
const SESSION_OPTIONS = {
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  enableCpuMemArena: false,
  enableMemPattern: false,
}

/** The models, loaded once per process on first use (about a second): the server runs this in its PaddleOCR process. */
let engine: Promise<PaddleOcr> | null = null

function paddle(): Promise<PaddleOcr> {
  if (!engine) {
    const loading = import('@gutenye/ocr-node').then(
      ({ default: Ocr }) => Ocr.create({ onnxOptions: SESSION_OPTIONS }) as Promise<PaddleOcr>,
    )
    engine = loading
    // A failed load is tried again by the next reading.
    loading.catch(() => {
      if (engine === loading) engine = null
    })
  }
  return engine
}

/** Loads the models ahead of the first reading: a process started to replace one that was ended for its memory. */
export async function preparePaddle(): Promise<null> {
  await paddle()
  return null
}

type Point = [number, number]
const along = (from: Point, to: Point, share: number): Point => [
  from[0] + (to[0] - from[0]) * share,
  from[1] + (to[1] - from[1]) * share,
]

/**
 * A line's words with boxes as fractions of the image: each word takes its share of the line's quadrilateral in
 * proportion to its characters (PaddleOCR gives lines, not words), and its box bounds that share. On a page that
 * curls or sits at a slant a line's quadrilateral slopes, and the box of its whole width would reach into the
 * next line: a word boxed so joined that line's words ("LIGHTROOM No:28, GALLERY ASTANA ...").
 */
export function wordsOfLine(line: PaddleLine, width: number, height: number, lineNumber: number): PageWord[] {
  const [topLeft, topRight, bottomRight, bottomLeft] = line.box as [Point, Point, Point, Point]
  const length = Math.max(1, line.text.length)
  const words: PageWord[] = []
  let at = 0
  for (const text of line.text.split(' ')) {
    if (text) {
      const [from, to] = [at / length, (at + text.length) / length]
      const corners = [
        along(topLeft, topRight, from),
        along(topLeft, topRight, to),
        along(bottomLeft, bottomRight, to),
        along(bottomLeft, bottomRight, from),
      ]
      const xs = corners.map(([x]) => x)
      const ys = corners.map(([, y]) => y)
      words.push({
        text,
        bbox: [
          Math.max(0, Math.min(...xs) / width),
          Math.max(0, Math.min(...ys) / height),
          Math.min(1, Math.max(...xs) / width),
          Math.min(1, Math.max(...ys) / height),
        ],
        confidence: Math.max(0, Math.min(1, line.mean)),
        line: lineNumber,
      })
    }
    at += text.length + 1
  }
  return words
}

/** How much to shrink an image: short side and area capped, never enlarged. */
function scaleFor(width: number, height: number): number {
  return Math.min(1, SHORT_SIDE_PX / Math.min(width, height), Math.sqrt(MAX_PIXELS / (width * height)))
}

/**
 * The words PaddleOCR reads on a page image (PNG, JPEG, ...), boxes as fractions of the image. The image is
 * resized to sides the model takes (multiples of 32, stretched by under 3 %), so the library's own resize, which
 * centres an image of other sides in padding and returns its boxes in the padded pixels, leaves it as it is:
 * held-out receipts 87.8 % so, 84.4 % padded to those sides, 85.6 % left to the library (boxes off by the
 * padding); the three differ by a few characters read otherwise. Its text is NFKC-folded: the model, trained on
 * Chinese as well, writes full-width brackets and colons ("（", "："). The library joins the pieces of text it
 * finds on one row into one line whose box spans them, so a word's box is its share of that line ("TOTAL" and
 * "27.55" far apart share one box): where tesseract printed the chosen value too, its box is used
 * (`readings.ts`). `region`: only that part of the image is read (a row of the page, `ocr.ts` `readSecond`), in a
 * fraction of the page's time; the boxes are still fractions of the whole image.
 */
export async function readWithPaddle(input: { bytes: Uint8Array; region?: Bbox }): Promise<PageWord[]> {
  if (!input.region) return readImage(input.bytes)
  const { width = 0, height = 0 } = await sharp(input.bytes).metadata()
  const [left, top] = [Math.floor(input.region[0] * width), Math.floor(input.region[1] * height)]
  const right = Math.min(width, Math.ceil(input.region[2] * width))
  const bottom = Math.min(height, Math.ceil(input.region[3] * height))
  if (right <= left || bottom <= top) return []
  const strip = await sharp(input.bytes)
    .extract({ left, top, width: right - left, height: bottom - top })
    .png()
    .toBuffer()
  // The strip's boxes as fractions of the whole image.
  const [x, y, w, h] = [left / width, top / height, (right - left) / width, (bottom - top) / height]
  return (await readImage(strip)).map((word) => ({
    ...word,
    bbox: [x + word.bbox[0] * w, y + word.bbox[1] * h, x + word.bbox[2] * w, y + word.bbox[3] * h],
  }))
}

async function readImage(bytes: Uint8Array): Promise<PageWord[]> {
  const flat = sharp(bytes).flatten({ background: '#ffffff' })
  const { width: sourceWidth = 0, height: sourceHeight = 0 } = await flat.metadata()
  if (sourceWidth === 0 || sourceHeight === 0) return []
  // A page at a slant is levelled first, as tesseract's is: the library joins text it finds on one row, and on a
  // slanted photo a label's row runs into the next line's amount ("Total" beside the cash given under it).
  const turn = await levellingTurn(flat)
  const source = turn
    ? sharp(await flat.rotate(turn.degrees, { background: '#ffffff' }).png().toBuffer())
    : flat
  const { width = 0, height = 0 } = await source.metadata()
  const scale = scaleFor(width, height)
  const [w, h] = [width * scale, height * scale].map(
    (side) => Math.max(1, Math.ceil(side / MODEL_STEP_PX)) * MODEL_STEP_PX,
  ) as [number, number]
  const image = await source.resize(w, h, { fit: 'fill' }).png().toBuffer()
  const lines = await (await paddle()).detect(image)
  const words = lines.flatMap((line, i) =>
    wordsOfLine({ ...line, text: line.text.normalize('NFKC') }, w, h, i),
  )
  return turn ? words.map((word) => ({ ...word, bbox: boxBeforeTurn(word.bbox, turn) })) : words
}
