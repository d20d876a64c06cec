import type { PageWord } from '../../page-text'
import type { Line } from '../layout'
import type { PageContext, ValueCandidate } from './candidates'
import type { Features } from './features'
import type { WordClass } from './label-words'

/**
 * The label words around a candidate, as features: which word classes stand nearest left of it, anywhere left on
 * its line, right after it, over it (a header row, a label line above, a table's column heading) and on the line
 * before.
 */
export const LABEL_CONTEXTS = ['near', 'left', 'right', 'above', 'prev', 'column'] as const

function setClasses(features: Features, context: string, classes: Iterable<WordClass>, value = 1) {
  for (const c of classes) features[`${context}_${c}`] = Math.max(features[`${context}_${c}`] ?? 0, value)
}

/** The nearest line above holding words over the candidate (a header row, a label over its value). */
function lineAbove(context: PageContext, candidate: ValueCandidate): { line: Line; index: number } | null {
  const [x0, y0, x1] = candidate.bbox
  const height = candidate.bbox[3] - y0
  for (let i = candidate.lineIndex - 1; i >= 0 && i >= candidate.lineIndex - 4; i--) {
    const line = context.lines[i] as Line
    if (y0 - line.bbox[3] > height * 4) return null
    if (line.words.some((w) => w.bbox[2] > x0 - 0.01 && w.bbox[0] < x1 + 0.01)) return { line, index: i }
  }
  return null
}

export function labelFeatures(features: Features, candidate: ValueCandidate) {
  const { context, lineIndex, wordStart, wordEnd } = candidate
  const classes = context.classes[lineIndex] as Set<WordClass>[]
  let nearest = true
  for (let i = wordStart - 1; i >= 0; i--) {
    const own = classes[i] as Set<WordClass>
    if (own.size === 0) continue
    if (nearest) setClasses(features, 'near', own, 1 / (1 + 0.5 * (wordStart - 1 - i)))
    nearest = false
    setClasses(features, 'left', own)
  }
  // Right of it only as far as its column goes: a word across a wide gap is another column's.
  const words = context.lines[lineIndex]?.words ?? []
  const gap = (candidate.bbox[3] - candidate.bbox[1]) * 3
  for (let i = wordEnd + 1; i < Math.min(classes.length, wordEnd + 4); i++) {
    if ((words[i]?.bbox[0] ?? 0) - (words[i - 1]?.bbox[2] ?? 0) > gap) break
    setClasses(features, 'right', classes[i] as Set<WordClass>)
  }
  const above = lineAbove(context, candidate)
  if (above) {
    const [x0, , x1] = candidate.bbox
    above.line.words.forEach((w, i) => {
      if (w.bbox[2] > x0 - 0.01 && w.bbox[0] < x1 + 0.01)
        setClasses(features, 'above', context.classes[above.index]?.[i] ?? [])
    })
  }
  for (const own of context.classes[lineIndex - 1] ?? []) setClasses(features, 'prev', own)
  // A cell's label at the left of its box heads the figure at its right as a column's heading heads its figures.
  const header = columnHeader(context, candidate) ?? cellLabel(context, candidate)
  if (header)
    header.words.forEach((i) => {
      setClasses(features, 'column', context.classes[header.index]?.[i] ?? [])
    })
  if (header && headsRates(context, header)) features.rates_heading = 1
}

/**
 * Does a heading name a column of rates ("MwSt %", "Moms %", "Steuersatz", "VAT rate")? A rate's word with no
 * figure: a heading of the tax at one rate prints the rate ("MwSt. 19 %", "TVA 20 %") over the tax itself.
 */
function headsRates(context: PageContext, heading: { index: number; words: number[] }): boolean {
  const line = context.lines[heading.index] as Line
  return (
    heading.words.some((i) => context.classes[heading.index]?.[i]?.has('rate')) &&
    !heading.words.some((i) => /\d/.test(line.words[i]?.text ?? ''))
  )
}

