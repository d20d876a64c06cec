import type { Bbox, FieldValue } from '../document-recognition.tables'
import type { PageText, PageWord } from '../page-text'
import type { FieldDefinition } from './field-config'
import { type Line, linesOf, segmentsOf, unionBox, wordsInRange } from './layout'
import { lettersAndDigits, parseAmounts, parseDate, parseValue } from './values'

const squash = lettersAndDigits

/** Does this text read as the value (same amount, same date, same letters and digits)? */
export function textMatchesValue(field: FieldDefinition, text: string, value: FieldValue): boolean {
  if (value === null) return false
  if (typeof value === 'number')
    return parseAmounts(text, { fromPage: true }).some((p) => Math.abs((p.value as number) - value) < 0.005)
  if (field.type === 'date') return parseDate(text)?.value === value
  if (field.type === 'enum' || field.type === 'boolean') return parseValue(field, text, null)?.value === value
  const target = squash(String(value))
  return target.length > 0 && squash(text).includes(target)
}

export function wordsInBox(words: PageWord[], bbox: Bbox): PageWord[] {
  return words.filter((word) => {
    const cx = (word.bbox[0] + word.bbox[2]) / 2
    const cy = (word.bbox[1] + word.bbox[3]) / 2
    return cx >= bbox[0] && cx <= bbox[2] && cy >= bbox[1] && cy <= bbox[3]
  })
}

/** The value's words are inside its box: the box and the value agree. */
export function boxHoldsValue(
  field: FieldDefinition,
  page: PageText,
  bbox: Bbox,
  value: FieldValue,
): boolean {
  const inside = wordsInBox(page.words, bbox)
  return textMatchesValue(field, inside.map((w) => w.text).join(' '), value)
}

export interface Located {
  pageNumber: number
  bbox: Bbox
  confidence: number
}

/**
 * Finds a known value on the pages (for e-invoice XML and model answers): the shortest run of words within a
 * line segment that reads as the value.
 */
export function locateValue(field: FieldDefinition, pages: PageText[], value: FieldValue): Located | null {
  if (value === null || value === '') return null
  for (const page of pages) {
    for (const line of linesOf(page)) {
      for (const segment of [line, ...segmentsOf(line)]) {
        const hit = smallestMatch(field, segment, value)
        if (hit) return hit
      }
    }
  }
  return null
}

/**
 * Where `value` is printed on `page` over `near` (a box another reading of the page found it in): the words that
 * read as it and overlap that box most, else null.
 */
export function locateNear(
  field: FieldDefinition,
  page: PageText,
  value: FieldValue,
  near: Bbox,
): Bbox | null {
  if (value === null || value === '') return null
  const overlap = (box: Bbox) =>
    Math.max(0, Math.min(box[2], near[2]) - Math.max(box[0], near[0])) *
    Math.max(0, Math.min(box[3], near[3]) - Math.max(box[1], near[1]))
  let best: { bbox: Bbox; overlap: number } | null = null
  for (const line of linesOf(page))
    for (const segment of [line, ...segmentsOf(line)]) {
      const hit = smallestMatch(field, segment, value)
      const area = hit ? overlap(hit.bbox) : 0
      if (hit && area > 0 && (!best || area > best.overlap)) best = { bbox: hit.bbox, overlap: area }
    }
  return best?.bbox ?? null
}

function smallestMatch(field: FieldDefinition, line: Line, value: FieldValue): Located | null {
  if (!textMatchesValue(field, line.text, value)) return null
  let best: PageWord[] | null = null
  for (let i = 0; i < line.words.length; i++) {
    for (let j = i; j < line.words.length && j - i < 12; j++) {
      const words = line.words.slice(i, j + 1)
      if (textMatchesValue(field, words.map((w) => w.text).join(' '), value)) {
        if (!best || words.length < best.length) best = words
        break
      }
    }
  }
  if (!best) return null
  return {
    pageNumber: line.pageNumber,
    bbox: unionBox(best.map((w) => w.bbox)),
    confidence: Math.min(...best.map((w) => w.confidence)),
  }
}

export interface ReadValue {
  value: FieldValue
  words: PageWord[]
  quality: number
  start: number
  end: number
}

/** A typed value read from a piece of a line, with the words it came from. */
export function readValueIn(
  field: FieldDefinition,
  line: Line,
  from: number,
  pattern: RegExp | null,
): ReadValue | null {
  const text = line.text.slice(from)
  const parsed = parseValue(field, text, pattern)
  if (!parsed || parsed.value === null) return null
  const words = wordsInRange(line, from + parsed.start, from + parsed.end)
  if (words.length === 0) return null
  return {
    value: parsed.value,
    words,
    quality: parsed.quality,
    start: from + parsed.start,
    end: from + parsed.end,
  }
}

/** Every value of the field's type in a piece of a line from `from` on, left to right. */
export function readValuesIn(
  field: FieldDefinition,
  line: Line,
  from: number,
  pattern: RegExp | null,
): ReadValue[] {
  const reads: ReadValue[] = []
  for (
    let read = readValueIn(field, line, from, pattern);
    read;
    read = readValueIn(field, line, read.end, pattern)
  )
    reads.push(read)
  return reads
}
