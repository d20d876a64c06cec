import type { PageText, PageWord } from '../page-text'
import { type Line, linesOf } from './layout'
import { correctedWord, withLostFirstLetter, wordCount } from './lexicon'
import { fold } from './values'

/**
 * Legal forms of companies (EN, DE, FR, NL and the common Commonwealth ones): a line ending in one names a
 * business. Multi-word forms first, so "Sdn Bhd" wins over "Bhd".
 */
const LEGAL_FORMS = [
  'sdn bhd',
  'pte ltd',
  'pty ltd',
  'co ltd',
  'gmbh & co kg',
  'bhd',
  's/b',
  'ltd',
  'limited',
  'llc',
  'llp',
  'plt',
  'inc',
  'corp',
  'plc',
  'gmbh',
  'ag',
  'kg',
  'ohg',
  'ug',
  'e.k.',
  'sarl',
  'sas',
  'sa',
  'bv',
  'b.v.',
  'nv',
  'n.v.',
  'vof',
]

/** Words of the lines under a shop's name that are not the name: addresses, contacts, registrations, titles. */
const ADDRESS =
  /\b(?:street|st|road|rd|avenue|ave|lane|floor|flr|lot|jalan|jln|taman|strasse|straße|str|platz|weg|rue|boulevard|bd|chemin|straat|laan|plein|postfach|bp)\b\.?/iu
const CONTACT = /\b(?:tel|telp|phone|fax|email|e-mail|mobile|hp|www|http)\b|@|\.com\b/iu
const REGISTRATION =
  /\b(?:gst|vat|tax\s*id|reg(?:istration)?|co\s*\.?\s*(?:reg|no)|company\s*no|ust|ust-?id|steuer|siret|siren|tva|kvk|btw|abn|acn|sst)\b/iu
const DOCUMENT_TITLE =
  /\b(?:invoice|receipt|bill|cash\s*sales?|credit\s*note|debit\s*note|quotation|order|rechnung|gutschrift|quittung|kassenbon|beleg|facture|avoir|ticket|re[cç]u|factuur|creditnota|kassabon|bon)\b/iu
/** Four to six digits on their own are a postcode, a house or phone number: names carry shorter numbers. */
const POSTCODE = /(?<![\p{L}\p{N}])\d{4,6}(?![\p{L}\p{N}])/u
/** An amount with decimals belongs to an item line. */
const AMOUNT = /\d[.,]\d{2}\b/u
/** Words of a table's column headings: a line with two of them heads the items. */
const COLUMN_HEADING =
  /(?<!\p{L})(?:qty|quantity|item|items|description|desc|price|amount|amt|total|menge|anzahl|artikel|preis|betrag|prix|montant|quantite|qte|aantal|prijs|bedrag|omschrijving)(?!\p{L})/giu
export const isColumnHeading = (text: string) => (fold(text).match(COLUMN_HEADING) ?? []).length >= 2
/** A time of day is printed with a sale, never in a name. */
const TIME = /(?<!\d)\d{1,2}:\d{2}(?!\d)/u
/** "Label: value" lines (cashier, date, table) are not the name. */
const LABELLED = /^[\p{L}][\p{L}\s.]{0,20}\s?[:#]/u

/** A title with fewer lines than this above it comes first: the issuer's name is printed below it. */
const TITLE_FIRST_LINES = 2
/** How far down the first page the header may reach. */
const HEADER_DEPTH = 0.4
/** Lines read worse than this are noise (logos, stamps, handwriting). */
const MIN_LINE_CONFIDENCE = 0.5
const MIN_LETTERS = 3

export interface HeaderName {
  value: string
  words: PageWord[]
  /** 0..1: how much this line is the name: a legal form, being first and being taller than the rest. */
  match: number
  /** It ends in a legal form: it names the company, where the lines above it may be a brand or a slogan. */
  legal: boolean
  /** A letter was added where none was read (`withLostFirstLetter`): a guess for a reviewer to confirm. */
  guessed: boolean
}

const letters = (text: string) => (text.match(/\p{L}/gu) ?? []).length
const digits = (text: string) => (text.match(/\p{N}/gu) ?? []).length
const meanConfidence = (words: PageWord[]) => words.reduce((a, w) => a + w.confidence, 0) / words.length
const height = (line: Line) => line.bbox[3] - line.bbox[1]

export function isNameLike(line: Line): boolean {
  const text = line.text
  if (meanConfidence(line.words) < MIN_LINE_CONFIDENCE) return false
  if (letters(text) < MIN_LETTERS || digits(text) > letters(text)) return false
  // Printed headers are capitals or title case; a line all in lower case is a handwritten note or a slogan.
  if (text === text.toLowerCase()) return false
  if (/^\(.*\)$/u.test(text.trim()) || CONTACT.test(text) || LABELLED.test(text) || isTitle(text))
    return false
  // A line ending in a legal form names a company, whatever place name it holds ("... (TAMAN DAYA) SDN BHD"); a
  // form read from digits ("57B" for "S/B") only where no address word is printed ("JALAN PJS 5/B" is a street).
  const name = stripMarks(text)
  const words = name.split(' ')
  const legal = trailingLegalForm(words)
  if (legal && (!legal.fromDigits || !ADDRESS.test(name))) return true
  return ![ADDRESS, POSTCODE, AMOUNT, TIME, REGISTRATION].some((re) => re.test(text))
}

const squashed = (text: string) => fold(text).replace(/[^\p{L}\p{N}&/]/gu, '')

/** Edit distance of two short strings, stopped early beyond `limit`. */
export function distance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      )
    previous = current
  }
  return previous[b.length] as number
}

