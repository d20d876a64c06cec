import type { PageText } from '../page-text'
import {
  headerName,
  isColumnHeading,
  isNameLike,
  isTitle,
  nameOnLine,
  trailingLegalForm,
} from './header-name'
import { type Line, linesOf } from './layout'
import weights from './shop-name.weights.json'
import { fold } from './values'

/**
 * Legal forms in the countries whose receipts are read, beyond the ones a header name already knows
 * (`trailingLegalForm`): written after the name, or (Latvia, Lithuania, Estonia) before it ("SIA "Rimi Latvia"").
 */
const TRAILING_FORMS = [
  'gmbh & co. kg',
  'gmbh & co kg',
  'gmbh',
  'mbh',
  'e.k.',
  'e.v.',
  's.a.',
  's.l.',
  's.l.u.',
  's.a.s.',
  's.a.r.l.',
  's.p.a.',
  'spa',
  's.r.l.',
  'srl',
  's.n.c.',
  'lda',
  'lda.',
  'oy',
  'oyj',
  'ab',
  'a/s',
  'aps',
  'as',
  'asa',
  'kft',
  'zrt',
  'sp. z o.o.',
  's.r.o.',
  'd.o.o.',
  'bv',
  'b.v.',
  'vof',
  'sdn bhd',
  'sdn. bhd.',
  'bhd',
  'enterprise',
  'trading',
]
const LEADING_FORMS = ['sia', 'as', 'uab', 'ab', 'oü', 'ou']

/** Lines that are not a shop's name whatever else they hold. */
const ADDRESS =
  /\b(?:street|st|road|rd|avenue|ave|lane|jalan|jln|taman|str|stra(?:ss|ß)e|platz|weg|allee|gasse|ring|rue|avenue|bd|boulevard|place|calle|avda|avenida|plaza|paseo|via|viale|piazza|corso|straat|laan|plein|iela|rua|travessa|praça)\b/iu
/**
 * A street written with its house number, in the orders the countries read write it: "Bahnhofstr. 22" and
 * "Kerkstraat 18" (German and Dutch streets are one word ending in the street's kind, where a word boundary finds
 * no "str"), "Via Roma 15", "Brīvības iela 101", "12 quai des Chartrons", "14 High Street".
 */
const HOUSE_NUMBER = String.raw`\d{1,4}[a-z]?(?![\p{L}\p{N}])`
const NAME_WORDS = String.raw`(?:\s+[\p{L}'.-]+){0,3}`
const STREET_AND_NUMBER = new RegExp(
  [
    String.raw`\p{L}(?:str\.?|stra(?:ss|ß)e|straat|weg|platz|plein|allee|gasse|laan|damm|gracht|kade|ufer)\s*${HOUSE_NUMBER}`,
    String.raw`\b(?:via|viale|piazza|corso|calle|c\/|avda|avenida|plaza|paseo|iela|rua|ring|jalan|jln)${NAME_WORDS},?\s*${HOUSE_NUMBER}`,
    String.raw`(?<![\p{L}\p{N}])${HOUSE_NUMBER},?${NAME_WORDS}\s+(?:street|st|road|rd|avenue|ave|lane|square|quai|rue|place|boulevard|bd|allée|chemin)\b`,
  ].join('|'),
  'iu',
)
const POSTCODE =
  /(?<![\p{L}\p{N}])(?:\d{4,6}|\d{2}-\d{3}|LV-?\d{4}|[A-Z]{1,2}\d{1,2}[A-Z]? \d[A-Z]{2})(?![\p{L}\p{N}])/u
const CONTACT =
  /\b(?:tel|telp|phone|fax|email|e-mail|mobile|hp|www|http|telefon|tél|tfn|tālr)\b|@|\.(?:com|de|fr|es|it|nl|lv|pt|my)\b/iu
const AMOUNT = /\d[.,]\d{2}\b/u
const DATE_OR_TIME = /\d{1,2}[./-]\d{1,2}[./-]\d{2,4}|(?<!\d)\d{1,2}:\d{2}(?!\d)/u
const REGISTRATION =
  /\b(?:gst|vat|tax|reg(?:istration)?|company\s*no|ust|ust-?id(?:nr)?|st\.?-?nr|steuer(?:nummer)?|hrb|hra|siret|siren|tva|nif|cif|iva|p\.?\s?iva|kvk|btw|abn|pvn|reģ|reg\.?\s?nr)\b/iu

