import type { PageText } from '../page-text'
import type { ExtractedField } from './extracted-field'
import type { FieldDefinition } from './field-config'
import { trailingLegalForm } from './header-name'
import { linesOf } from './layout'
import { nearMissOfWord, wordCount } from './lexicon'
import { parseAmounts, parseDate } from './values'

/*
 * Checks that can catch a misread value, independent of how many times the same image was read: two OCR readings
 * of one image by one engine share most misreads, so their agreement alone is no evidence that a value is right.
 */

/** Words of four letters or more: shorter ones ("TA", "HO", "CO") are initials and codes as often as words. */
const WORD = /^\p{L}{4,}$/u

/**
 * A name whose words a reader would accept as printed: at least one of its longer words is an English word or it
 * ends in a company's legal form, and none of its words is half-read (a stray mark, a word starting in lower case
 * inside a name printed in capitals or title case, "HuaT" with a capital inside).
 */
export function nameReadsAsWords(name: string): boolean {
  const words = name.split(/\s+/u).filter(Boolean)
  if (words.some((w) => !/[\p{L}\p{N}&]/u.test(w))) return false
  const printed = words.filter((w) => /\p{L}/u.test(w))
  if (printed.some((w) => /^\p{Ll}/u.test(w) && w.length > 3)) return false
  if (printed.some((w) => /\p{Ll}\p{Lu}/u.test(w))) return false
  const plain = words.map((w) => w.replace(/[^\p{L}]/gu, ''))
  if (plain.some(nearMissOfWord)) return false
  return plain.some((w) => WORD.test(w) && wordCount(w) > 0) || trailingLegalForm(words) !== null
}

/** Does any page line other than the value's own hold `matches`? A value printed twice was read twice. */
function printedElsewhere(pages: PageText[], field: ExtractedField, matches: (text: string) => boolean) {
  const page = pages.find((p) => p.page_number === field.page_number)
  if (!page || !field.bbox) return false
  const [, top, , bottom] = field.bbox
  return linesOf(page).some((line) => (line.bbox[3] <= top || line.bbox[1] >= bottom) && matches(line.text))
}

const sameAmount = (value: number) => (text: string) =>
  parseAmounts(text).some((a) => Math.abs((a.value as number) - value) < 0.005)

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

/** Amounts in a sum (`equals_sum_of`) that holds to the cent with this field in it. */
function inHoldingSum(definitions: FieldDefinition[], key: string, fields: ExtractedField[]): boolean {
  const read = (k: string) => fields.find((f) => f.key === k)?.value
  return definitions.some((d) => {
    const parts = d.validation?.equals_sum_of ?? []
    const keys = [d.key, ...parts]
    if (parts.length === 0 || !keys.includes(key)) return false
    const values = keys.map(read)
    if (!values.every((v) => typeof v === 'number')) return false
    const [total, ...rest] = values as number[]
    return Math.abs(rest.reduce((a, b) => a + b, 0) - (total as number)) <= 0.01
  })
}

/**
 * Whether a value passed a check that would catch its misreading: a header name reads as words, an amount takes
 * part in a sum that holds or is printed again on another line (cash equal to the total, a rounded total), a date
 * is printed again elsewhere on the page. A value no such check covers is not verified.
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
  if (definition.without_label === 'header_name' && field.method === 'header')
    return nameReadsAsWords(String(value))
  if (typeof value === 'number')
    return inHoldingSum(definitions, field.key, fields) || printedElsewhere(pages, field, sameAmount(value))
  if (definition.type === 'date' && typeof value === 'string')
    return printedElsewhere(pages, field, sameDate(value))
  return false
}
