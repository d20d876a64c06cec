import type { Bbox } from '../document-recognition.tables'
import type { PageText, PageWord } from '../page-text'
import { wordCount } from './lexicon'
import { fold, foldKeepingPositions, printedRange, remembered } from './values'

/** Words of one visual line, left to right, with the character offset of each in the joined text. */
export interface Line {
  pageNumber: number
  words: PageWord[]
  offsets: number[]
  text: string
  bbox: Bbox
  /**
   * Print unlike the page's: over three times its height, or a line an engine read at a slant of its own (a
   * stamp, a heading in large print, handwriting).
   */
  stampLike?: boolean
}

export function unionBox(boxes: Bbox[]): Bbox {
  return [
    Math.min(...boxes.map((b) => b[0])),
    Math.min(...boxes.map((b) => b[1])),
    Math.max(...boxes.map((b) => b[2])),
    Math.max(...boxes.map((b) => b[3])),
  ]
}

function makeLine(pageNumber: number, words: PageWord[]): Line {
  const sorted = [...words].sort((a, b) => a.bbox[0] - b.bbox[0])
  const offsets: number[] = []
  let text = ''
  for (const word of sorted) {
    if (text) text += ' '
    offsets.push(text.length)
    text += word.text
  }
  return { pageNumber, words: sorted, offsets, text, bbox: unionBox(sorted.map((w) => w.bbox)) }
}

const middleOf = (word: PageWord) => (word.bbox[1] + word.bbox[3]) / 2
const centreOf = (word: PageWord) => (word.bbox[0] + word.bbox[2]) / 2
const heightOf = (word: PageWord) => word.bbox[3] - word.bbox[1]

/** Pairs of neighbouring words needed before their slope is trusted as the page's. */
const MIN_SLOPE_PAIRS = 5

/**
 * How far a line of the page climbs or falls per unit of width: the median slope between each word and its next
 * word to the right on the same line (vertically overlapping by half a height, at most two heights away). A scan
 * or photo a degree or two off level keeps this after deskewing; a text layer has none.
 */
function pageSlope(words: PageWord[]): number {
  const slopes: number[] = []
  for (const word of words) {
    let next: PageWord | null = null
    for (const other of words) {
      if (other === word || other.bbox[0] < word.bbox[2] - heightOf(word) * 0.2) continue
      const gap = other.bbox[0] - word.bbox[2]
      const overlap = Math.min(word.bbox[3], other.bbox[3]) - Math.max(word.bbox[1], other.bbox[1])
      if (gap > heightOf(word) * 2 || overlap < Math.min(heightOf(word), heightOf(other)) * 0.5) continue
      if (!next || other.bbox[0] < next.bbox[0]) next = other
    }
    if (next && centreOf(next) > centreOf(word))
      slopes.push((middleOf(next) - middleOf(word)) / (centreOf(next) - centreOf(word)))
  }
  if (slopes.length < MIN_SLOPE_PAIRS) return 0
  slopes.sort((a, b) => a - b)
  return slopes[Math.floor(slopes.length / 2)] as number
}

/**
 * A word this many times taller than the page's median word is large print or a stamp read as letters ("PAID"
 * across the header, a letter as tall as six lines): lines of print never join it, nor it them.
 */
const OVERSIZED = 3
/** A line read at over 10° from the page's slope was not printed with it. */
const OWN_SLANT = Math.tan((10 * Math.PI) / 180)

/** A word printed beside the words of a line in large print: about as tall, and at most its height away. */
function sameLargePrint(line: PageWord[], word: PageWord): boolean {
  return line.some((other) => {
    const [small, large] = [heightOf(other), heightOf(word)].sort((a, b) => a - b) as [number, number]
    const gap = Math.max(other.bbox[0] - word.bbox[2], word.bbox[0] - other.bbox[2])
    return large <= small * 1.5 && gap <= large
  })
}

const linesByPage = new WeakMap<PageText, Line[]>()

/**
 * What lines are grouped from: a word of its own, or the words an OCR engine that reads whole lines (PaddleOCR)
 * read as one line, which stay together and never join a line of the engine's that they overlap across: on a page
 * that curls, lines a third of a height apart at one end are told apart by the engine's detection, where one slope
 * for the whole page cannot ("LIGHTROOM No:28, GALLERY ASTANA ..." otherwise). Pieces it read apart on one row
 * ("Total Sales (Inclusive of GST) :" and "32.70" on a slanted page) join as words do.
 */