const letters = (text: string) => (text.match(/\p{L}/gu) ?? []).length
const digits = (text: string) => (text.match(/\p{N}/gu) ?? []).length
/** A legal form's letters, digits, "&" and "/" in lower case: "GmbH & Co. KG" and "GMBH & CO KG" are one form. */
const plainForm = (text: string) => fold(text).replace(/[^\p{L}\p{N}&/]/gu, '')
const TRAILING = new Set(TRAILING_FORMS.map(plainForm))
const LEADING = new Set(LEADING_FORMS.map(plainForm))
const LONGEST_FORM = 4

/** How many of the last words are a legal form ("Muster GmbH & Co. KG": 4), null when they are none. */
function trailingFormSpan(words: string[]): number | null {
  const known = trailingLegalForm(words)
  if (known && !known.fromDigits) return known.span
  for (let span = Math.min(LONGEST_FORM, words.length); span >= 1; span--)
    if (TRAILING.has(plainForm(words.slice(-span).join(' ')))) return span
  return null
}

/** A line's part a legal form ends or starts ("Muster GmbH & Co. KG · Hauptstr. 5" gives "Muster GmbH & Co. KG"). */
export function legalPart(text: string): string | null {
  // A label before a colon ("Owned by: ... Sdn Bhd") is not part of the name it introduces.
  for (const segment of text.split(/\s+[·•|]\s+|,\s+|\s{2,}|\s+-\s+|:\s*(?=\p{L})/u).map((s) => s.trim())) {
    const words = withoutCompanyNumber(segment.split(/\s+/u))
    // A form alone ("SDN BHD" under the name it ends) names nobody on its own line.
    if (words.length < 2 || TRAILING.has(plainForm(words.join(' ')))) continue
    if (trailingFormSpan(words) !== null) return words.join(' ')
    // A form written first is in capitals ("SIA", "AS"), never the English word "as".
    if (words[0] === words[0]?.toUpperCase() && LEADING.has(plainForm(words[0] as string))) return segment
  }
  return null
}

/**
 * A line's words without the company number printed after its legal form ("S/B 273500-U (KSB)"): the words at its
 * end that hold digits, and a bracket after them; unchanged when none holds a digit.
 */
function withoutCompanyNumber(words: string[]): string[] {
  let end = words.length
  if (end > 2 && /^\(\P{N}*\)$/u.test(words[end - 1] as string)) end--
  const bracketed = end
  while (end > 2 && /\p{N}/u.test(words[end - 1] as string)) end--
  return end < bracketed ? words.slice(0, end) : words
}

/** What a line shows of being a shop's name, each 0..1; the order is the order of the weights. */
export const FEATURES = [
  'bias',
  'legal_form',
  'header_pick',
  'name_like',
  'rank_from_top',
  'in_header',
  'in_footer',
  'taller',
  'upper_case',
  'letter_share',
  'has_digits',
  'address',
  'contact',
  'amount_date_or_time',
  'registration',
  'title_or_heading',
  'confidence',
  'few_letters',
  'repeated',
  'one_word',
  'first_legal',
  'below_title',
  'opens_bracket',
  'closes_bracket',
  'continues_above',
  'below_particulars',
  'ends_split_name',
] as const

export interface ShopNameCandidate {
  line: Line
  previous: Line | undefined
  next: Line | undefined
  features: number[]
}

