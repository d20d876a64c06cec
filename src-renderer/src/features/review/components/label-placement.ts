/** A rectangle in page pixels: left, top, right, bottom. */
export type Rect = [number, number, number, number]

export interface LabelRequest {
  id: string
  /** The value's box the label names. */
  box: Rect
  width: number
  height: number
}

/** Space kept between a label and any value box or other label: a box's outline is drawn 3 px outside it. */
const GAP = 4

const overlaps = (a: Rect, b: Rect) =>
  a[0] < b[2] + GAP && b[0] < a[2] + GAP && a[1] < b[3] + GAP && b[1] < a[3] + GAP

/** Where a label may go around its box, in the order tried: above, below, left, right. */
function candidates({ box, width, height }: LabelRequest): Rect[] {
  const [x0, y0, x1, y1] = box
  const above = y0 - GAP - height
  const below = y1 + GAP
  const left = x0 - GAP - width
  const right = x1 + GAP
  return [
    [x0, above, x0 + width, above + height],
    [x1 - width, above, x1, above + height],
    [x0, below, x0 + width, below + height],
    [x1 - width, below, x1, below + height],
    [left, y0, left + width, y0 + height],
    [right, y0, right + width, y0 + height],
  ]
}

/**
 * Places field labels outside every value box: each label (in the given order, so the first are placed first)
 * takes the first spot beside its own box that stays on the page and touches no value box and no label placed
 * before it, preferring the one that covers the fewest of the page's printed `words` (on a tight receipt at a
 * small zoom every spot may cover some). A label with no such spot gets null: it is shown only on hover or selection, never
 * over a value.
 */
export function placeLabels(
  labels: LabelRequest[],
  page: { width: number; height: number },
  words: Rect[] = [],
): Map<string, Rect | null> {
  const values = labels.map((label) => label.box)
  const placed: Rect[] = []
  const result = new Map<string, Rect | null>()
  for (const label of labels) {
    const free = candidates(label).filter(
      (rect) =>
        rect[0] >= 0 &&
        rect[1] >= 0 &&
        rect[2] <= page.width &&
        rect[3] <= page.height &&
        !values.some((value) => overlaps(rect, value)) &&
        !placed.some((other) => overlaps(rect, other)),
    )
    // The spot covering the fewest printed words, the first tried among equals. (A label's own value's words
    // are inside its box, which no spot touches anyway.)
    const covered = (rect: Rect) => words.filter((word) => overlaps(rect, word)).length
    const spot = free.reduce<Rect | undefined>(
      (best, rect) => (best === undefined || covered(rect) < covered(best) ? rect : best),
      undefined,
    )
    if (spot) placed.push(spot)
    result.set(label.id, spot ?? null)
  }
  return result
}

/** Each label's rendered width: its text in the tab's font, padded, capped as the tab's CSS caps it. */
let measurer: CanvasRenderingContext2D | null = null
export function labelWidth(text: string, font: string, padding: number, maxWidth: number): number {
  measurer ??= document.createElement('canvas').getContext('2d')
  if (!measurer) return maxWidth
  measurer.font = font
  return Math.min(maxWidth, Math.ceil(measurer.measureText(text).width) + padding)
}