function piecesOf(words: PageWord[], aspect: number): PageWord[][] {
  const read = new Map<number, PageWord[]>()
  const single: PageWord[] = []
  for (const word of words) {
    if (word.line === undefined) single.push(word)
    else if (read.has(word.line)) read.get(word.line)?.push(word)
    else read.set(word.line, [word])
  }
  return [...runsOf(single, aspect), ...read.values()]
}

/**
 * Words a word space apart, about as tall and overlapping by most of their height, are one run of print: a run
 * joins a line whole. Word by word, "Ltd" (no descender) in "Quillstone Publishing Ltd" sat closer to the middle
 * of the line beside it ("Payment terms: 14 days") than to its own, and the name lost its legal form. `aspect`
 * (the page's height over its width) turns a gap across into heights.
 */
function runsOf(words: PageWord[], aspect: number): PageWord[][] {
  const runs: PageWord[][] = []
  for (const word of [...words].sort((a, b) => a.bbox[0] - b.bbox[0])) {
    const run = runs.find((candidate) => {
      const last = candidate[candidate.length - 1] as PageWord
      const [short, tall] = [heightOf(last), heightOf(word)].sort((a, b) => a - b) as [number, number]
      const gap = (word.bbox[0] - last.bbox[2]) / aspect
      const overlap = Math.min(last.bbox[3], word.bbox[3]) - Math.max(last.bbox[1], word.bbox[1])
      return tall <= short * 1.5 && gap >= -short * 0.2 && gap <= short && overlap >= short * 0.7
    })
    if (run) run.push(word)
    else runs.push([word])
  }
  return runs
}

const medianOf = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0
const readWhole = (piece: PageWord[]) => piece[0]?.line !== undefined

/**
 * Groups a page's words into lines: a word (or a line an engine read, `piecesOf`) joins a line when their vertical
 * middles, levelled by the page's slope, are within half a height. Levelling keeps the words of one line together
 * on a skewed scan, where the far end of a line sits half a line lower than its start. Computed once per page;
 * each call gets its own array.
 */
export function linesOf(page: PageText): Line[] {
  let lines = linesByPage.get(page)
  if (!lines) {
    const slope = pageSlope(page.words)
    // Slopes in pixels: a box's fractions of width and height are scaled by the page's sides.
    const aspect = page.width > 0 ? page.height / page.width : 1
    const oversizedFrom = medianOf(page.words.map(heightOf)) * OVERSIZED
    const pieces = piecesOf(page.words, aspect)
      .map((words) => {
        const height = medianOf(words.map(heightOf))
        const [first, last] = [words[0] as PageWord, words[words.length - 1] as PageWord]
        const run = centreOf(last) - centreOf(first)
        // Only an engine's whole line is judged for a slant of its own: words in a run are as level as their boxes.
        const tilted =
          readWhole(words) &&
          run > 0 &&
          Math.abs((middleOf(last) - middleOf(first)) / run - slope) * aspect > OWN_SLANT
        return {
          words,
          readWhole: readWhole(words),
          left: Math.min(...words.map((w) => w.bbox[0])),
          right: Math.max(...words.map((w) => w.bbox[2])),
          level: medianOf(words.map((w) => middleOf(w) - slope * centreOf(w))),
          height,
          // A printed word's box reaches below its baseline by about a fifth of its height.
          baseline: medianOf(words.map((w) => w.bbox[3] - heightOf(w) / 5 - slope * centreOf(w))),
          oversized: height > oversizedFrom,
          tilted,
        }
      })
      .sort((a, b) => a.level - b.level)
    type Piece = (typeof pieces)[number]
    const groups: Piece[][] = []
    for (const piece of pieces) {
      const group = groups.find((candidate) => {
        const first = candidate[0] as Piece
        // Oversized words join only each other, at about the same size and a word space apart: a name in
        // large print stays one line, a stamp's letters stay out of the print they cross, and column headings
        // misread as tall stay apart. A line read at a slant of its own (a stamp) joins nothing.
        if (first.oversized !== piece.oversized || first.tilted || piece.tilted) return false
        if (piece.oversized) {
          const words = candidate.flatMap((other) => other.words)
          if (!piece.words.some((word) => sameLargePrint(words, word))) return false
        }
        const overlapAcross = (other: Piece) =>
          Math.min(other.right, piece.right) > Math.max(other.left, piece.left)
        if (piece.readWhole && candidate.some((other) => other.readWhole && overlapAcross(other)))
          return false
        // Small print beside a large title (twice its height or more) shares its line only on its baseline or its
        // middle: lines of small print stacked within the title's height are lines of their own.
        const misaligned = (other: Piece) => {
          const small = Math.min(other.height, piece.height)
          return (
            Math.max(other.height, piece.height) >= 2 * small &&
            Math.abs(other.level - piece.level) >= small / 2 &&
            Math.abs(other.baseline - piece.baseline) >= small / 3
          )
        }
        if (candidate.some(misaligned)) return false
        return Math.abs(first.level - piece.level) < first.height / 2
      })
      if (group) group.push(piece)
      else groups.push([piece])
    }
    lines = groups.map((group) => ({
      ...makeLine(
        page.page_number,
        group.flatMap((piece) => piece.words),
      ),
      stampLike: group.some((piece) => piece.oversized || piece.tilted),
    }))
    linesByPage.set(page, lines)
  }
  return [...lines]
}