/** Title words long enough to be recognised with one letter misread ("INVQICE"). */
const LONG_TITLE_WORDS = [
  'invoice',
  'receipt',
  'gutschrift',
  'creditnota',
  'quotation',
  'rechnung',
  'quittung',
  'kassenbon',
  'facture',
  'ticket',
  'factuur',
  'kassabon',
]

/**
 * A title word the words before it ran into, OCR having lost the spaces ("SIMPLIFIEDTAXINVOICE", PaddleOCR's
 * reading of "SIMPLIFIED TAX INVOICE"). Only the long title words, which no name ends in.
 */
const ranInto = (word: string, title: string) => word.length >= title.length + 3 && word.endsWith(title)

/**
 * A line naming the document ("TAX INVOICE", "Kassenbon"), as printed, with one letter of a long word misread
 * ("INVQICE"; a word of the language one letter away, "TICKETS", is that word) or run into the words before it.
 */
export function isTitle(text: string): boolean {
  if (DOCUMENT_TITLE.test(text)) return true
  return fold(text)
    .split(/[^\p{L}]+/u)
    .some(
      (word) =>
        word.length >= 6 &&
        wordCount(word) === 0 &&
        LONG_TITLE_WORDS.some((title) => distance(word, title, 1) === 1 || ranInto(word, title)),
    )
}

/** Digits that share a letter's shape, read for that letter in a form that is all letters ("5DN 8HD"). */
const LETTER_OF_DIGIT: Record<string, string> = { '0': 'o', '5': 's', '8': 'b', '6': 'g', '2': 'z' }

/**
 * A tail with digits read as the form they look like: each digit as its letter, and at most one other character
 * that is no letter misread ("57B": 5 for S, 7 for the slash) or one digit more beside its slash or dot ("57/B":
 * the slash read as "7/"). A letter that differs is another word: "5/F" is a floor, "5/A" a block, not "S/B". A
 * tail of digits alone is a number ("5/8").
 */
function readsAsFormWithDigits(tail: string, target: string): boolean {
  if (!/\p{L}/u.test(tail) || !/\p{N}/u.test(tail)) return false
  const read = [...tail].map((char) => LETTER_OF_DIGIT[char] ?? char)
  // The digit more stands beside the form's slash or dot, which it is a second reading of.
  const punctuation = (char: string | undefined) => char !== undefined && /[/.]/u.test(char)
  if (read.length === target.length + 1)
    return read.some(
      (char, i) =>
        /\p{N}/u.test(char) &&
        (punctuation(read[i - 1]) || punctuation(read[i + 1])) &&
        [...read.slice(0, i), ...read.slice(i + 1)].join('') === target,
    )
  if (read.length !== target.length) return false
  let misread = 0
  for (const [i, char] of read.entries()) {
    if (char === target[i]) continue
    if (/\p{L}/u.test(char) || ++misread > 1) return false
  }
  return true
}

