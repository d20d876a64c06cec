import type { Bbox } from '../document-recognition.tables'
import type { ExtractedField } from '../extraction/extracted-field'
import type { FieldDefinition } from '../extraction/field-config'
import { linesOf, unionBox } from '../extraction/layout'
import { readValueIn } from '../extraction/locate'
import { compilePattern, lettersAndDigits } from '../extraction/values'
import type { PageText, PageWord } from '../page-text'

/**
 * What a reviewer's box on one page teaches: the label words next to the value, where both were, and the value's
 * own extent: how many words it took when its line goes on past it ("Amazon Web Services" out of "Services are
 * sold by Amazon Web Services, Inc."), null when it ran to the end of its phrase (a number after its label).
 */
export interface Lesson {
  pageNumber: number
  label: string[]
  labelBbox: Bbox | null
  valueBbox: Bbox
  valueWords: number | null
}

export interface Hint extends Lesson {
  fieldKey: string
  confirmations: number
  learnedFromRunId: string
}

const LABEL_WORDS = 4
const token = lettersAndDigits
const hasLetter = (word: PageWord) => /\p{L}/u.test(word.text)
const middleY = (box: Bbox) => (box[1] + box[3]) / 2
const heightOf = (box: Bbox) => box[3] - box[1]
const sameLine = (word: PageWord, box: Bbox) =>
  Math.abs(middleY(word.bbox) - middleY(box)) < Math.max(heightOf(box), heightOf(word.bbox)) / 2

/** The gap between two words of one phrase: wider than about three characters starts another column. */
function phraseGap(word: PageWord): number {
  const charWidth = (word.bbox[2] - word.bbox[0]) / Math.max(1, word.text.length)
  return Math.max(charWidth * 3, heightOf(word.bbox) * 1.5)
}

/** The phrase that ends nearest left of the value on its line, else the nearest line above over the value. */
function labelWords(page: PageText, value: Bbox): PageWord[] {
  const left = page.words
    .filter((w) => sameLine(w, value) && w.bbox[2] <= value[0] + 0.002)
    .sort((a, b) => b.bbox[2] - a.bbox[2])
  const phrase: PageWord[] = []
  for (const word of left) {
    const previous = phrase[phrase.length - 1]
    if (phrase.length === LABEL_WORDS || !hasLetter(word)) break
    if (previous && previous.bbox[0] - word.bbox[2] > phraseGap(word)) break
    phrase.push(word)
  }
  if (phrase.length) return phrase.reverse()
  const above = page.words
    .filter(
      (w) =>
        w.bbox[3] <= value[1] + 0.002 &&
        value[1] - w.bbox[3] < heightOf(value) * 3 &&
        w.bbox[0] < value[2] &&
        w.bbox[2] > value[0] &&
        hasLetter(w),
    )
    .sort((a, b) => b.bbox[3] - a.bbox[3])
  const nearest = above[0]
  if (!nearest) return []
  return above
    .filter((w) => sameLine(w, nearest.bbox))
    .sort((a, b) => a.bbox[0] - b.bbox[0])
    .slice(0, LABEL_WORDS)
}

const centreInside = (word: PageWord, box: Bbox) => {
  const x = (word.bbox[0] + word.bbox[2]) / 2
  const y = middleY(word.bbox)
  return x >= box[0] && x <= box[2] && y >= box[1] && y <= box[3]
}

/** The number of words the value took, when the phrase it stands in goes on after it; else null. */
function valueWordsOf(page: PageText, value: Bbox): number | null {
  const taken = page.words.filter((w) => centreInside(w, value)).sort((a, b) => a.bbox[0] - b.bbox[0])
  const last = taken[taken.length - 1]
  if (!last) return null
  const next = page.words
    .filter((w) => !taken.includes(w) && sameLine(w, last.bbox) && w.bbox[0] >= last.bbox[2] - 0.001)
    .sort((a, b) => a.bbox[0] - b.bbox[0])[0]
  return next && next.bbox[0] - last.bbox[2] <= phraseGap(last) ? taken.length : null
}

