import type { FieldValue } from '../document-recognition.tables'
import type { FieldDefinition } from './field-config'

/** A typed value found in a text: where it starts and ends, and how unambiguous the reading was (0..1). */
export interface ParsedValue {
  value: FieldValue
  start: number
  end: number
  quality: number
}

const MONTHS: Record<string, number> = {}
/**
 * Month names as dates print them, folded (no accents, lower case): English, German, French, Dutch, Italian, Spanish,
 * Portuguese, Danish, Norwegian, Swedish, Finnish, Polish and Czech (their genitive too: "3. září", "12 listopada"),
 * Slovak, Slovenian, Romanian, Hungarian, Estonian, Lithuanian and Latvian, with their usual abbreviations.
 * Croatian's are left out: its "listopad" is October, Czech's November.
 */
const monthNames: [number, string][] = [
  [
    1,
    'january jan januar janvier janv janner januari gennaio gen enero ene janeiro tammikuuta tammikuu stycznia styczen ledna leden januara januarja ianuarie jaanuar sausio janvaris',
  ],
  [
    2,
    'february feb februar fevrier fevr fev februari febbraio febrero fevereiro helmikuuta helmikuu lutego luty unora unor februara februarja februarie veebruar vasario februaris',
  ],
  [
    3,
    'march mar marz maerz mars maart mrt marzo marco marts maaliskuuta maaliskuu marca marzec brezna brezen marec martie marcius kovo',
  ],
  [
    4,
    'april apr avril avr aprile abril abr huhtikuuta huhtikuu kwietnia kwiecien dubna duben aprila aprilie aprilis aprill balandzio',
  ],
  [5, 'may mai mei maggio mayo maio maj toukokuuta toukokuu maja kvetna kveten majus geguzes maijs'],
  [
    6,
    'june jun juni juin giugno giu junio junho kesakuuta kesakuu czerwca czerwiec cervna cerven juna junija iunie junius juuni birzelio junijs',
  ],
  [
    7,
    'july jul juli juillet juil luglio lug julio julho heinakuuta heinakuu lipca lipiec cervence cervenec jula julija iulie julius juuli liepos julijs',
  ],
  [
    8,
    'august aug aout augustus agosto ago augusti elokuuta elokuu sierpnia sierpien srpna srpen augusta avgusta avgust augusztus rugpjucio augusts',
  ],
  [
    9,
    'september sep sept septembre settembre set septiembre setiembre setembro syyskuuta syyskuu wrzesnia wrzesien zari septembra septembrie szeptember rugsejo septembris',
  ],
  [
    10,
    'october oct oktober okt octobre ottobre ott octubre outubro out lokakuuta lokakuu pazdziernika pazdziernik rijna rijen oktobra octombrie oktoober spalio oktobris',
  ],
  [
    11,
    'november nov novembre noviembre novembro marraskuuta marraskuu listopada listopad listopadu novembra noiembrie lapkricio novembris',
  ],
  [
    12,
    'december dec dezember dez decembre dicembre dic diciembre dezembro desember des joulukuuta joulukuu grudnia grudzien prosince prosinec decembra decembrie detsember gruodzio decembris',
  ],
]
for (const [month, names] of monthNames) for (const name of names.split(' ')) MONTHS[name] = month

/** Texts longer than a line of print are computed afresh: what a reviewer types or a region holds can be long. */
const REMEMBERED_LENGTH = 200

/**
 * A function of a text with its last results kept: extraction folds the same line texts and labels once per field
 * and label (a 400-word invoice asked for some texts thousands of times). Only texts of a line's length are kept,
 * at most `limit` of them, so what is kept stays within a few megabytes. The results must not be changed.
 */
export function remembered<T>(compute: (text: string) => T, limit = 5_000): (text: string) => T {
  const results = new Map<string, T>()
  return (text) => {
    if (text.length > REMEMBERED_LENGTH) return compute(text)
    let result = results.get(text)
    if (result === undefined) {
      if (results.size >= limit) results.clear()
      result = compute(text)
      results.set(text, result)
    }
    return result
  }
}

const ASCII = /^\p{ASCII}*$/u