/**
 * The legal form a line ends with, allowing one misread character in forms of three letters or more ("SDN 8HD"),
 * or digits read for the letters they look like (`readsAsFormWithDigits`: "57B" for "S/B"); returns how many words
 * it spans, its spelling as printed when read exactly, and whether digits read as letters made it a form.
 */
export function trailingLegalForm(
  words: string[],
): { span: number; exact: boolean; form: string; fromDigits: boolean } | null {
  for (const form of LEGAL_FORMS) {
    const span = form.split(' ').length
    if (words.length <= span) continue
    const tail = squashed(words.slice(-span).join(' '))
    const target = squashed(form)
    if (tail === target) return { span, exact: true, form, fromDigits: false }
    // Short forms only by a misread letter, never a lost one ("Eat In" is not "Inc" with its "c" lost), and never
    // where a word of the language is printed ("PIZZA INN", "CORNER INK").
    const comparable = target.length >= 5 || tail.length === target.length
    const printedWord = wordCount(words.at(-1) ?? '') > 0
    if (target.length < 3 || printedWord) continue
    // Made a form by its digits: fewer than three letters of it read as letters ("5/B", "57B"; not "SDN 8HD").
    const fromDigits = /\p{N}/u.test(tail) && letters(tail) < 3
    if (readsAsFormWithDigits(tail, target) || (comparable && distance(tail, target, 1) === 1))
      return { span, exact: false, form, fromDigits }
  }
  return null
}

/** Words of four letters or more: shorter ones ("TA", "HO", "CO", "SDN") are initials and codes as often as words. */
const LONG_WORD = /^\p{L}{4,}$/u
export const isLongWord = (word: string) => LONG_WORD.test(word)

/**
 * A word (letters only) a reader accepts as printed: a short one (initials, "&", "OF"), an English word in use or
 * a legal form ("GMBH", "LIMITED").
 */
export const isKnownWord = (word: string) =>
  !isLongWord(word) || wordCount(word) > 0 || LEGAL_FORMS.includes(word.toLowerCase())

/** A misread legal form is written as the form ("SDN 8HD" -> "SDN BHD"), in the case the line is printed in. */
function withLegalForm(words: string[]): string {
  const legal = trailingLegalForm(words)
  if (!legal || legal.exact) return words.join(' ')
  const upper = words.join(' ') === words.join(' ').toUpperCase()
  const form = upper ? legal.form.toUpperCase() : legal.form.replace(/\b\p{L}/gu, (c) => c.toUpperCase())
  return [...words.slice(0, -legal.span), form].join(' ')
}

/**
 * Words OCR misread by one or two character confusions written as the word ("STAT10NERY" -> "STATIONERY"), and a
 * first word that lost its first letter ("HREE" -> "THREE", `withLostFirstLetter`), punctuation around a word kept;
 * only on an English line, one whose other words are known words: a Dutch or
 * Malay word one confusion from an English one ("Boek", "book") is not a misread. A word that is already a word,
 * a number or a name the lexicon does not know stays as read.
 */
function withWordsCorrected(words: string[]): { words: string[]; guessed: boolean } {
  const cores = words.map((word) => word.match(/[\p{L}\p{N}]+/gu) ?? [])
  let guessed = false
  const corrected = words.map((word, i) => {
    const others = cores.flatMap((core, j) => (j === i ? [] : core))
    // A word without another long word on its line has no language to judge by: it stays as read.
    if (!others.some(isLongWord) || !others.every(isKnownWord)) return word
    return word.replace(/[\p{L}\p{N}]+/gu, (core) => {
      const confused = correctedWord(core)
      if (confused) return confused
      const lost = i === 0 && core === cores[0]?.[0] ? withLostFirstLetter(core) : null
      guessed ||= lost !== null
      return lost ?? core
    })
  })
  return { words: corrected, guessed }
}

/** Stray marks OCR reads around a header line ("- NAME", "NAME |") and a registration number after the name. */
const stripMarks = (text: string) =>
  text.replace(/\s*\([^()]*\d[^()]*\)\s*$/u, '').replace(/^[^\p{L}\p{N}(]+|[^\p{L}\p{N}).]+$/gu, '')