/**
 * Splits a line where the gap between two words is wider than about two characters: columns of a layout
 * ("Invoice No 123        Date 2023-01-01") become separate segments.
 */
export function segmentsOf(line: Line): Line[] {
  const segments: PageWord[][] = []
  let current: PageWord[] = []
  for (const word of line.words) {
    const previous = current[current.length - 1]
    if (previous) {
      const charWidth = (previous.bbox[2] - previous.bbox[0]) / Math.max(1, previous.text.length)
      const height = previous.bbox[3] - previous.bbox[1]
      if (word.bbox[0] - previous.bbox[2] > Math.max(charWidth * 3, height * 1.5)) {
        segments.push(current)
        current = []
      }
    }
    current.push(word)
  }
  if (current.length) segments.push(current)
  return segments.map((words) => makeLine(line.pageNumber, words))
}

/** The words of `line` that overlap the character range [start, end) of its text. */
export function wordsInRange(line: Line, start: number, end: number): PageWord[] {
  return line.words.filter((word, i) => {
    const from = line.offsets[i] as number
    return from < end && from + word.text.length > start
  })
}

const isWordChar = (ch: string | undefined) => ch !== undefined && /[\p{L}\p{N}]/u.test(ch)
/**
 * A label starts a word: not after a letter or digit, nor after a hyphen joined to one ("Sub-total") or to an
 * abbreviation ("USt.-Id.-Nr.", a VAT id, is not the "Nr." of an invoice).
 */
const startsWord = (text: string, at: number) =>
  !isWordChar(text[at - 1]) &&
  !(text[at - 1] === '-' && (isWordChar(text[at - 2]) || (text[at - 2] === '.' && isWordChar(text[at - 3]))))
/** ... and ends one: "Käufer" in "Käufer-IBAN" is part of another label. */
const compoundAt = (text: string, at: number) => text[at] === '-' && /\p{L}/u.test(text[at + 1] ?? '')

/**
 * A currency named inside a label ("Montant EUR HT", "Total (€) TTC", "Betrag in EUR netto") does not change what
 * the label means: the label's words match with one such currency marker between any two of them.
 */
const CURRENCY_MARKER = String.raw`(?:\(?\s*(?:in\s+)?(?:eur|usd|gbp|chf|pln|inr|cad|aud|jpy|rm|myr|sgd|€|\$|£|¥|₹)\s*\)?\s+)?`
/** Small words that join the two parts of a word-set label ("Date limite de paiement", "Montant total HT"). */
const JOINER = String.raw`(?:(?:de|du|des|der|van|of|the|total|totaal|gesamt)\s+)?`
const labelPatterns = new Map<string, RegExp>()

/**
 * One spelling of a label as a pattern: its words with a currency marker allowed between them, and a hyphen
 * matching a hyphen, a space or nothing, since compounds are written closed, open or hyphenated ("BTW-bedrag",
 * "BTW bedrag", "Sub-total", "Subtotal").
 */
function wordsPattern(label: string): string {
  return label
    .split(/\s+/)
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/-/g, String.raw`(?:\s*-\s*|\s+)?`))
    .join(String.raw`\s+` + CURRENCY_MARKER)
}

/**
 * A word-set label ("montant|total & ht|hors taxes") names a field by two parts, each one of several words, in
 * either order ("Total HT", "HT total", "Montant EUR hors taxes"): a marker (HT, TTC, netto, ohne MwSt.) and the
 * noun it qualifies, which languages combine freely.
 */
export const isWordSet = (label: string) => label.includes(' & ')

function labelPattern(needle: string): RegExp {
  let pattern = labelPatterns.get(needle)
  if (!pattern) {
    const [first = '', second = ''] = needle.split(' & ').map((part) =>
      part
        .split('|')
        .map((spelling) => spelling.trim())
        .sort((a, b) => b.length - a.length)
        .map(wordsPattern)
        .join('|'),
    )
    const between = String.raw`\s+` + CURRENCY_MARKER + JOINER
    pattern = isWordSet(needle)
      ? new RegExp(`(?:${first})${between}(?:${second})|(?:${second})${between}(?:${first})`, 'gu')
      : new RegExp(wordsPattern(needle), 'gu')
    labelPatterns.set(needle, pattern)
  }
  return pattern
}