/**
 * Letters no accent mark makes, folded as an English OCR model reads them: Polish "ł", Nordic "ø" and "æ", "đ",
 * Turkish "ı", Icelandic "ð" and "þ".
 */
const LETTERS_WITHOUT_MARKS: Record<string, string> = {
  ł: 'l',
  ø: 'o',
  æ: 'ae',
  đ: 'd',
  ı: 'i',
  ð: 'd',
  þ: 'th',
}

/** Lower case without accents, for comparing labels and month names across languages ("Beløb", "zapłaty"). */
export const fold = remembered((text: string): string =>
  ASCII.test(text)
    ? text.toLowerCase()
    : text
        .normalize('NFD')
        .replace(/\p{M}/gu, '')
        .toLowerCase()
        .replace(/[łøæđıðþ]/g, (letter) => LETTERS_WITHOUT_MARKS[letter] as string),
)

/** Folded letters and digits only: "Coolblue B.V." and "coolblue bv" read alike. */
export const lettersAndDigits = (text: string): string => fold(text).replace(/[^\p{L}\p{N}]/gu, '')

/**
 * `fold(text)` and, for each of its positions (and its end), the position in `text` it comes from: folding drops
 * accents that arrive as separate marks ("a" + U+0308), so the folded text can be shorter than the printed one.
 */
export const foldKeepingPositions = remembered(
  (text: string): { folded: string; printedAt: readonly number[] } => {
    if (ASCII.test(text))
      return { folded: text.toLowerCase(), printedAt: Array.from({ length: text.length + 1 }, (_, i) => i) }
    let folded = ''
    const printedAt: number[] = []
    for (let at = 0; at < text.length; ) {
      const char = String.fromCodePoint(text.codePointAt(at) as number)
      for (const unit of fold(char)) {
        folded += unit
        printedAt.push(at)
      }
      at += char.length
    }
    printedAt.push(text.length)
    return { folded, printedAt }
  },
)

/** A match's range in folded text, as positions in the printed text it was folded from. */
export function printedRange<T extends { start: number; end: number }>(
  printedAt: readonly number[],
  range: T,
): T {
  return { ...range, start: printedAt[range.start] as number, end: printedAt[range.end] as number }
}

const pad = (n: number) => String(n).padStart(2, '0')

