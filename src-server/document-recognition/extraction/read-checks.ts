import type { PageText } from '../page-text'
import type { ExtractedField } from './extracted-field'
import type { FieldDefinition } from './field-config'
import { isKnownWord, isLongWord, trailingLegalForm } from './header-name'
import { findAnchor, linesOf } from './layout'
import { nearMissOfWord } from './lexicon'
import { tillArithmeticHolds } from './receipt-total'
import { parseAmounts, parseDate } from './values'

/*
 * Checks that can catch a misread value, independent of how many times the same image was read: two OCR readings
 * of one image by one engine share most misreads, so their agreement alone is no evidence that a value is right.
 */

/** A word OCR half-read: a capital after a small letter ("CafE"), a zero among capitals ("C0.", "B00K"). */
const HALF_READ = /\p{Ll}\p{Lu}|\p{Lu}0|0\p{Lu}/u

/**
 * The marks of a misread a name carries: its words half-read (`HALF_READ`), a first word in small letters before
 * capitalised ones (the start of the line lost: "g Alaf Restaurants"), and a legal form read only with a character
 * off ("SIN BHD" for "SDN BHD"), a bracket left unpaired. Of two readings of one name, the one with fewer is read better; a name with any is
 * sent to review.
 */
export function misreadMarks(name: string): number {
  const words = name.split(/\s+/u).filter(Boolean)
  const legal = trailingLegalForm(words.map((w) => w.replace(/[^\p{L}\p{N}&/.]/gu, '')).filter(Boolean))
  const lostStart = /^\p{Ll}/u.test(words[0] ?? '') && words.slice(1).some((w) => /^\p{Lu}/u.test(w))
  // A bracket opened and not closed (or the reverse) is one whose other half was read as a letter ("(MALURD").
  const brackets = (name.match(/\(/gu) ?? []).length !== (name.match(/\)/gu) ?? []).length
  // A legal form read exactly is printed as it is written, capitals inside and all ("GmbH", "mbH").
  const named = legal?.exact ? words.slice(0, words.length - legal.span) : words
  return (
    named.filter((w) => HALF_READ.test(w)).length +
    (lostStart ? 1 : 0) +
    (legal && !legal.exact ? 1 : 0) +
    (brackets ? 1 : 0)
  )
}

/** A name read from a header line that carries marks of a misread: it fails a check and goes to review. */
export const misreadName = (field: ExtractedField) =>
  field.method === 'header' && typeof field.value === 'string' && misreadMarks(field.value) > 0

/**
 * A name whose words a reader would accept as printed: every word of four letters or more is an English word or a
 * legal form (a misread name's words are not words: "PRGAR MINT" for "PASAR MINI"), and none of its words is
 * half-read (a stray mark, a word starting in lower case inside a name printed in capitals or title case, "HuaT"
 * with a capital inside, one letter from a common word it is not). A name of short words only has nothing to check.
 */
export function nameReadsAsWords(name: string): boolean {
  const words = name.split(/\s+/u).filter(Boolean)
  if (words.some((w) => !/[\p{L}\p{N}&]/u.test(w))) return false
  const printed = words.filter((w) => /\p{L}/u.test(w))
  if (printed.some((w) => /^\p{Ll}/u.test(w) && w.length > 3)) return false
  if (printed.some((w) => /\p{Ll}\p{Lu}/u.test(w))) return false
  const plain = words.map((w) => w.replace(/[^\p{L}]/gu, ''))
  if (plain.some(nearMissOfWord)) return false
  return plain.some(isLongWord) && plain.every(isKnownWord)
}

/**
 * Does a page line other than the value's own hold `matches` (and one of `labels`, when given)? A value printed
 * twice was read twice.
 */
function printedElsewhere(
  pages: PageText[],
  field: ExtractedField,
  matches: (text: string) => boolean,
  labels?: string[],
) {
  const page = pages.find((p) => p.page_number === field.page_number)
  if (!page || !field.bbox) return false
  const [, top, , bottom] = field.bbox
  return linesOf(page).some(
    (line) =>
      (line.bbox[3] <= top || line.bbox[1] >= bottom) &&
      matches(line.text) &&
      (!labels || labels.some((label) => findAnchor(line, label).length > 0)),
  )
}

/**
 * The labels under which a repeat of an amount counts: the field's own and those of the amounts it sums with
 * (cash equal to the total, a rounded total). An item price that happens to equal a misread total proves nothing.
 */
function sumLabels(definitions: FieldDefinition[], definition: FieldDefinition): string[] {
  const keys = new Set([definition.key])
  for (const d of definitions) {
    const members = [d.key, ...(d.validation?.equals_sum_of ?? [])]
    if (members.length > 1 && members.includes(definition.key)) for (const k of members) keys.add(k)
  }
  return definitions.filter((d) => keys.has(d.key)).flatMap((d) => d.anchors)
}

const sameAmount = (value: number) => (text: string) =>
  parseAmounts(text, { fromPage: true }).some((a) => Math.abs((a.value as number) - value) < 0.005)

/** Any date in the text, in either order, is `value`: a receipt prints its date again in another form. */
const sameDate = (value: string) => (text: string) => {
  const words = text.split(/\s+/u)
  return words.some((_, i) =>
    [1, 2, 3].some((n) => {
      const part = words.slice(i, i + n).join(' ')
      return parseDate(part)?.value === value || parseDate(part, 'month_first')?.value === value
    }),
  )
}

/**
 * Amounts in a sum (`equals_sum_of`) that holds to the cent with this field in it. A sum holding a derived amount
 * (a total computed as cash - change) holds by construction and checks nothing.
 */
function inHoldingSum(definitions: FieldDefinition[], key: string, fields: ExtractedField[]): boolean {
  return definitions.some((d) => {
    const parts = d.validation?.equals_sum_of ?? []
    const keys = [d.key, ...parts]
    if (parts.length === 0 || !keys.includes(key)) return false
    const read = keys.map((k) => fields.find((f) => f.key === k))
    if (read.some((f) => f?.method === 'derived')) return false
    const values = read.map((f) => f?.value)
    if (!values.every((v) => typeof v === 'number')) return false
    const [total, ...rest] = values as number[]
    return Math.abs(rest.reduce((a, b) => a + b, 0) - (total as number)) <= 0.01
  })
}

/**
 * Whether a value passed a check that would catch its misreading: a header name reads as words, an amount takes
 * part in a sum that holds (none of it derived) or is printed again on another line under a label of its sum (cash
 * equal to the total, a rounded total), a receipt's total is what the till's arithmetic comes to in any language
 * (`tillArithmeticHolds`: cash given less change, the items' sum paid), a date is printed again elsewhere on the page. A value no such check covers
 * is not verified.
 */
export function verifiedRead(
  definition: FieldDefinition,
  field: ExtractedField,
  fields: ExtractedField[],
  definitions: FieldDefinition[],
  pages: PageText[],
): boolean {
  const { value } = field
  if (value === null) return false
  if (field.method === 'header') return nameReadsAsWords(String(value))
  if (typeof value === 'number')
    return (
      inHoldingSum(definitions, field.key, fields) ||
      printedElsewhere(pages, field, sameAmount(value), sumLabels(definitions, definition)) ||
      (definition.without_label === 'foot_total' && tillArithmeticHolds(pages, value))
    )
  if (definition.type === 'date' && typeof value === 'string')
    return printedElsewhere(pages, field, sameDate(value))
  return false
}