/** Every line of the first page, with the features a learned weight judges it by. */
export function shopNameCandidates(pages: PageText[]): ShopNameCandidate[] {
  const page = pages[0]
  if (!page) return []
  const lines = linesOf(page)
    .filter((line) => letters(line.text) > 0)
    .sort((a, b) => a.bbox[1] - b.bbox[1])
  if (lines.length === 0) return []
  const heights = lines.map((l) => l.bbox[3] - l.bbox[1]).sort((a, b) => a - b)
  const medianHeight = heights[Math.floor(heights.length / 2)] as number
  const pick = headerName(pages)
  const texts = lines.map((line) => plainForm(legalPart(line.text) ?? line.text))
  const firstLegal = lines.findIndex((line) => legalPart(line.text) !== null)
  const title = lines.findIndex((line) => isTitle(line.text))
  const names = lines.map((line, rank) =>
    nameOfCandidate({ line, previous: lines[rank - 1], next: lines[rank + 1] }),
  )
  // The first line that gives an address or a registration number ends the shop's own heading.
  const firstParticulars = lines.findIndex((line) => isParticulars(line.text))
  return lines.map((line, rank) => {
    const text = line.text
    // The name this line reads as may go on to the next line, which holds its legal form.
    const legal = legalPart(names[rank]?.value ?? text)
    // The rest of the name the line above starts ("HOME MASTER HARDWARE &" / "ELECTRICAL").
    const continuesAbove = names[rank - 1]?.words.some((w) => line.words.includes(w)) ?? false
    const nameLetters = letters(legal ?? text)
    const upper = (text.match(/\p{Lu}/gu) ?? []).length
    const own = texts[rank] as string
    const repeated = own.length >= 5 && texts.some((t, j) => j !== rank && t.includes(own)) ? 1 : 0
    const confidence = line.words.reduce((a, w) => a + w.confidence, 0) / line.words.length
    const height = line.bbox[3] - line.bbox[1]
    const values: Record<(typeof FEATURES)[number], number> = {
      bias: 1,
      legal_form: legal ? 1 : 0,
      header_pick: pick?.words.some((w) => line.words.includes(w)) ? 1 : 0,
      name_like: isNameLike(line) ? 1 : 0,
      rank_from_top: Math.min(rank / 10, 1),
      in_header: line.bbox[1] < 0.4 ? 1 : 0,
      in_footer: line.bbox[1] > 0.6 ? 1 : 0,
      taller: Math.max(-1, Math.min(1, Math.log2(height / medianHeight))),
      upper_case: upper / Math.max(1, letters(text)),
      letter_share: letters(text) / Math.max(1, text.replace(/\s/gu, '').length),
      has_digits: digits(legal ?? text) > 0 ? 1 : 0,
      address: ADDRESS.test(text) || POSTCODE.test(text) ? 1 : 0,
      contact: CONTACT.test(text) ? 1 : 0,
      amount_date_or_time: AMOUNT.test(text) || DATE_OR_TIME.test(text) ? 1 : 0,
      registration: REGISTRATION.test(text) && !legal ? 1 : 0,
      title_or_heading: isTitle(text) || isColumnHeading(text) ? 1 : 0,
      confidence,
      few_letters: nameLetters < 5 ? 1 : 0,
      repeated,
      one_word: (legal ?? text).trim().split(/\s+/u).length === 1 ? 1 : 0,
      first_legal: rank === firstLegal ? 1 : 0,
      // A company named under the document's title in the header is the customer, not the issuer.
      below_title: title >= 0 && rank > title && line.bbox[1] < 0.5 ? 1 : 0,
      // The halves of a name broken over two lines ("... (SETIA" / "ALAM) SDN BHD").
      opens_bracket: unclosed(text) > 0 ? 1 : 0,
      closes_bracket: unclosed(text) < 0 ? 1 : 0,
      continues_above: continuesAbove ? 1 : 0,
      // A company named in the upper half under the shop's address or registration lines is a party to the
      // sale (the customer, a supplier), not the shop; a name printed at the foot is not in the upper half.
      below_particulars: firstParticulars >= 0 && rank > firstParticulars && line.bbox[1] < 0.5 ? 1 : 0,
      ends_split_name: endsSplitName(line, lines[rank - 1]) ? 1 : 0,
    }
    return {
      line,
      previous: lines[rank - 1],
      next: lines[rank + 1],
      features: FEATURES.map((f) => values[f]),
    }
  })
}

/** A line's score under the learned weights (a logit: the "no line names the shop" choice scores 0). */
export const scoreOf = (features: number[], w: readonly number[] = weights.weights) =>
  features.reduce((a, x, i) => a + x * (w[i] ?? 0), 0)

/**
 * The probability of each line being the shop's name, beside the choice that none is (a logo alone carries the
 * name), whose score is 0: a softmax over the lines and that choice, which is how the weights were trained.
 */
export function lineProbabilities(scores: number[]): { lines: number[]; none: number } {
  const top = Math.max(0, ...scores)
  const exp = scores.map((s) => Math.exp(s - top))
  const none = Math.exp(-top)
  const sum = exp.reduce((a, b) => a + b, none)
  return { lines: exp.map((e) => e / sum), none: none / sum }
}

export interface ShopName {
  value: string
  words: Line['words']
  /** The learned probability that this line is the shop's name. */
  probability: number
  guessed: boolean
}

/** Brackets a line opens and does not close (positive), or closes without opening (negative). */
const unclosed = (text: string) => (text.match(/\(/gu) ?? []).length - (text.match(/\)/gu) ?? []).length

