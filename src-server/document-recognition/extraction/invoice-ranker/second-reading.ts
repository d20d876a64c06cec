import type { Bbox } from '../../document-recognition.tables'
import type { PageText, PageWord } from '../../page-text'
import type { ExtractedField } from '../extracted-field'
import { align, MAX_DIFFERENCE } from '../name-merge'
import { centreInside, sameRow } from '../readings'
import { lettersAndDigits } from '../values'

/*
 * A scanned invoice's second OCR reading: the ranker chooses in tesseract's reading alone, and the row of a party
 * name it chose with a word tesseract read unsurely (`unsureParties`) is read again by PaddleOCR, whose surer
 * letters replace that word's ("Tidewater Sighs" at 0.58 is "Tidewater Signs", "Garcfa" at 0.85 is "Garcia").
 * The ranker does not choose in PaddleOCR's reading, nor in the two merged field by field as receipts are
 * (`readings.ts`): PaddleOCR runs a row's words together and reads no accents, and on invoices nobody tuned on
 * either took numbers, dates and amounts that tesseract's reading holds right wrong. Only those rows are read again:
 * PaddleOCR reading every page took an OCR page from 0.76 s to 3.1 s (upload to completed, p50), and one page in
 * eight held such a name.
 */

const PARTIES = new Set(['seller_name', 'buyer_name'])

/**
 * A word tesseract read at least this surely keeps its letters. Over every word of 78 invoices not tuned on, read
 * with scan noise, PaddleOCR's other letters (by the rule below) for such a word were its own misread (a "ß" read as
 * "B") 9 times and a correction 7; for the words under it, a correction 12 times and a misread 2.
 */
const UNSURE_BELOW = 0.9

/** A word of a name: letters and a name's punctuation, no digits (PaddleOCR reads "O" as "0" as surely as not). */
const NAME_WORD = /^[\p{L}.,'&-]*\p{L}[\p{L}.,'&-]*$/u

/** Letters an OCR glyph apart in a sans-serif face ("I", "l", "1"), where neither reading is the better. */
const glyphs = (text: string) => lettersAndDigits(text).replace(/[i1]/g, 'l')

/**
 * The other reading's characters over each of `words` (one printed line): its words on their row, aligned to
 * theirs character by character (spaces aside; PaddleOCR's line may hold a label before the name and text after
 * it), each word with the characters paired with its own and any read between it and the next, and the least
 * sureness among them. null when the row reads as other text.
 */
function otherCharacters(words: PageWord[], other: PageText): { text: string; confidence: number }[] | null {
  const row = other.words
    .filter((w) => words.some((own) => sameRow(own.bbox, w.bbox)))
    .sort((a, b) => a.bbox[0] - b.bbox[0])
  const own = words.flatMap((w, i) => [...w.text.replace(/\s/g, '')].map((char) => ({ char, word: i })))
  const theirs = row.flatMap((w) => [...w.text.replace(/\s/g, '')].map((char) => ({ char, word: w })))
  if (own.length === 0 || theirs.length === 0) return null
  const { steps, edits } = align(
    own.map((c) => c.char),
    theirs.map((c) => c.char),
    true,
  )
  if (edits > MAX_DIFFERENCE * own.length) return null
  const read = words.map(() => ({ text: '', confidence: 1 }))
  let at = 0
  for (const step of steps) {
    if (step.sure !== null) at = own[step.sure]?.word ?? at
    const char = step.other !== null ? theirs[step.other] : undefined
    const word = read[at]
    if (!char || !word) continue
    word.text += char.char
    word.confidence = Math.min(word.confidence, char.word.confidence)
  }
  return read
}

/** A word of a party name that another reading may read better: one of letters tesseract read unsurely. */
const unsure = (word: PageWord) => word.confidence < UNSURE_BELOW && NAME_WORD.test(word.text)

/** The words of a field's value: those whose centre lies in its box, left to right. */
const wordsOf = (field: ExtractedField, page: PageText) =>
  field.bbox
    ? page.words.filter((w) => centreInside(w, field.bbox as Bbox)).sort((a, b) => a.bbox[0] - b.bbox[0])
    : []

/** The party names with an unsure word: the names to read a second time. */
export function unsureParties(fields: ExtractedField[], pages: PageText[]): ExtractedField[] {
  return fields.filter((field) => {
    const page = pages.find((p) => p.page_number === field.page_number)
    return PARTIES.has(field.key) && page !== undefined && wordsOf(field, page).some(unsure)
  })
}

/**
 * The part of the page read again for a name: its row across the page, with a line's height over and under it
 * (PaddleOCR finds the text in what it is given; a label before the name is read too, and left out by the alignment).
 */
export function rowOf(field: ExtractedField): Bbox | null {
  if (!field.bbox) return null
  const [, top, , bottom] = field.bbox
  const margin = bottom - top
  return [0, Math.max(0, top - margin), 1, Math.min(1, bottom + margin)]
}

/**
 * A word the other reading read with other letters, more surely, where tesseract was unsure: a misread letter
 * ("Sighs", "Signs") or one glyph read as two ("Miiller", "Muller"); not a letter more, which is a speck or the
 * next word's.
 */
function readBetter(own: PageWord, theirs: { text: string; confidence: number }): boolean {
  const lost = lettersAndDigits(own.text).length - lettersAndDigits(theirs.text).length
  return (
    unsure(own) &&
    theirs.confidence > own.confidence &&
    NAME_WORD.test(theirs.text) &&
    glyphs(own.text) !== glyphs(theirs.text) &&
    (lost === 0 || lost === 1)
  )
}

/**
 * The party names with the words the other reading read better (`readBetter`), and the pages with those words'
 * text so, in tesseract's boxes, so the stored words read as the values.
 */
export function partiesReadAgain(
  fields: ExtractedField[],
  pages: PageText[],
  other: PageText[],
): { fields: ExtractedField[]; pages: PageText[] } {
  const replaced = new Map<PageWord, PageWord>()
  const read = fields.map((field) => {
    const page = pages.find((p) => p.page_number === field.page_number)
    const again = other.find((p) => p.page_number === field.page_number)
    if (!PARTIES.has(field.key) || typeof field.value !== 'string' || !field.bbox) return field
    // A page both readings share was read once (a text layer): there is nothing to compare.
    if (!page || !again || again === page) return field
    const words = wordsOf(field, page)
    const printed = field.value.split(/\s+/)
    // The value as its words print it (the ranker trims a name's edges, "Ltd," is "Ltd"): each word in its place.
    if (words.length !== printed.length) return field
    const theirs = otherCharacters(words, again)
    if (!theirs) return field
    let changed = false
    const value = printed.map((text, i) => {
      const own = words[i] as PageWord
      const better = theirs[i] as { text: string; confidence: number }
      if (text !== own.text || !readBetter(own, better)) return text
      replaced.set(own, { ...own, text: better.text, confidence: better.confidence })
      changed = true
      return better.text
    })
    return changed ? { ...field, value: value.join(' ') } : field
  })
  if (replaced.size === 0) return { fields, pages }
  return {
    fields: read,
    pages: pages.map((page) => ({ ...page, words: page.words.map((w) => replaced.get(w) ?? w) })),
  }
}