/** Labels this long are also matched with one misread character (OCR: "Kéufer" for "Käufer"). */
const FUZZY_MIN_LENGTH = 7

export interface AnchorMatch {
  start: number
  end: number
  /** False when one character differs. */
  exact: boolean
}

/** The word of `text` that holds position `at` (empty when `at` is not in a word). */
function wordAround(text: string, at: number): string {
  let start = at
  let end = at
  while (start > 0 && isWordChar(text[start - 1])) start--
  while (end < text.length && isWordChar(text[end])) end++
  return text.slice(start, end)
}

/**
 * Word-boundary positions where `anchor` occurs in the line (case and accents ignored); when it does not occur
 * exactly, long labels are also found with one character misread, unless what is printed there is a word of its
 * own (the English word list of `lexicon.ts`). A word-set anchor ("montant|total & ht") is
 * found as its two parts side by side in either order.
 */
export function findAnchor(line: Line, anchor: string): readonly AnchorMatch[] {
  let inText = anchorFinders.get(anchor)
  if (!inText) {
    inText = remembered((text) => {
      const matches = anchorMatches(text, anchor)
      return matches.length > 0 ? matches : NO_MATCHES
    }, LINES_REMEMBERED)
    anchorFinders.set(anchor, inText)
  }
  return inText(line.text)
}

/**
 * Per label, its matches by line text: every field looks for every label of the others on every line (a
 * 400-word invoice took 1.7 s before, 0.1 s with them kept). A document's lines, a few hundred, are what is asked
 * for again; most lines hold no label, and share one empty answer.
 */
const anchorFinders = new Map<string, (text: string) => readonly AnchorMatch[]>()
const LINES_REMEMBERED = 1_000
const NO_MATCHES: readonly AnchorMatch[] = Object.freeze([])

/**
 * Where `needle` may be printed with at most one character misread, in order: one of its halves is printed as it
 * is there. Only these places are compared letter by letter; every place of every line was before.
 */
function nearPositions(text: string, needle: string): number[] {
  const half = needle.length >> 1
  const head = needle.slice(0, half)
  const tail = needle.slice(half)
  const last = text.length - needle.length
  const positions = new Set<number>()
  for (let at = text.indexOf(head); at !== -1 && at <= last; at = text.indexOf(head, at + 1))
    positions.add(at)
  for (let at = text.indexOf(tail, half); at !== -1 && at - half <= last; at = text.indexOf(tail, at + 1))
    positions.add(at - half)
  return [...positions].sort((a, b) => a - b)
}

function anchorMatches(printedText: string, anchor: string): AnchorMatch[] {
  const { folded: text, printedAt } = foldKeepingPositions(printedText)
  const needle = fold(anchor).trim()
  if (!needle) return []
  const bounded = (at: number) =>
    startsWord(text, at) &&
    !compoundAt(text, at + needle.length) &&
    (!isWordChar(text[at + needle.length]) || !isWordChar(needle.at(-1)))
  const hits: AnchorMatch[] = []
  for (const match of text.matchAll(labelPattern(needle)))
    if (
      startsWord(text, match.index) &&
      !compoundAt(text, match.index + match[0].length) &&
      (!isWordChar(text[match.index + match[0].length]) || !isWordChar(needle.at(-1)))
    )
      hits.push({ start: match.index, end: match.index + match[0].length, exact: true })
  const printed = () => hits.map((hit) => printedRange(printedAt, hit))
  if (hits.length > 0 || isWordSet(needle) || needle.length < FUZZY_MIN_LENGTH || text.length < needle.length)
    return printed()
  for (const at of nearPositions(text, needle)) {
    if (!bounded(at)) continue
    let misses = 0
    let missedAt = 0
    for (let i = 0; i < needle.length && misses <= 1; i++)
      if (text[at + i] !== needle[i]) {
        misses++
        missedAt = at + i
      }
    // A word of the language one letter from a label's word is that word, not a misread label ("Supplies" is not
    // "Supplier": "ACME Supplies Ltd" would read the seller as "Ltd"; "Bill To" is not "Bill No").
    if (misses === 1 && wordCount(wordAround(text, missedAt)) === 0)
      hits.push({ start: at, end: at + needle.length, exact: false })
  }
  return printed()
}