/**
 * The name a candidate line reads as: the part a legal form ends when it shares its line with an address; a line
 * that opens a bracket the next one closes goes on there ("... (SETIA" / "ALAM) SDN BHD").
 */
export function nameOfCandidate({
  line,
  previous,
  next,
}: Pick<ShopNameCandidate, 'line' | 'previous' | 'next'>) {
  if (previous && endsSplitName(line, previous)) return nameOnLine(joinedLines(previous, line), undefined)
  if (next && unclosed(line.text) > 0 && unclosed(next.text) < 0)
    return nameOnLine(joinedLines(line, next), undefined)
  const part = legalPart(line.text)
  return nameOnLine(part && part !== line.text ? partOf(line, part) : line, next)
}

/**
 * A street and its house number is the shop's address, never its name, whatever else the line shows (the learned
 * weights see SROIE's names, whose Malaysian addresses read as names do: "(TAMAN DAYA) SDN BHD"). A name sharing
 * its line with the address is the part its legal form ends ("Muster GmbH · Hauptstr. 5").
 */
const isStreetAndNumber = (text: string) => STREET_AND_NUMBER.test(legalPart(text) ?? text)

/**
 * The line the learned weights (`shop-name.weights.json`, trained by `scripts/train-receipt-models.ts`) rate most
 * likely to be the shop's name, its probability, and its margin over the next choice (another line, or "none").
 */
export function shopNameChoice(pages: PageText[]): {
  candidate: ShopNameCandidate | undefined
  probability: number
  margin: number
  none: number
} {
  const candidates = shopNameCandidates(pages).filter((c) => !isStreetAndNumber(c.line.text))
  const { lines, none } = lineProbabilities(candidates.map((c) => scoreOf(c.features)))
  const best = lines.indexOf(Math.max(...lines))
  const probability = lines[best] ?? 0
  const next = Math.max(none, ...lines.filter((_, i) => i !== best))
  return { candidate: candidates[best], probability, margin: probability - next, none }
}

/**
 * The shop's name as printed anywhere on a receipt: the line most likely to be the name (`shopNameChoice`), read
 * as a name. None when no line is more likely than "none of them" (a logo alone carries the name): a guess would
 * be worse than an empty field flagged missing.
 */
export function shopName(pages: PageText[]): ShopName | null {
  const { candidate, probability, none } = shopNameChoice(pages)
  if (!candidate || probability <= none) return null
  const name = nameOfCandidate(candidate)
  return name ? { value: name.value, words: name.words, probability, guessed: name.guessed } : null
}

const joinedLines = (first: Line, second: Line): Line => {
  const words = [...first.words, ...second.words]
  return { ...first, words, text: words.map((w) => w.text).join(' ') }
}

/** An address or a registration number: the shop's particulars (a web address above the name is a slogan). */
const isParticulars = (text: string) => ADDRESS.test(text) || POSTCODE.test(text) || REGISTRATION.test(text)

/** Words of three letters or more: a legal form's "CO." and "(M)" name nobody. */
const nameWords = (words: string[]) => words.filter((w) => letters(w) >= 3).length

/**
 * A line in capitals that holds a legal form with at most one word of a name before it ("CO. (M) SDN BHD",
 * "RESTAURANT SDN BHD") under a line in capitals that could be a name and holds no legal form, address or number
 * ("POPULAR BOOK"): one name printed over two lines, the legal form on the second.
 */
function endsSplitName(line: Line, previous: Line | undefined): boolean {
  if (!previous || line.bbox[1] - previous.bbox[3] > previous.bbox[3] - previous.bbox[1]) return false
  const words = line.text.split(/\s+/u)
  const span = trailingFormSpan(words)
  if (span === null || nameWords(words.slice(0, words.length - span)) > 1) return false
  const above = previous.text
  return (
    line.text === line.text.toUpperCase() &&
    above === above.toUpperCase() &&
    nameWords(above.split(/\s+/u)) >= 2 &&
    digits(above) === 0 &&
    legalPart(above) === null &&
    !isParticulars(above) &&
    !CONTACT.test(above) &&
    !isTitle(above)
  )
}

/** The words of a line that make up one part of its text. */
function partOf(line: Line, part: string): Line {
  const start = line.text.indexOf(part)
  const words = line.words.filter((_, i) => {
    const offset = line.offsets[i] as number
    return offset >= start && offset < start + part.length
  })
  return { ...line, words, text: words.map((w) => w.text).join(' ') }
}