function isoDate(year: number, month: number, day: number): string | null {
  const fullYear = year < 100 ? 2000 + year : year
  const date = new Date(Date.UTC(fullYear, month - 1, day))
  if (date.getUTCFullYear() !== fullYear || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
    return null
  return `${fullYear}-${pad(month)}-${pad(day)}`
}

/**
 * A date ends at a word boundary, or runs straight into the time of day where OCR lost the space between them
 * ("22/12/201714:03", "05Mar201818:24"); a two-digit year followed by a time wins over a four-digit one that
 * would swallow the hour ("18/03/1815:17" is 18 March 2018 at 15:17).
 */
const TIME = String.raw`\d{1,2}:\d{2}`
const DATE_END = String.raw`(?:\b|(?=${TIME}))`
/** A year of four digits, or of two ("24 Mar 18"), also where the time follows it unspaced. */
const YEAR = String.raw`\d{2}(?=${TIME})|\d{4}${DATE_END}|\d{2}\b`

/** Which part of an all-numeric date comes first when both could be a month ("03/04/2018"). */
export type DateOrder = 'day_first' | 'month_first'

/**
 * Dates in ISO, numeric and written forms (the month names above). An all-numeric date whose parts
 * could both be the month is read in `order` (the document's, see `documentDateOrder`), day first by default;
 * dotted dates are always day first.
 */
export function parseDate(text: string, order: DateOrder = 'day_first'): ParsedValue | null {
  const { folded, printedAt } = foldKeepingPositions(text)
  const candidates: ParsedValue[] = []
  // Year first: ISO, also with its time after a "T" ("2026-11-14T11:32:07", as e-invoices print a timestamp), and
  // Hungarian's dotted form with or without spaces ("2025. 09. 03.").
  for (const m of folded.matchAll(
    new RegExp(
      String.raw`\b(\d{4})(?:[-/]|\. ?)(\d{1,2})(?:[-/]|\. ?)(\d{1,2})(?:${DATE_END}|(?=t${TIME}))`,
      'g',
    ),
  )) {
    const value = isoDate(Number(m[1]), Number(m[2]), Number(m[3]))
    if (value) candidates.push({ value, start: m.index, end: m.index + m[0].length, quality: 1 })
  }
  // Day and month with one separator twice; a dot may be followed by a space, as Czech and Slovak print ("3. 9. 2025").
  for (const m of folded.matchAll(new RegExp(String.raw`\b(\d{1,2})([/-]|\. ?)(\d{1,2})\2(${YEAR})`, 'g'))) {
    const [a, b, year] = [Number(m[1]), Number(m[3]), Number(m[4])]
    // Day first (dots always are) unless the second part cannot be a month or the document reads month first.
    const dotted = (m[2] as string).startsWith('.')
    const monthFirst = !dotted && a <= 12 && (b > 12 || (order === 'month_first' && b <= 12))
    const value = monthFirst ? isoDate(year, a, b) : isoDate(year, b, a)
    const ambiguous = !dotted && a <= 12 && b <= 12 && a !== b
    if (value)
      candidates.push({ value, start: m.index, end: m.index + m[0].length, quality: ambiguous ? 0.85 : 1 })
  }
  const month = '([a-z]{3,12})\\.?'
  // "5. März 2024", "1er février", "3. září 2025"; "15 de marzo de 2025", "3 de setembro de 2025": Spanish and
  // Portuguese join the parts with a word.
  for (const m of folded.matchAll(
    new RegExp(
      `\\b(\\d{1,2})(?:st|nd|rd|th|er)?\\.?\\s*(?:de\\s+)?${month},?\\s*(?:de\\s+|del\\s+)?(${YEAR})`,
      'g',
    ),
  )) {
    const monthNumber = MONTHS[m[2] as string]
    const value = monthNumber ? isoDate(Number(m[3]), monthNumber, Number(m[1])) : null
    if (value) candidates.push({ value, start: m.index, end: m.index + m[0].length, quality: 1 })
  }
  // "15-Mar-2024", "15-Mar-24", "15/mrt/2024": a written month between separators, as English and Dutch print it.
  for (const m of folded.matchAll(/\b(\d{1,2})([-/.])([a-z]{3,9})\.?\2(\d{4}|\d{2})\b/g)) {
    const monthNumber = MONTHS[m[3] as string]
    const value = monthNumber ? isoDate(Number(m[4]), monthNumber, Number(m[1])) : null
    if (value) candidates.push({ value, start: m.index, end: m.index + m[0].length, quality: 1 })
  }
  for (const m of folded.matchAll(
    new RegExp(`\\b${month}\\s+(\\d{1,2})(?:st|nd|rd|th)?\\s*,?\\s+(\\d{4})\\b`, 'g'),
  )) {
    const monthNumber = MONTHS[m[1] as string]
    const value = monthNumber ? isoDate(Number(m[3]), monthNumber, Number(m[2])) : null
    if (value) candidates.push({ value, start: m.index, end: m.index + m[0].length, quality: 1 })
  }
  // The year first, with its dot or its "m." ("metai"), as Hungarian and Lithuanian write it: "2025. szeptember 3.",
  // "2025 m. spalio 7 d." (not "F2017-0149 October 16").
  for (const m of folded.matchAll(
    new RegExp(`\\b((?:19|20)\\d{2})(?:\\.|\\s+m\\.)\\s+${month}\\s+(\\d{1,2})\\b`, 'g'),
  )) {
    const monthNumber = MONTHS[m[2] as string]
    const value = monthNumber ? isoDate(Number(m[1]), monthNumber, Number(m[3])) : null
    if (value) candidates.push({ value, start: m.index, end: m.index + m[0].length, quality: 1 })
  }
  // Latvian: "2025. gada 7. oktobris".
  for (const m of folded.matchAll(
    new RegExp(`\\b((?:19|20)\\d{2})\\.\\s*gada\\s+(\\d{1,2})\\.\\s*${month}`, 'g'),
  )) {
    const monthNumber = MONTHS[m[3] as string]
    const value = monthNumber ? isoDate(Number(m[1]), monthNumber, Number(m[2])) : null
    if (value) candidates.push({ value, start: m.index, end: m.index + m[0].length, quality: 1 })
  }
  const first = candidates.sort((x, y) => x.start - y.start)[0]
  return first ? printedRange(printedAt, first) : null
}

/** A United States address: a state's code before its ZIP code ("Sacramento, CA 95828", "NY 10271-0001"). */
const US_ADDRESS =
  /\b(?:A[KLRZ]|C[AOT]|D[CE]|FL|GA|HI|I[ADLN]|K[SY]|LA|M[ADEINOST]|N[CDEHJMVY]|O[HKR]|PA|RI|S[CD]|T[NX]|UT|V[AT]|W[AIVY])\s+\d{5}(?:-\d{4})?\b/

/**
 * The order a document writes its numeric dates in, decided by the document: its dates whose first part cannot be
 * a month ("25/12/2018") against those whose second part cannot ("12/28/2017"); when they do not decide, month
 * first on a document printing a United States address (where dates are written so), else day first.
 */
export function documentDateOrder(texts: string[]): DateOrder {
  let dayFirst = 0
  let monthFirst = 0
  for (const text of texts)
    for (const m of text.matchAll(/\b(\d{1,2})[/-](\d{1,2})[/-](?:\d{4}|\d{2})\b/g)) {
      const [a, b] = [Number(m[1]), Number(m[2])]
      if (a > 12 && b >= 1 && b <= 12) dayFirst++
      if (b > 12 && a >= 1 && a <= 12) monthFirst++
    }
  if (monthFirst === dayFirst && texts.some((text) => US_ADDRESS.test(text))) return 'month_first'
  return monthFirst > dayFirst ? 'month_first' : 'day_first'
}

/** An amount printed without decimals is seldom a total or a price: a quantity, a code or a misread. */
const BARE_INTEGER = 0.75
/** Money is printed with two decimals: one ("51.0") is an amount with a digit lost as often as a price in tenths. */
const ONE_DECIMAL = 0.85
/** Cents read one space after the decimal point ("39. 80") are a guess about the space, if a good one. */
const SPLIT_DECIMAL = 0.9

/** An amount's pieces: a sign or currency before it, digits grouped in thousands, and nothing numeric after it. */
const SIGN = String.raw`(-|−|\()?\s?(?:[€$£]|eur|usd|gbp|chf)?\s?`
// Indian grouping (lakh and crore: "1,23,456.00") is in twos before the last three, with commas and a decimal point.
const GROUPED = String.raw`(?:\d{1,2}(?:,\d{2})+,\d{3}(?:\.\d{1,2})?|\d{1,3}(?:[.,'’ ]\d{3})+(?:[.,]\d{1,2})?)`
const END = String.raw`(?![\d.,]*\d)`
const TYPED_AMOUNT = new RegExp(`${SIGN}(${GROUPED}|\\d+(?:[.,]\\d{1,2})?)${END}`, 'giu')
const PRINTED_AMOUNT = new RegExp(`${SIGN}(${GROUPED}|\\d+(?:[.,] \\d{2}(?!\\d)|[.,]\\d{1,2})?)${END}`, 'giu')

/**
 * Amounts with any thousands and decimal separators: the last of `.`/`,` followed by one or two digits is the
 * decimal point; groups of three after a separator are thousands. Text read off a page (`fromPage`) may hold an
 * amount OCR split after its point ("RM 39. 80": a separator, one space and exactly two digits ending the amount
 * are still its cents); what a person typed is read strictly.
 */
export function parseAmounts(text: string, { fromPage = false }: { fromPage?: boolean } = {}): ParsedValue[] {
  // Dates and percentages are not amounts: blank them out (same length, so positions still hold). A rate may
  // print its sign first ("%10", "KDV (%20)", as Turkish does).
  text = text
    .replace(/\b\d{1,4}[./-]\d{1,2}[./-]\d{2,4}\b/g, (date) => ' '.repeat(date.length))
    .replace(/\b\d{1,2}[./-][a-z]{3,9}\.?[./-]\d{2,4}\b/gi, (date) => ' '.repeat(date.length))
    .replace(/\d+(?:[.,]\d+)?\s?%|%\d+(?:[.,]\d+)?/g, (rate) => ' '.repeat(rate.length))
    // Digits glued to a word end a code ("IVA23", a tax code), and start no amount grouped by spaces after it
    // ("IVA23 630,00" is 630,00, not 23 630,00). A currency's code may be glued to its amount ("EUR1 234,00").
    .replace(/(?<=\p{L})(?<!eur|usd|gbp|chf)\d{1,3}(?= \d{3}(?!\d))/giu, (code) => ' '.repeat(code.length))
  const found: ParsedValue[] = []
  const pattern = fromPage ? PRINTED_AMOUNT : TYPED_AMOUNT
  for (const m of text.matchAll(pattern)) {
    const digits = m[2] as string
    const decimal = /[.,] ?(\d{1,2})$/.exec(digits)
    const integerPart = decimal ? digits.slice(0, decimal.index) : digits
    const number = Number(`${integerPart.replace(/[.,'’ ]/g, '')}${decimal ? `.${decimal[1]}` : ''}`)
    if (!Number.isFinite(number)) continue
    const negative = Boolean(m[1])
    const start = m.index + (m[0].length - m[0].trimStart().length)
    const quality = !decimal
      ? BARE_INTEGER
      : decimal[0].includes(' ')
        ? SPLIT_DECIMAL
        : (decimal[1] as string).length === 1
          ? ONE_DECIMAL
          : 1
    found.push({ value: negative ? -number : number, start, end: m.index + m[0].length, quality })
  }
  return found
}

const enumTerms = new Map<string, { needle: string; printed: RegExp }>()
/** An enum's term as it is printed: a term starting or ending as a word does so in the text ("fr." in "free.fr." names no franc). */
function enumTerm(term: string): { needle: string; printed: RegExp } {
  let found = enumTerms.get(term)
  if (!found) {
    const needle = fold(term)
    // Not inside a word, an address or an article code of several parts or digits ("CAD-PRO-PERP", "SVC-TRN-CAD",
    // "CAD-2025" are articles, not Canadian dollars); a compound label stays one ("EUR-Betrag").
    const before = /^[\p{L}\p{N}]/u.test(needle) ? '(?<![\\p{L}\\p{N}./@_]|[-\\p{N}][\\p{L}\\p{N}]*-)' : ''
    const after = /[\p{L}\p{N}]$/u.test(needle) ? '(?![\\p{L}\\p{N}]|-[\\p{L}\\p{N}]*[-\\p{N}])' : ''
    found = { needle, printed: new RegExp(`${before}${escapeRegex(needle)}${after}`, 'u') }
    enumTerms.set(term, found)
  }
  return found
}

function parseEnum(text: string, values: string[], aliases: Record<string, string[]>): ParsedValue | null {
  const { folded, printedAt } = foldKeepingPositions(text)
  let best: ParsedValue | null = null
  for (const value of values) {
    for (const term of [value, ...(aliases[value] ?? [])]) {
      const { needle, printed } = enumTerm(term)
      const at = folded.search(printed)
      if (at >= 0 && (!best || at < best.start))
        best = { value, start: at, end: at + needle.length, quality: 1 }
    }
  }
  return best ? printedRange(printedAt, best) : null
}

function parseBoolean(text: string): ParsedValue | null {
  const { folded, printedAt } = foldKeepingPositions(text)
  const m = /\b(yes|no|true|false|ja|nein|oui|non)\b/i.exec(folded)
  if (!m) return null
  return printedRange(printedAt, {
    value: ['yes', 'true', 'ja', 'oui'].includes(m[1] as string),
    start: m.index,
    end: m.index + m[0].length,
    quality: 1,
  })
}

const LABEL_ONLY = /^[\p{L}][\p{L}\s.\-/]{0,30}\s*:$/u

/**
 * The capitals of a document series printed before a number of a year or a sequence ("FT 2025/187", "NC 2025/37",
 * "VF 2025/0318", as Portuguese, Spanish and Belgian invoicing prints them): part of the number. Matched
 * case-sensitively, apart from the field's pattern: patterns are compiled without case, and "de 2025/412" is no
 * series.
 */
const SERIES_LETTERS = /^\p{Lu}{1,3}$/u
const SERIES = /^([\s:#.\-–]*)(\p{Lu}{1,3}) (?=\S*\d)/u

/** The number with its series' letters ("FT 2025/187"), when `letters` are a series' and `number` has its slash. */
export function withSeries(letters: string, number: string): string | null {
  return SERIES_LETTERS.test(letters) && number.includes('/') ? `${letters} ${number}` : null
}

/** The pattern's match in `text`, with its position. */
function patternMatch(text: string, pattern: RegExp): ParsedValue | null {
  const m = pattern.exec(text)
  if (!m) return null
  const value = (m[1] ?? m[0]).trim()
  const start = m.index + (m[1] ? m[0].indexOf(m[1]) : 0)
  return value ? { value, start, end: start + value.length, quality: 1 } : null
}

/** A string value: the pattern's match, else the text up to the end of the segment, without leading punctuation. */
function parseString(text: string, pattern: RegExp | null): ParsedValue | null {
  if (pattern) {
    const read = patternMatch(text, pattern)
    if (read) return read
    // The pattern reads one word; a series' letters and the number after them ("FT 2025/187") are one value.
    const series = SERIES.exec(text)
    const number = series ? patternMatch(text.slice(series[0].length), pattern) : null
    const value = series && number?.start === 0 ? withSeries(series[2] as string, String(number.value)) : null
    if (!series || !number || !value) return null
    const start = (series[1] as string).length
    return { ...number, value, start, end: series[0].length + number.end }
  }
  const m = /^[\s:#.\-–]*(?:(?:no|nr|n°|no\.)\s*[:.]?\s*)?(.*?)\s*$/iu.exec(text)
  const value = m?.[1]?.trim()
  // "IBAN :" after a label is the next label, not its value.
  if (!value || LABEL_ONLY.test(value)) return null
  const start = text.lastIndexOf(value)
  return { value, start, end: start + value.length, quality: 0.9 }
}

export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

export function compilePattern(field: FieldDefinition): RegExp | null {
  return field.pattern ? new RegExp(field.pattern, 'iu') : null
}

/** The first value of the field's type in `text`, with its position. */
export function parseValue(field: FieldDefinition, text: string, pattern: RegExp | null): ParsedValue | null {
  switch (field.type) {
    case 'money':
    case 'number': {
      const amounts = parseAmounts(text, { fromPage: true })
      return amounts[0] ?? null
    }
    case 'date':
      return parseDate(text)
    case 'enum':
      return parseEnum(text, field.enum ?? [], field.aliases ?? {})
    case 'boolean':
      return parseBoolean(text)
    default:
      return parseString(text, pattern)
  }
}

/** The canonical form of a value given as text (reviewer corrections, model answers, e-invoice XML). */
export function normaliseValue(field: FieldDefinition, raw: unknown): FieldValue {
  if (raw === null || raw === undefined || raw === '') return null
  if (field.type === 'money' || field.type === 'number') {
    if (typeof raw === 'number') return Number.isFinite(raw) ? raw : null
    const parsed = parseAmounts(String(raw))[0]
    return typeof parsed?.value === 'number' ? parsed.value : null
  }
  if (field.type === 'date') {
    const text = String(raw)
    const compact = /^(\d{4})(\d{2})(\d{2})$/.exec(text.trim())
    if (compact) return isoDate(Number(compact[1]), Number(compact[2]), Number(compact[3]))
    return (parseDate(text)?.value as string | undefined) ?? null
  }
  if (field.type === 'boolean')
    return typeof raw === 'boolean'
      ? raw
      : ((parseBoolean(String(raw))?.value as boolean | undefined) ?? null)
  return String(raw).trim() || null
}
