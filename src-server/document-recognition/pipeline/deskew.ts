import type { Bbox } from '../document-recognition.tables'

/** Scans and photos of receipts lie at most a few degrees off; a larger turn is a page on its side, not skew. */
const MAX_SKEW = 6
/** The coarse search steps by a degree, the fine one by a tenth around the best coarse angle. */
const COARSE_STEP = 1
const FINE_STEP = 0.1
/** Too few dark pixels to have lines of text: the angle is not measured. */
const MIN_INK = 200

/** Pixels darker than 0.6 of the image's mean grey are ink (print on paper, whatever the paper's shade). */
export function darkLevel(grey: Uint8Array): number {
  let sum = 0
  for (const value of grey) sum += value
  return (sum / grey.length) * 0.6
}

/**
 * How sharply the ink's rows peak when the page is read along lines falling by `degrees` to the right: the sum of
 * squared differences between neighbouring rows of the sheared projection. Along the text lines rows alternate
 * between full and empty; across them the ink smears into an even profile.
 */
function profileSharpness(xs: Int32Array, ys: Int32Array, width: number, height: number, degrees: number) {
  const slope = Math.tan((degrees * Math.PI) / 180)
  const offset = Math.ceil(width * Math.abs(slope))
  const rows = new Float64Array(height + 2 * offset + 1)
  for (let i = 0; i < xs.length; i++) {
    const row = Math.round((ys[i] as number) - (xs[i] as number) * slope) + offset
    rows[row] = (rows[row] as number) + 1
  }
  let sharpness = 0
  for (let i = 1; i < rows.length; i++) {
    const step = (rows[i] as number) - (rows[i - 1] as number)
    sharpness += step * step
  }
  return sharpness
}

/**
 * The angle of the text lines in degrees, positive when they fall to the right (the page turned clockwise), found
 * by the projection profile: the angle whose sheared row sums peak most sharply. Meant for a copy of the page a
 * few hundred pixels wide; 0 when the page holds too little ink to tell.
 */
export function skewAngle(grey: Uint8Array, width: number, height: number): number {
  const dark = darkLevel(grey)
  let count = 0
  for (const value of grey) if (value < dark) count++
  if (count < MIN_INK) return 0
  const xs = new Int32Array(count)
  const ys = new Int32Array(count)
  for (let y = 0, i = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      if ((grey[y * width + x] as number) < dark) {
        xs[i] = x
        ys[i++] = y
      }
  const best = (from: number, to: number, step: number) => {
    let angle = 0
    let top = -1
    for (let k = 0; from + k * step <= to + 1e-9; k++) {
      const degrees = from + k * step
      const sharpness = profileSharpness(xs, ys, width, height, degrees)
      // Ties go to the smaller turn: an upright page stays as it is.
      if (sharpness > top || (sharpness === top && Math.abs(degrees) < Math.abs(angle))) {
        top = sharpness
        angle = degrees
      }
    }
    return angle
  }
  const coarse = best(-MAX_SKEW, MAX_SKEW, COARSE_STEP)
  const fine = best(coarse - COARSE_STEP, coarse + COARSE_STEP, FINE_STEP)
  return Math.round(fine * 10) / 10
}

/** How an image was turned upright: the angle it was turned back by and its size before (any unit, same ratio). */
export interface Turn {
  degrees: number
  width: number
  height: number
}

/**
 * A box found on the turned image (fractions of it) as a box on the image before the turn (fractions of that):
 * the box's corners turned back about the centre, and the box around them. The turned image is the original's
 * bounding box after the turn, centred, as sharp's rotate makes it.
 */
export function boxBeforeTurn(box: Bbox, turn: Turn): Bbox {
  const radians = (turn.degrees * Math.PI) / 180
  const cos = Math.cos(radians)
  const sin = Math.sin(radians)
  const turnedWidth = turn.width * Math.abs(cos) + turn.height * Math.abs(sin)
  const turnedHeight = turn.width * Math.abs(sin) + turn.height * Math.abs(cos)
  const corners = [
    [box[0], box[1]],
    [box[2], box[1]],
    [box[0], box[3]],
    [box[2], box[3]],
  ].map(([fx, fy]) => {
    const dx = ((fx as number) - 0.5) * turnedWidth
    const dy = ((fy as number) - 0.5) * turnedHeight
    // sharp turned the image clockwise by `degrees`; turning the point back is the opposite rotation.
    return [(dx * cos + dy * sin) / turn.width + 0.5, (-dx * sin + dy * cos) / turn.height + 0.5] as const
  })
  const clamp = (v: number) => Math.max(0, Math.min(1, v))
  return [
    clamp(Math.min(...corners.map((c) => c[0]))),
    clamp(Math.min(...corners.map((c) => c[1]))),
    clamp(Math.max(...corners.map((c) => c[0]))),
    clamp(Math.max(...corners.map((c) => c[1]))),
  ]
}