export function lessonFrom(page: PageText, valueBbox: Bbox): Lesson {
  const words = labelWords(page, valueBbox)
  return {
    pageNumber: page.page_number,
    label: words.map((w) => token(w.text)).filter(Boolean),
    labelBbox: words.length ? unionBox(words.map((w) => w.bbox)) : null,
    valueBbox,
    valueWords: valueWordsOf(page, valueBbox),
  }
}

/** Where the label stands on this page: the occurrence nearest to where it stood when it was learned. */
function findLabel(page: PageText, hint: Hint): Bbox | null {
  const found: Bbox[] = []
  for (const line of linesOf(page)) {
    const tokens = line.words.map((w) => token(w.text))
    for (let i = 0; i + hint.label.length <= tokens.length; i++)
      if (hint.label.every((t, j) => tokens[i + j] === t))
        found.push(unionBox(line.words.slice(i, i + hint.label.length).map((w) => w.bbox)))
  }
  const was = hint.labelBbox ?? hint.valueBbox
  const distance = (box: Bbox) => Math.hypot(box[0] - was[0], box[1] - was[1])
  return found.sort((a, b) => distance(a) - distance(b))[0] ?? null
}

/** Confidence a hint has earned: 0.9 once taught, closer to 1 with every confirmation. */
export const earnedConfidence = (confirmations: number) => 1 - 0.1 / Math.max(1, confirmations)

/**
 * Reads a field where a reviewer found it on this layout: the label is found again and the value box moves with
 * it (a longer address above shifts everything down); the value is as many words as were taken (else the phrase
 * that starts there), parsed by the field's type. Null when the label is gone or nothing there parses: the general
 * rules take over.
 */
export function applyHint(field: FieldDefinition, hint: Hint, pages: PageText[]): ExtractedField | null {
  const page = pages.find((p) => p.page_number === hint.pageNumber)
  if (!page) return null
  const label = hint.label.length ? findLabel(page, hint) : null
  if (hint.label.length && !label) return null
  const [dx, dy] =
    label && hint.labelBbox ? [label[0] - hint.labelBbox[0], label[1] - hint.labelBbox[1]] : [0, 0]
  const v = hint.valueBbox
  const predicted: Bbox = [v[0] + dx, v[1] + dy, v[2] + dx, v[3] + dy]
  const candidates = page.words
    .filter(
      (w) =>
        sameLine(w, predicted) &&
        w.bbox[2] > predicted[0] - 0.01 &&
        (!label || !sameLine(w, label) || w.bbox[0] >= label[2] - 0.001),
    )
    .sort((a, b) => a.bbox[0] - b.bbox[0])
  const phrase: PageWord[] = []
  for (const word of candidates) {
    const previous = phrase[phrase.length - 1]
    if (phrase.length === hint.valueWords) break
    if (previous && word.bbox[0] - previous.bbox[2] > phraseGap(previous)) break
    phrase.push(word)
  }
  if (hint.valueWords !== null && phrase.length < hint.valueWords) return null
  const [line] = linesOf({ ...page, words: phrase })
  if (!line) return null
  const read = readValueIn(field, line, 0, compilePattern(field))
  if (!read) return null
  return {
    key: field.key,
    // The comma that parted the words taken from the rest of their line ("Amazon Web Services, Inc.") is not theirs.
    value: typeof read.value === 'string' ? read.value.replace(/[\s,;:]+$/u, '') : read.value,
    confidence: earnedConfidence(hint.confirmations) * Math.min(...read.words.map((w) => w.confidence)),
    page_number: page.page_number,
    bbox: unionBox(read.words.map((w) => w.bbox)),
    method: 'learned',
    anchor: hint.label.join(' ') || null,
    learned_from_run_id: hint.learnedFromRunId,
    learned_confirmations: hint.confirmations,
  }
}