/** Short words read unsurely at either end of a line are specks and logo fragments, not part of the name. */
const UNSURE_WORD = 0.6
const isSpeck = (word: PageWord | undefined) =>
  word !== undefined &&
  word.confidence < UNSURE_WORD &&
  (word.text.length <= 3 || !/^\p{L}+$/u.test(word.text))
function trimUnsure(words: PageWord[]): PageWord[] {
  let start = 0
  let end = words.length
  while (start < end && isSpeck(words[start])) start++
  while (end > start && isSpeck(words[end - 1])) end--
  return words.slice(start, end)
}

/** A name broken over two lines: the first ends with "&", or the next starts with "&" or holds the legal form. */
function continues(line: Line, next: Line | undefined): boolean {
  if (!next || next.bbox[1] - line.bbox[3] > height(line)) return false
  if (trailingLegalForm(line.text.split(' '))) return false
  const alone = trailingLegalForm(['_', ...next.text.split(' ')])
  return (
    /&\s*$/u.test(line.text) ||
    /^[&(]/u.test(next.text) ||
    (alone !== null && alone.span === next.text.split(' ').length)
  )
}

/**
 * The name a document is issued under, read from its header when no label names it: among the lines of the top of
 * the first page that are not an address, a contact, a registration number, a document title or a label, the one
 * that ends in a legal form, else the first; taller lines (printed large) gain. Receipts and letterheads print the
 * issuer's name this way in every language.
 */
export function headerName(pages: PageText[]): HeaderName | null {
  const page = pages[0]
  if (!page) return null
  const top = linesOf(page)
    .filter((line) => line.bbox[1] < HEADER_DEPTH)
    .sort((a, b) => a.bbox[1] - b.bbox[1])
  // The items table ends the header: its column headings and the item lines under them name nobody.
  const table = top.findIndex((line) => isColumnHeading(line.text))
  const lines = table >= 0 ? top.slice(0, table) : top
  // The issuer prints its name above the document's title ("TAX INVOICE", "RECEIPT"); a company named below it is
  // the customer. When the title comes first, the name is below it; when lines above it were too faint to read,
  // what is below is no better a guess.
  const title = lines.findIndex((line) => isTitle(line.text))
  const nameLike = lines.filter(isNameLike)
  const aboveTitle = nameLike.filter((line) => title >= 0 && lines.indexOf(line) < title)
  const candidates = aboveTitle.length > 0 || title >= TITLE_FIRST_LINES ? aboveTitle : nameLike
  if (candidates.length === 0) return null
  const medianHeight = [...lines.map(height)].sort((a, b) => a - b)[Math.floor(lines.length / 2)] as number
  let best: HeaderName | null = null
  candidates.forEach((line, rank) => {
    const name = nameOnLine(line, lines[lines.indexOf(line) + 1])
    if (!name) return
    const prominence = height(line) > medianHeight * 1.3 ? 1 : 0.9
    const substance = letters(name.value) >= 6 ? 1 : 0.8
    const match = (name.legal ? 0.95 : 0.8) * prominence * substance * 0.92 ** rank
    // A company named by its legal form wins over lines without one; among alike lines the better match.
    if (best && (best.legal !== name.legal ? best.legal : best.match >= match)) return
    best = { ...name, match }
  })
  return best
}

/**
 * The name a line reads as: joined with the next line when the name goes on there (`continues`), specks at its
 * ends and marks around it dropped, a misread legal form and misread English words written as the words.
 */
export function nameOnLine(line: Line, next: Line | undefined): Omit<HeaderName, 'match'> | null {
  const joined = continues(line, next) ? [...line.words, ...(next as Line).words] : line.words
  const words = trimUnsure(joined)
  if (words.length === 0) return null
  // Marks and a registration number after the name go first: OCR that runs words together glues the number to
  // the legal form before it ("MART 57B(S19537-X)").
  const texts = stripMarks(words.map((w) => w.text).join(' ')).split(' ')
  const legal = trailingLegalForm(texts) !== null
  const corrected = withWordsCorrected(texts)
  const value = stripMarks(withLegalForm(corrected.words))
  return value ? { value, words, legal, guessed: corrected.guessed } : null
}
