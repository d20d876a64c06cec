import sharp, { type Sharp } from 'sharp'
import { darkLevel, skewAngle, type Turn } from './deskew'
import { cappedScale, MAX_INPUT_PIXELS } from './page-limits'

/**
 * Text lines are resampled to about this height (ascender to descender, in px) before tesseract reads them.
 * Measured on the tuning receipts (merchant + date + total, one sweep): 30 px 80.9 %, 40 px 79.8 %, 55 px 78.7 %; smaller
 * is also faster.
 */
const TARGET_LINE_PX = 30
/** Enlarging further invents no detail and only slows tesseract. */
const MAX_FACTOR = 4
/**
 * Large print (a phone photo, a 600 dpi scan) is shrunk to the target line height, but never to a short side
 * under this: tesseract's time and memory follow the pixels (a 12 MP photo read in 3.7 s and 170 MB, shrunk
 * in a fraction), while most receipt scans are narrower than this and keep every pixel. The result is never over
 * `MAX_PAGE_PIXELS` either.
 */
const MIN_SHORT_SIDE_PX = 1200
/**
 * Tesseract refuses an image with a side over this ("Image too large"), and tesseract.js then fails with a bare
 * "Unexpected end of JSON input": a long strip is scaled down to it.
 */
const MAX_SIDE_PX = 32_767
/** A row is part of a text line when it holds at least this many dark pixels (one stroke of two pixels). */
const MIN_ROW_INK = 2
/** Runs of inked rows shorter than this are rules, dots or noise, not lines of text. */
const MIN_LINE_PX = 3

/**
 * The median height of the image's text lines: runs of consecutive rows holding dark pixels (darker than 0.6 of
 * the image's mean grey). Rules and dots are too thin to count; barcodes and logos are few enough that the median
 * is a line of print.
 */
export function textLineHeight(grey: Uint8Array, width: number, height: number): number | null {
  const dark = darkLevel(grey)
  const runs: number[] = []
  let run = 0
  for (let y = 0; y <= height; y++) {
    let ink = 0
    if (y < height)
      for (let x = y * width, end = x + width; x < end && ink < MIN_ROW_INK; x++)
        if ((grey[x] as number) < dark) ink++
    if (ink >= MIN_ROW_INK) run++
    else {
      if (run >= MIN_LINE_PX) runs.push(run)
      run = 0
    }
  }
  if (runs.length === 0) return null
  runs.sort((a, b) => a - b)
  return runs[Math.floor(runs.length / 2)] as number
}

export interface OcrImage {
  /** A Buffer when made in this thread, a Uint8Array when it comes back from a worker thread. */
  png: Uint8Array
  width: number
  height: number
  /** Set when the page was turned upright: word boxes found on `png` are turned back with it. */
  turn?: Turn
}

/** The skew is measured on a copy this wide: enough rows per text line, and a few milliseconds to search. */
const SKEW_SAMPLE_WIDTH = 600
/** A smaller skew is left alone: tesseract's own line finding copes with it, and turning blurs the strokes. */
const MIN_TURN = 1

/**
 * The turn that levels a page's text lines (the projection profile's angle, measured in grey), when it is skewed
 * by MIN_TURN degrees or more; none otherwise.
 */
export async function levellingTurn(image: Sharp): Promise<Turn | undefined> {
  const sample = await image
    .clone()
    .greyscale()
    .resize({ width: SKEW_SAMPLE_WIDTH, withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true })
  const angle = skewAngle(sample.data, sample.info.width, sample.info.height)
  if (Math.abs(angle) < MIN_TURN) return undefined
  const { width, height } = await image.metadata()
  return { degrees: -angle, width: width as number, height: height as number }
}

/** The page turned so its text lines are level (`levellingTurn`), the grey pixels and the turn made. */
async function upright(grey: Sharp): Promise<{ image: Sharp; turn?: Turn }> {
  const turn = await levellingTurn(grey)
  if (!turn) return { image: grey }
  const { data, info } = await grey
    .clone()
    .rotate(turn.degrees, { background: '#ffffff' })
    .raw()
    .toBuffer({ resolveWithObject: true })
  return {
    // Raw pixels of one channel would be read as colour (three channels) without saying they are grey.
    image: sharp(data, {
      raw: { width: info.width, height: info.height, channels: info.channels },
    }).greyscale(),
    turn,
  }
}

/**
 * What tesseract reads: the image's own pixels in grey, turned level when skewed, and resampled (lanczos3) so its
 * median text line is about 30 px high. Small print on a receipt scanned at 150 dpi or photographed on a phone
 * page is a few pixels high; tesseract's own scaling of such lines loses strokes that a good resample keeps.
 * No contrast stretch: it wipes out faded thermal print (measured: 33.7 % against 80.9 % on the tuning
 * receipts), and neither sharpening (76.4 %) nor single-column or single-block segmentation (79.8 %, 77.5 %)
 * read better.
 */
export async function prepareForOcr(image: Uint8Array): Promise<OcrImage> {
  const { image: grey, turn } = await upright(
    sharp(image, { limitInputPixels: MAX_INPUT_PIXELS }).flatten({ background: '#ffffff' }).greyscale(),
  )
  const { data, info } = await grey.clone().raw().toBuffer({ resolveWithObject: true })
  if (!info.width || !info.height) throw new Error('The page image has no size.')
  const lineHeight = textLineHeight(data, info.width, info.height)
  const smallest = Math.min(1, MIN_SHORT_SIDE_PX / Math.min(info.width, info.height))
  const wanted = lineHeight ? Math.max(smallest, Math.min(MAX_FACTOR, TARGET_LINE_PX / lineHeight)) : 1
  const factor = Math.min(
    cappedScale(info.width, info.height, wanted),
    MAX_SIDE_PX / Math.max(info.width, info.height),
  )
  const width = Math.max(1, Math.round(info.width * factor))
  const height = Math.max(1, Math.round(info.height * factor))
  const png = await grey.resize(width, height, { kernel: 'lanczos3' }).toColourspace('b-w').png().toBuffer()
  return { png, width, height, ...(turn && { turn }) }
}
