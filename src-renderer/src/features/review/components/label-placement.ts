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
/** Space kept between a label and a printed word, which has no outline. */
const WORD_GAP = 1

const overlaps = (a: Rect, b: Rect, gap = GAP) =>
  a[0] < b[2] + gap && b[0] < a[2] + gap && a[1] < b[3] + gap && b[1] < a[3] + gap

/** Where a label may go around its box, in the order tried: above, below, then left and right (level with its top, then centred on it). */
function candidates({ box, width, height }: LabelRequest): Rect[] {
  const [x0, y0, x1, y1] = box
  const above = y0 - GAP - height
  const below = y1 + GAP
  const left = x0 - GAP - width
  const right = x1 + GAP
  const middle = (y0 + y1 - height) / 2
  return [
    [x0, above, x0 + width, above + height],
    [x1 - width, above, x1, above + height],
    [x0, below, x0 + width, below + height],
    [x1 - width, below, x1, below + height],
    [left, y0, left + width, y0 + height],
    [right, y0, right + width, y0 + height],
    [left, middle, left + width, middle + height],
    [right, middle, right + width, middle + height],
  ]
}

/**
 * Places field labels outside every value box: each label (in the given order, so the first are placed first)
 * takes the first spot beside its own box that stays on the page and touches no value box, no printed word and no
 * label placed before it. A label with no such spot (on a tight receipt at a small zoom every spot may cover
 * printed text) gets null: it is shown only on hover or selection, and in the field list, never over the page's text.
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
    const spot = candidates(label).find(
      (rect) =>
        rect[0] >= 0 &&
        rect[1] >= 0 &&
        rect[2] <= page.width &&
        rect[3] <= page.height &&
        !values.some((value) => overlaps(rect, value)) &&
        // A label's own value's words are inside its box, which no spot touches anyway.
        !words.some((word) => overlaps(rect, word, WORD_GAP)) &&
        !placed.some((other) => overlaps(rect, other)),
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
