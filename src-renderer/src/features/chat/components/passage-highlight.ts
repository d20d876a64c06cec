/**
 * Which pieces of a page's text layer show a cited passage. The passage is the chunk's text as ingested; the page's
 * pieces are pdf.js text items, split and spaced as the PDF draws them. Both are compared without whitespace,
 * case-folded and NFKC-normalised (ligatures, full-width forms), so line breaks and spacing never break a match.
 */

/** Shorter partial matches than this are chance, not the passage. */
const MIN_PARTIAL = 24

const fold = (text: string) => text.normalize('NFKC').toLowerCase().replace(/\s+/gu, '')

/** The page's folded text and, for each of its characters, the piece it came from. */
function foldPieces(pieces: string[]): { text: string; owner: number[] } {
  let text = ''
  const owner: number[] = []
  pieces.forEach((piece, index) => {
    const folded = fold(piece)
    text += folded
    for (let i = 0; i < folded.length; i++) owner.push(index)
  })
  return { text, owner }
}

/** The longest `take(length)` of `passage` found in `page` (binary search: a found part's shorter parts are too). */
function longestFound(
  page: string,
  passage: string,
  take: (length: number) => string,
): [number, number] | null {
  let low = 0
  let high = passage.length
  let best: [number, number] | null = null
  while (low < high) {
    const length = Math.ceil((low + high + 1) / 2)
    const at = page.indexOf(take(length))
    if (at >= 0) {
      best = [at, at + length]
      low = length
    } else high = length - 1
  }
  return best
}

/**
 * The indexes of the pieces covering the passage on this page: the whole passage, or, for a passage running over
 * from the previous page or on to the next, its longest beginning or end found here. Empty when it is not here.
 */
export function passagePieces(pieces: string[], passage: string): number[] {
  const page = foldPieces(pieces)
  const wanted = fold(passage)
  if (!wanted || !page.text) return []
  const whole = page.text.indexOf(wanted)
  let range: [number, number] | null = whole >= 0 ? [whole, whole + wanted.length] : null
  if (!range) {
    const head = longestFound(page.text, wanted, (length) => wanted.slice(0, length))
    const tail = longestFound(page.text, wanted, (length) => wanted.slice(wanted.length - length))
    const longer = (head?.[1] ?? 0) - (head?.[0] ?? 0) >= (tail?.[1] ?? 0) - (tail?.[0] ?? 0) ? head : tail
    range = longer && longer[1] - longer[0] >= Math.min(MIN_PARTIAL, wanted.length) ? longer : null
  }
  if (!range) return []
  const covered = new Set<number>()
  for (let i = range[0]; i < range[1]; i++) covered.add(page.owner[i] as number)
  return [...covered]
}