/** A word of a row of figures: an amount, a sign, a currency's code or symbol. */
const FIGURE_WORD = /^(?:[-+–(]?[€$£]?\d[\d.,'’]*\)?%?|[-–]|[A-Z]{3}|[€$£])$/

/**
 * The label of the candidate's cell when it is one of a row of figures under a row of labels, each label at the
 * left of its box and each figure at the right ("Goederen  Korting  Maatstaf van heffing  BTW 21 %  Te betalen"
 * over "7.229,53  - 361,48  6.868,05  1.442,29  8.310,34"): the label words between the figure before it and its
 * own right edge. No word is over the figure itself, so the line above does not name it.
 */
function cellLabel(
  context: PageContext,
  candidate: ValueCandidate,
): { index: number; words: number[] } | null {
  const { lineIndex, wordStart } = candidate
  const own = context.lines[lineIndex] as Line
  const figures = own.words.filter((w) => /\d/.test(w.text))
  if (figures.length < 2 || !own.words.every((w) => FIGURE_WORD.test(w.text))) return null
  const labels = context.lines[lineIndex - 1]
  const height = candidate.bbox[3] - candidate.bbox[1]
  if (!labels || own.bbox[1] - labels.bbox[3] > height * 2 || !/\p{L}{2,}/u.test(labels.text)) return null
  const before = own.words.slice(0, wordStart).filter((w) => /\d/.test(w.text))
  const from = before.at(-1)?.bbox[2] ?? 0
  const words = labels.words.flatMap((w, k) =>
    w.bbox[0] >= from && w.bbox[0] < candidate.bbox[2] ? [k] : [],
  )
  return words.length ? { index: lineIndex - 1, words } : null
}

/**
 * The heading of the candidate's column: up the page, past lines whose words over it are only figures (the rows
 * of a table), the first words over it holding letters ("Amount GBP", "EUR (Ref.)", "MwSt.").
 */
function columnHeader(
  context: PageContext,
  candidate: ValueCandidate,
): { index: number; words: number[] } | null {
  const [, y0, , y1] = candidate.bbox
  // The column is where its figures are (not a currency code read with them from the column beside).
  const figures = candidate.words.filter((w) => /\d/.test(w.text))
  const x0 = Math.min(...figures.map((w) => w.bbox[0]))
  const x1 = Math.max(...figures.map((w) => w.bbox[2]))
  const height = y1 - y0
  let bottom = y0
  for (let i = candidate.lineIndex - 1; i >= 0 && i >= candidate.lineIndex - 12; i--) {
    const line = context.lines[i] as Line
    const over = line.words.flatMap((w, k) => (w.bbox[2] > x0 - 0.01 && w.bbox[0] < x1 + 0.01 ? [k] : []))
    if (over.length === 0) continue
    if (bottom - line.bbox[3] > height * 4) return null
    if (over.some((k) => /\p{L}{2,}/u.test(line.words[k]?.text ?? '')))
      return { index: i, words: headingCell(line, over) }
    bottom = line.bbox[1]
  }
  return null
}

/**
 * The words over a figure, with the words of its heading's cell beside them: a heading of several words is one
 * cell where only a space parts them ("BTW bedrag" over "8,68", which stands under "bedrag" alone); a wider gap
 * parts two headings.
 */
function headingCell(line: Line, over: number[]): number[] {
  const joined = (left: number) => {
    const [a, b] = [line.words[left], line.words[left + 1]]
    return a !== undefined && b !== undefined && b.bbox[0] - a.bbox[2] <= (a.bbox[3] - a.bbox[1]) * 0.5
  }
  let first = Math.min(...over)
  let last = Math.max(...over)
  while (first > 0 && joined(first - 1)) first--
  while (last < line.words.length - 1 && joined(last)) last++
  return Array.from({ length: last - first + 1 }, (_, k) => first + k)
}

/** Is the candidate named by a label whose feature name matches `pattern`? */
export function namedAs(candidate: ValueCandidate, pattern: RegExp): boolean {
  const features: Features = {}
  labelFeatures(features, candidate)
  return Object.keys(features).some((name) => pattern.test(name))
}

/** Classes that only join a value to its label: a number marker, a date's joining word. */
const JOINING: WordClass[] = ['marker', 'dated']

/**
 * Is the candidate labelled by a reference to the invoice a credit note corrects ("relating to invoice no. 4411 of
 * 12.03.2023", "Gutschrift zur Rechnung Nr. RE-2019/123 vom 04.05.2019", "Original invoice: 4411")? The nearest
 * label word left of it on its line, past number markers, dates' joining words and other codes, is of the corrected
 * invoice; or, with nothing but those left of it, the words over the line's first word are (a label over its value).
 */
export function namedCorrected(candidate: ValueCandidate): boolean {
  const { context, lineIndex, wordStart } = candidate
  const line = context.lines[lineIndex] as Line
  const classes = context.classes[lineIndex] as Set<WordClass>[]
  for (let i = wordStart - 1; i >= 0; i--) {
    const word = line.words[i] as PageWord
    const own = classes[i] as Set<WordClass>
    if (own.has('corrected')) return true
    // A code (the corrected invoice's number before its date) or a joining word goes on to the label before it.
    const code = /\d/.test(word.text)
    const joining = own.size > 0 ? [...own].every((c) => JOINING.includes(c)) : !/\p{L}{2,}/u.test(word.text)
    if (!code && !joining) return false
  }
  const head = line.words[0] as PageWord
  for (let i = lineIndex - 1; i >= 0 && i >= lineIndex - 2; i--) {
    const above = context.lines[i] as Line
    if (head.bbox[1] - above.bbox[3] > (head.bbox[3] - head.bbox[1]) * 3) return false
    const over = above.words.flatMap((w, k) =>
      w.bbox[2] > head.bbox[0] - 0.01 && w.bbox[0] < head.bbox[2] + 0.01 ? [k] : [],
    )
    if (over.length) return over.some((k) => context.classes[i]?.[k]?.has('corrected'))
  }
  return false
}
