import type { FieldValue } from '../../document-recognition.tables'
import type { Line } from '../layout'
import { fold, lettersAndDigits } from '../values'
import {
  ATTENTION,
  type CandidateKind,
  COMMON_TLD,
  datesIn,
  FORM_OF_ADDRESS,
  type PageContext,
  type ValueCandidate,
} from './candidates'
import { COURTESY_TITLE, LEGAL_FORM, PARTICLE, WORD_CLASSES, type WordClass } from './label-words'

/**
 * The features of a candidate value, each in 0..1: which word classes stand nearest left of it, anywhere left on
 * its line, right after it, over it (a header row or a label line above), on the line before; where it is on the
 * page; and what its kind says (an amount's magnitude and the sums it takes part in, a date's order, an
 * identifier's shape, a name's print). A new observation about invoices is added here as a feature; the weights
 * learn what it is worth.
 */
export type Features = Record<string, number>

const CONTEXTS = ['near', 'left', 'right', 'above', 'prev', 'column'] as const

/** The names of every feature of a kind, in a fixed order (the weights file lists them). */
export function featureNames(kind: CandidateKind): string[] {
  const labelled = CONTEXTS.flatMap((context) => WORD_CLASSES.map((c) => `${context}_${c}`))
  const common = [
    'none',
    'rules',
    'y',
    'top',
    'bottom',
    'right_edge',
    'first_page',
    'last_page',
    'large_print',
    'repeated',
  ]
  const own: Record<CandidateKind, string[]> = {
    money: [
      'cents',
      'negative',
      'zero',
      'largest',
      'largest_labelled',
      'magnitude_rank',
      'sum_of_two',
      'part_of_sum',
      'column_sum',
      'items_sum',
      'before_discount',
      'bare_figure',
      'tax_of_other',
      'items_row',
      'printed_twice',
      'after_prepaid',
      'tax_inside',
      'untaxed_sum',
    ],
    date: ['earliest', 'latest', 'alone_on_line', 'after_comma', 'line_has_code', 'same_as_other'],
    code: [
      'has_letter',
      'has_separator',
      'digits',
      'short',
      'year_like',
      'long_digits',
      'line_has_date',
      'title_line',
      'zero_padded',
      'glued_marker',
      'first_marked',
      'order_unrivalled',
      'spaced_groups',
    ],
    name: [
      'legal_form',
      'word_count',
      'has_digit',
      'early_line',
      'after_small_line',
      'over_larger_line',
      'repeated_text',
      'upper',
      'after_colon',
      'web_address',
      'domain_match',
      'mentions',
      'contact_mention',
      'address_below',
      'largest_print',
      'holds_label',
      'person_like',
      'person_below',
      'x_left',
      'first_address_block',
      'later_address_block',
      'town',
      'register_line',
      'domain_word',
      'attention_below',
      'after_attention',
      'page_head',
      'company_above',
      'table_cell',
      'street',
    ],
  }
  return [...common, ...labelled, ...own[kind]]
}

/** Facts about the whole document a candidate's features compare with. */
export interface DocumentFacts {
  all: ValueCandidate[]
  /** The value the general rules chose for this field (a feature like any other). */
  rulesValue: FieldValue
  /** The rules' own confidence in that value (at or above the review threshold, the rules were sure). */
  rulesConfidence: number
  pageCount: number
  /** Every page, for what is printed beyond the candidates (a name's other mentions, web addresses). */
  contexts: PageContext[]
}

const sameText = (a: FieldValue, b: FieldValue) =>
  a !== null &&
  b !== null &&
  (typeof a === 'number' && typeof b === 'number'
    ? Math.abs(a - b) < 0.005
    : lettersAndDigits(String(a)) === lettersAndDigits(String(b)))

export { sameText as sameValue }

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

function labelFeatures(features: Features, candidate: ValueCandidate) {
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
  const cell = cellLabel(context, candidate)
  if (cell) for (const i of cell.words) setClasses(features, 'above', context.classes[cell.index]?.[i] ?? [])
  for (const own of context.classes[lineIndex - 1] ?? []) setClasses(features, 'prev', own)
  const header = columnHeader(context, candidate)
  if (header)
    header.words.forEach((i) => {
      setClasses(features, 'column', context.classes[header.index]?.[i] ?? [])
    })
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
    if (over.some((k) => /\p{L}{2,}/u.test(line.words[k]?.text ?? ''))) return { index: i, words: over }
    bottom = line.bbox[1]
  }
  return null
}

function commonFeatures(features: Features, candidate: ValueCandidate, facts: DocumentFacts) {
  const { context, bbox } = candidate
  features.rules = sameText(candidate.value, facts.rulesValue) ? 1 : 0
  features.rules_confident = features.rules && facts.rulesConfidence >= 0.8 ? 1 : 0
  features.y = bbox[1]
  features.top = bbox[1] < 0.3 ? 1 : 0
  features.bottom = bbox[1] > 0.7 ? 1 : 0
  features.right_edge = bbox[2]
  features.first_page = context.index === 0 ? 1 : 0
  features.last_page = context.index === facts.pageCount - 1 ? 1 : 0
  features.large_print = (bbox[3] - bbox[1]) / context.medianHeight > 1.15 ? 1 : 0
  const copies = facts.all.filter((c) => c !== candidate && sameText(c.value, candidate.value)).length
  features.repeated = Math.min(1, copies / 3)
}

const TAX_RATES = [
  0.025, 0.04, 0.05, 0.055, 0.06, 0.07, 0.08, 0.081, 0.09, 0.1, 0.12, 0.13, 0.16, 0.19, 0.2, 0.21, 0.22, 0.25,
]
const near = (a: number, b: number) => Math.abs(a - b) < 0.015
/** A tax computed per line and summed can be a few cents off the rate applied to the sum. */
const nearTax = (computed: number, printed: number) =>
  Math.abs(computed - printed) < Math.max(0.015, Math.abs(computed) * 0.002)
/** Is `tax` the tax at a usual rate on `base`? */
const isTaxOn = (base: number, tax: number) => TAX_RATES.some((rate) => nearTax(base * rate, tax))
/** Is `tax` the tax a gross amount `gross` includes at a usual rate? */
const isTaxIn = (gross: number, tax: number) =>
  TAX_RATES.some((rate) => nearTax((gross * rate) / (1 + rate), tax))
const toCents = (value: number) => Math.round(value * 100)

const TAX_LABELS = /^(?:near|left|above)_tax$/
/** Labelled as a tax (VAT, MwSt., TVA ...) on its line or over it. */
function labelledTax(candidate: ValueCandidate): boolean {
  const features: Features = {}
  labelFeatures(features, candidate)
  return Object.keys(features).some((name) => TAX_LABELS.test(name))
}

const SUM_LABELS = /^(?:near|above)_(?:total|amount|payable)$/
const labelledSums = new WeakMap<ValueCandidate, boolean>()
/** Labelled as a sum (total, amount, payable) left of it or over it. */
function labelledSum(candidate: ValueCandidate): boolean {
  let labelled = labelledSums.get(candidate)
  if (labelled === undefined) {
    const features: Features = {}
    labelFeatures(features, candidate)
    labelled = Object.keys(features).some((name) => SUM_LABELS.test(name))
    labelledSums.set(candidate, labelled)
  }
  return labelled
}

function moneyFeatures(features: Features, candidate: ValueCandidate, facts: DocumentFacts) {
  const value = candidate.value as number
  const abs = Math.abs(value)
  const text = candidate.words.map((w) => w.text).join(' ')
  features.cents = /[.,]\d{2}\b/.test(text) ? 1 : 0
  features.negative = value < 0 ? 1 : 0
  features.zero = value === 0 ? 1 : 0
  const amounts = [...new Set(facts.all.map((c) => Math.abs(c.value as number)))].sort((a, b) => b - a)
  features.largest = abs === amounts[0] ? 1 : 0
  const labelled = facts.all.filter(labelledSum).map((c) => Math.abs(c.value as number))
  features.largest_labelled = labelledSum(candidate) && abs >= Math.max(...labelled) ? 1 : 0
  features.magnitude_rank = 1 / (1 + amounts.indexOf(abs))
  const others = facts.all.filter((c) => c !== candidate).map((c) => c.value as number)
  const cents = new Set(others.filter((v) => v !== 0).map(toCents))
  const own = toCents(value)
  const smaller = [...cents].filter((v) => Math.abs(v) <= Math.abs(own))
  const larger = [...cents].filter((v) => Math.abs(v) > Math.abs(own))
  const sumOfTwo = smaller.some(
    (a) => a !== own - a && cents.has(own - a) && Math.abs(a) >= Math.abs(own - a),
  )
    ? 1
    : 0
  const partOfSum = larger.some((total) => cents.has(total - own)) ? 1 : 0
  const taxOfOther = larger.some((base) => isTaxOn(base / 100, value)) ? 1 : 0
  features.sum_of_two = sumOfTwo
  features.part_of_sum = partOfSum
  const columnSum = sumOfColumnAbove(candidate, facts)
  features.column_sum = columnSum === 'labelled' ? 1 : 0
  features.items_sum = columnSum === 'items' ? 1 : 0
  // A sum before a discount: less an amount a discount's word labels, it is another amount printed ("Total
  // ilíquido 2.050,00", "Desconto (5%) 102,50", "Total sem IVA 1.947,50").
  const { discounts } = amountsOf(facts)
  const left = (d: ValueCandidate) => Math.abs(own) - Math.abs(toCents(d.value as number))
  features.before_discount = discounts.some(
    (d) => d !== candidate && d.value !== 0 && (cents.has(left(d)) || cents.has(-left(d))),
  )
    ? 1
    : 0
  features.tax_of_other = value !== 0 ? taxOfOther : 0
  const line = candidate.context.lines[candidate.lineIndex] as Line
  const onLine = facts.all.filter(
    (c) => c.context === candidate.context && c.lineIndex === candidate.lineIndex,
  )
  features.items_row = onLine.length >= 3 || /^\s*\d{1,3}\s/.test(line.text) ? 1 : 0
  // A figure without its currency beside one with it on its line: another currency's column, or a figure for
  // reference ("28,238.11 € 30,214.78"); the marked one is the charged sum.
  features.bare_figure =
    !withCurrency(candidate) && onLine.some((c) => c !== candidate && withCurrency(c)) ? 1 : 0
  features.printed_twice = others.filter((v) => near(v, value)).length > 0 ? 1 : 0
  const prepaidAbove = facts.all.some(
    (c) =>
      c.context === candidate.context &&
      c.lineIndex < candidate.lineIndex &&
      c.context.classes[c.lineIndex]?.some((w) => w.has('prepaid')),
  )
  features.after_prepaid = prepaidAbove ? 1 : 0
  // A gross amount: another amount printed is the tax it holds (the total of "incl. 19 % MwSt. 190,00").
  features.tax_inside = value !== 0 && others.some((t) => t !== 0 && isTaxIn(value, t)) ? 1 : 0
  // The largest labelled sum of a document where no amount is a tax on another or inside another: an invoice
  // without tax, whose net is its total.
  features.untaxed_sum = features.largest_labelled && !documentTaxed(facts) ? 1 : 0
}

/** A currency's sign or code, a word of its own or glued to the figure ("€", "EUR", "$4.11", "1 250 kr"). */
const CURRENCY_MARK =
  /(?:^|\d)(?:[€$£¥₹]|eur|usd|gbp|chf|pln|czk|dkk|sek|nok|huf|ron|bgn|cad|aud|nzd|jpy|inr|sgd|hkd|zar|kr\.?|zł|kč|ft|lei)$|^(?:[€$£¥₹]|[a-z]{0,2}\$)/iu

const FIGURE = /\d[.,']?\d*$/

/**
 * Is the amount printed with its currency: a sign or code on its figure or right after it, or right before it
 * unless that sign ends the figure before ("28,238.11 € 30,214.78": the sign is the first figure's, though the
 * second's reading starts with it)?
 */
function withCurrency(candidate: ValueCandidate): boolean {
  const words = candidate.context.lines[candidate.lineIndex]?.words ?? []
  const text = (i: number) => words[i]?.text ?? ''
  const leading = CURRENCY_MARK.test(text(candidate.wordStart))
    ? candidate.wordStart
    : candidate.wordStart - 1
  const after = [candidate.wordEnd, candidate.wordEnd + 1]
  return (
    after.some((i) => i > leading && CURRENCY_MARK.test(text(i))) ||
    (CURRENCY_MARK.test(text(leading)) && !FIGURE.test(text(leading - 1)))
  )
}

const documentAmounts = new WeakMap<
  ValueCandidate[],
  { discounts: ValueCandidate[]; upwards: ValueCandidate[] }
>()
/** A document's amounts a discount word labels, and all its amounts from the page's foot up: once per document. */
function amountsOf(facts: DocumentFacts) {
  let amounts = documentAmounts.get(facts.all)
  if (!amounts) {
    amounts = {
      discounts: facts.all.filter((c) => c.context.classes[c.lineIndex]?.some((w) => w.has('discount'))),
      upwards: [...facts.all].sort((a, b) => b.lineIndex - a.lineIndex),
    }
    documentAmounts.set(facts.all, amounts)
  }
  return amounts
}

/** How far apart two figures' right (or left) edges may be and stand in one column (a share of the page). */
const SAME_COLUMN = 0.012

/**
 * Is the amount the sum of the two or more amounts nearest over it in its column (right or left edges aligned), and
 * of which: of lines a label word names (a tax grid's rates, a tax's rates, a net and a tax: `labelled`), or of
 * lines naming nothing (the items: `items`)? A run of one kind ends at a line of the other. null when neither.
 */
function sumOfColumnAbove(candidate: ValueCandidate, facts: DocumentFacts): 'labelled' | 'items' | null {
  const above = amountsOf(facts).upwards.filter(
    (c) =>
      c.context === candidate.context &&
      c.lineIndex < candidate.lineIndex &&
      (Math.abs(c.bbox[2] - candidate.bbox[2]) < SAME_COLUMN ||
        Math.abs(c.bbox[0] - candidate.bbox[0]) < SAME_COLUMN),
  )
  const own = toCents(candidate.value as number)
  const labelled = (c: ValueCandidate) =>
    c.context.classes[c.lineIndex]?.some((word) => word.size > 0) ?? false
  const kind = above[0] && labelled(above[0])
  let sum = 0
  let line = -1
  let terms = 0
  for (const amount of above) {
    // One figure per line: the column's.
    if (amount.lineIndex === line) continue
    line = amount.lineIndex
    if (labelled(amount) !== kind) return null
    sum += toCents(amount.value as number)
    terms++
    if (terms >= 2 && sum === own) return kind ? 'labelled' : 'items'
  }
  return null
}

const taxedDocuments = new WeakMap<ValueCandidate[], boolean>()
/**
 * Does the document charge tax: an amount labelled as a tax (left of it or over it) that is the tax on another
 * amount or held inside one? Both, since among a page's many amounts some pair matches a rate by chance.
 */
function documentTaxed(facts: DocumentFacts): boolean {
  let taxed = taxedDocuments.get(facts.all)
  if (taxed === undefined) {
    const amounts = [...new Set(facts.all.map((c) => Math.abs(c.value as number)).filter((v) => v > 0))]
    taxed = facts.all.some((candidate) => {
      const tax = Math.abs(candidate.value as number)
      if (tax === 0 || !labelledTax(candidate)) return false
      return amounts.some((base) => base > tax && (isTaxOn(base, tax) || isTaxIn(base, tax)))
    })
    taxedDocuments.set(facts.all, taxed)
  }
  return taxed
}

function dateFeatures(features: Features, candidate: ValueCandidate, facts: DocumentFacts) {
  const values = facts.all.map((c) => String(c.value)).sort()
  const value = String(candidate.value)
  features.earliest = value === values[0] ? 1 : 0
  features.latest = value === values[values.length - 1] ? 1 : 0
  const line = candidate.context.lines[candidate.lineIndex] as Line
  const before = line.words.slice(0, candidate.wordStart)
  features.alone_on_line =
    line.words.length - candidate.words.length <= 1 &&
    before.every((w) => /,$/.test(w.text) || /^\p{L}+,?$/u.test(w.text))
      ? 1
      : 0
  // After "Town," and a date's joining word or not ("Fieberbrunn, am 31. Jänner 2025", "Lyon, le 7 mars 2025").
  const classes = candidate.context.classes[candidate.lineIndex] ?? []
  const comma = (i: number) => /,$/.test(line.words[i]?.text ?? '')
  const joined = classes[candidate.wordStart - 1]?.has('dated') && comma(candidate.wordStart - 2)
  features.after_comma = comma(candidate.wordStart - 1) || joined ? 1 : 0
  features.line_has_code = line.words.some(
    (w, i) =>
      (i < candidate.wordStart || i > candidate.wordEnd) &&
      /\d/.test(w.text) &&
      /[A-Za-z/-]/.test(w.text) &&
      !/^\d{1,2}[./-]/.test(w.text),
  )
    ? 1
    : 0
  features.same_as_other = facts.all.some((c) => c !== candidate && c.value === candidate.value) ? 1 : 0
}

/** A number marker printed onto the identifier itself ("n°562044387", "Nr.17", "#1042"). */
const GLUED_MARKER = /^(?:[#№]|n\.?[°º*]|n\.(?=\d|[a-z]{2})|(?:no|nr|num)[.:*])/i

/** Labelled as an identifier (a marker, a number label or a title word) left of it or over it. */
function markedCode(candidate: ValueCandidate): boolean {
  const features: Features = {}
  labelFeatures(features, candidate)
  return (
    GLUED_MARKER.test(candidate.words[0]?.text ?? '') ||
    Object.keys(features).some((name) => /^(?:near|above)_(?:marker|number|title)$/.test(name))
  )
}

const firstMarked = new WeakMap<ValueCandidate[], ValueCandidate | null>()
/** The document's first identifier, in reading order, that a marker or label names. */
function firstMarkedCode(facts: DocumentFacts): ValueCandidate | null {
  let first = firstMarked.get(facts.all)
  if (first === undefined) {
    first = facts.all.find(markedCode) ?? null
    firstMarked.set(facts.all, first)
  }
  return first
}

function codeFeatures(features: Features, candidate: ValueCandidate, facts: DocumentFacts) {
  const code = String(candidate.value)
  const digits = code.replace(/\D/g, '')
  features.has_letter = /\p{L}/u.test(code) ? 1 : 0
  features.has_separator = /[/-]/.test(code) ? 1 : 0
  features.digits = Math.min(1, digits.length / 12)
  features.short = code.length <= 3 ? 1 : 0
  features.year_like = /^(?:19|20)\d{2}$/.test(code) ? 1 : 0
  features.long_digits = digits.length >= 11 ? 1 : 0
  const line = candidate.context.lines[candidate.lineIndex] as Line
  features.line_has_date = line.words.some(
    (w, i) => i !== candidate.wordStart && /\d{1,4}[./-]\d{1,2}[./-]\d{2,4}/.test(w.text),
  )
    ? 1
    : 0
  features.title_line = candidate.context.classes[candidate.lineIndex]?.[0]?.has('title') ? 1 : 0
  features.zero_padded = /(?:^|\D)0\d/.test(code) ? 1 : 0
  features.glued_marker = GLUED_MARKER.test(candidate.words[0]?.text ?? '') ? 1 : 0
  features.first_marked = firstMarkedCode(facts) === candidate ? 1 : 0
  // An order's or booking's identifier on a document where no label names an invoice number: the document's own.
  features.order_unrivalled =
    namedAs(candidate, /^(?:near|above)_(?:order|booking)$/) && !numberNamed(facts) ? 1 : 0
  features.spaced_groups = code.includes(' ') ? 1 : 0
}

/** Is the candidate named by a label whose feature name matches `pattern`? */
function namedAs(candidate: ValueCandidate, pattern: RegExp): boolean {
  const features: Features = {}
  labelFeatures(features, candidate)
  return Object.keys(features).some((name) => pattern.test(name))
}

const numberNamedDocuments = new WeakMap<ValueCandidate[], boolean>()
/** Does a label name an invoice's number ("Rechnungsnummer", "Invoice No.", "Facture n°" on the title line)? */
function numberNamed(facts: DocumentFacts): boolean {
  let named = numberNamedDocuments.get(facts.all)
  if (named === undefined) {
    named = facts.all.some(
      (c) =>
        namedAs(c, /^(?:near|above)_number$/) ||
        (c.context.classes[c.lineIndex]?.[0]?.has('title') === true &&
          (GLUED_MARKER.test(c.words[0]?.text ?? '') || namedAs(c, /^near_marker$/))),
    )
    numberNamedDocuments.set(facts.all, named)
  }
  return named
}

const LEGAL_FORMS = new RegExp(LEGAL_FORM.source, 'giu')
/** A name's distinctive letters: folded, without its legal form and punctuation ("Coolblue B.V." is "coolblue"). */
const coreOf = (name: string) => fold(` ${name}`.replace(LEGAL_FORMS, ' ')).replace(/[^\p{L}\p{N}]/gu, '')

const WEB_ADDRESS = new RegExp(String.raw`@|\bwww\.|https?:|\b[\p{L}\d-]+\.(?:${COMMON_TLD})\b`, 'iu')
/** A web or e-mail host: after "@", "www." or "http(s)://" whatever its top-level domain, else with a common one. */
const HOSTS = new RegExp(
  String.raw`(?:@|\bwww\.|https?:\/\/)((?:[\p{L}\d-]+\.)+\p{L}{2,24})\b|[/.]?((?:[\p{L}\d-]+\.)+(?:${COMMON_TLD}))\b`,
  'giu',
)

interface PrintedLine {
  context: PageContext
  index: number
  /** Letters and digits only, folded. */
  plain: string
  /** The line, the one above or the one below holds a contact word (IBAN, VAT id, phone, web) or an account holder's. */
  nearContact: boolean
  /** The line names a company's register entry, share capital or managing director: the issuer's legal line. */
  register: boolean
}
interface PrintedText {
  lines: PrintedLine[]
  /** The web and e-mail domains printed, without "www." and the top-level part ("azure-interior.com" is "azureinterior"). */
  domains: string[]
}

const printedTexts = new WeakMap<PageContext[], PrintedText>()
function printedText(contexts: PageContext[]): PrintedText {
  let printed = printedTexts.get(contexts)
  if (printed) return printed
  const lines: PrintedLine[] = []
  const domains = new Set<string>()
  for (const context of contexts) {
    const contact = context.classes.map((words) => words.some((w) => w.has('contact') || w.has('payee')))
    context.lines.forEach((line, index) => {
      lines.push({
        context,
        index,
        plain: lettersAndDigits(line.text),
        nearContact: Boolean(contact[index - 1] || contact[index] || contact[index + 1]),
        register: REGISTER_WORDS.test(fold(line.text)),
      })
      for (const m of line.text.matchAll(HOSTS)) {
        const host = fold((m[1] ?? m[2]) as string).replace(/^www\./, '')
        const labels = host.split('.')
        const plain = labels
          .slice(0, Math.max(1, labels.length - 1))
          .join('')
          .replace(/[^\p{L}\p{N}]/gu, '')
        if (plain.length >= 3) domains.add(plain)
      }
    })
  }
  printed = { lines, domains: [...domains] }
  printedTexts.set(contexts, printed)
  return printed
}

/**
 * Words of a legal line that only the issuer prints about itself: its register court and entry, share capital,
 * managing board ("Amtsgericht Köln HRB 98765", "au capital de 10 000 €", "Registered in England and Wales").
 */
const REGISTER_WORDS =
  /\b(?:hrb|hra|amtsgericht|registergericht|handelsregister|geschaftsfuhrer(?:in)?|geschaftsfuhrung|vorstand|rcs|capital|kvk|registered|regd|registro|register|rea|cin|inscrita|statutair|cap\.? soc)\b/

/** How much of a name and a web domain are one word: the shorter's share of the longer, when one holds the other. */
function domainOverlap(core: string, domains: string[]): number {
  let best = 0
  for (const domain of domains)
    if (core.includes(domain) || domain.includes(core))
      best = Math.max(best, Math.min(core.length, domain.length) / Math.max(core.length, domain.length))
  return best
}

/** A town and its state or country code after a comma, as American addresses print it ("Westlake Village, CA", "N.Y."). */
const TOWN_AND_REGION = /\p{L}{3,},\s*[A-Z]\.?[A-Z]\.?(?:\s+\d{5}(?:-\d{4})?)?(?![\p{L}\p{N}])/u
const POSTCODE_OR_STREET =
  /\b\d{4,5}\b|\b[A-Z]{1,2}\d{1,2}[A-Z]?\s*\d[A-Z]{2}\b|\b\d{4}\s?[A-Z]{2}\b|\p{L}{3,}\.?\s+\d{1,4}[a-zA-Z]?\b|^\d{1,4}[a-zA-Z]?,?\s+\p{L}{3,}/u
/** A text with its dates blanked ("Date of issue March 4, 2024" holds no street number). */
function withoutDates(text: string): string {
  let plain = text
  for (const date of datesIn(text))
    plain = plain.slice(0, date.start) + ' '.repeat(date.end - date.start) + plain.slice(date.end)
  return plain
}

/** Lines of an address (a street with its number, a postcode, a town and its state) right under the name, aligned. */
function addressBelow(candidate: ValueCandidate): boolean {
  const { context, lineIndex, bbox } = candidate
  const height = bbox[3] - bbox[1]
  let bottom = bbox[3]
  // Three lines of the name's block (a department's and an attention line may come before the street); lines of
  // another column beside it do not count.
  let blockLines = 0
  for (let i = lineIndex + 1; i < context.lines.length && blockLines < 3; i++) {
    const line = context.lines[i] as Line
    if (line.bbox[1] - bottom > height * 2.5) return false
    const aligned = line.words.filter(
      (w) => Math.abs(w.bbox[0] - bbox[0]) < 0.03 || (w.bbox[0] > bbox[0] - 0.01 && w.bbox[0] < bbox[2]),
    )
    if (aligned.length === 0) continue
    blockLines++
    const first = line.words.indexOf(aligned[0] as (typeof line.words)[number])
    const block = line.words.slice(first, first + 6).filter((w) => w.bbox[0] < bbox[0] + 0.3)
    const text = withoutDates(block.map((w) => w.text).join(' '))
    if (POSTCODE_OR_STREET.test(text) || TOWN_AND_REGION.test(text)) return true
    bottom = line.bbox[3]
  }
  return false
}

/** Where the candidate's column is: its line's words either side of it up to a wide gap (its label's, if any). */
function columnOf(candidate: ValueCandidate): [number, number] {
  const words = candidate.context.lines[candidate.lineIndex]?.words ?? []
  const gap = (candidate.bbox[3] - candidate.bbox[1]) * 3
  let i = candidate.wordStart
  while (i > 0 && (words[i]?.bbox[0] ?? 0) - (words[i - 1]?.bbox[2] ?? 0) <= gap) i--
  let j = candidate.wordEnd
  while (j < words.length - 1 && (words[j + 1]?.bbox[0] ?? 0) - (words[j]?.bbox[2] ?? 0) <= gap) j++
  return [words[i]?.bbox[0] ?? candidate.bbox[0], words[j]?.bbox[2] ?? candidate.bbox[2]]
}

/** A line's runs of words without a wide gap (the columns sharing the line), as word index ranges. */
function runsOf(line: Line, gap: number): [number, number][] {
  const runs: [number, number][] = []
  line.words.forEach((word, i) => {
    const last = runs[runs.length - 1]
    if (last && word.bbox[0] - (line.words[i - 1]?.bbox[2] ?? 0) <= gap) last[1] = i
    else runs.push([i, i])
  })
  return runs
}

/** A telephone number printed without its label ("(604) 555-0199", "+1 403 555 0101"). */
const PHONE_NUMBER = /(?:^|\s)(?:\+\d{1,3}\s?)?\(?\d{3}\)?[\s.-]\d{3}[\s.-]\d{4}(?=$|\s)/

/**
 * The name's block: the run of words holding it, and the runs right above and below that overlap its column (not
 * another column sharing those lines, as an address block beside a letterhead does); the column as `columnOf` gives it.
 */
function blockOf(
  candidate: ValueCandidate,
  [from, to]: [number, number],
): { words: string[]; classes: Set<WordClass>[] } {
  const { context, lineIndex } = candidate
  const gap = (candidate.bbox[3] - candidate.bbox[1]) * 3
  const block = { words: [] as string[], classes: [] as Set<WordClass>[] }
  const height = candidate.bbox[3] - candidate.bbox[1]
  const own = context.lines[lineIndex] as Line
  for (let i = lineIndex - 1; i <= lineIndex + 1; i++) {
    const line = context.lines[i]
    // A line of the block is close over or under the name's (not a letterhead far above an address window).
    const apart = line && Math.max(line.bbox[1] - own.bbox[3], own.bbox[1] - line.bbox[3])
    if (!line || (apart ?? 0) > height * 1.5) continue
    for (const [first, last] of runsOf(line, gap)) {
      const words = line.words.slice(first, last + 1)
      const [x0, x1] = [words[0]?.bbox[0] ?? 0, words[words.length - 1]?.bbox[2] ?? 0]
      if (x1 <= from || x0 >= to) continue
      block.words.push(...words.map((w) => w.text))
      block.classes.push(...(context.classes[i]?.slice(first, last + 1) ?? []))
    }
  }
  return block
}

/** Where a line prints between `from` and `to` across the page, top and bottom; null if it prints nothing there. */
function printBetween(line: Line, from: number, to: number): [number, number] | null {
  const words = line.words.filter((w) => w.bbox[0] < to && w.bbox[2] > from)
  if (words.length === 0) return null
  return [Math.min(...words.map((w) => w.bbox[1])), Math.max(...words.map((w) => w.bbox[3]))]
}
const printHeight = ([top, bottom]: [number, number]) => bottom - top
/**
 * `upper` in print smaller than `lower`'s, close over it: each measured in the name's column, not across the line
 * (a title in large print beside an address line is another column's).
 */
const smallPrintOver = (upper: [number, number] | null, lower: [number, number] | null) =>
  upper !== null &&
  lower !== null &&
  printHeight(upper) < printHeight(lower) * 0.8 &&
  lower[0] - upper[1] < printHeight(lower)

function nameFeatures(features: Features, candidate: ValueCandidate, facts: DocumentFacts) {
  const name = String(candidate.value)
  const { context, lineIndex } = candidate
  features.legal_form = LEGAL_FORM.test(` ${name}`) ? 1 : 0
  features.word_count = Math.min(1, name.split(/\s+/).length / 6)
  features.has_digit = /\d/.test(name) ? 1 : 0
  features.early_line = context.index === 0 && lineIndex <= 1 ? 1 : 0
  // In the first page's top tenth, where a letterhead is (an address window is lower).
  features.page_head = context.index === 0 && candidate.bbox[1] < 0.1 ? 1 : 0
  // The line over the name, past a speck of scan noise read as a line of its own ("—").
  let over = lineIndex - 1
  while (over > 0 && !/[\p{L}\d]/u.test(context.lines[over]?.text ?? '')) over--
  const previous = context.lines[over]
  const line = context.lines[lineIndex] as Line
  // Small print right over the name's column, as a window envelope's sender line is over the buyer's (not small
  // print elsewhere across the page).
  const column = columnOf(candidate)
  const [from] = column
  const inColumn = (l: Line) => printBetween(l, from, candidate.bbox[2])
  const own: [number, number] = [candidate.bbox[1], candidate.bbox[3]]
  features.after_small_line =
    previous &&
    // (a table's header row over its first item or its values is no sender line)
    !context.classes[over]?.some((c) => c.has('item')) &&
    !headsTable(context, over) &&
    smallPrintOver(inColumn(previous), own)
      ? 1
      : 0
  // ... and the small print itself, right over a larger line in its column: a window envelope's sender line, a copy
  // mark over a letterhead.
  const next = context.lines[lineIndex + 1]
  features.over_larger_line = next && smallPrintOver(own, inColumn(next)) ? 1 : 0
  const plain = fold(name)
  features.repeated_text =
    facts.all.some(
      (c) => c.lineIndex !== lineIndex && c.context === context && fold(String(c.value)).includes(plain),
    ) || facts.all.some((c) => c.context !== context && fold(String(c.value)).includes(plain))
      ? 1
      : 0
  features.upper = name === name.toUpperCase() ? 1 : 0
  const before = line.text.slice(0, line.offsets[candidate.wordStart] ?? 0)
  features.after_colon = /:\s*$/.test(before) ? 1 : 0
  features.web_address = WEB_ADDRESS.test(name) ? 1 : 0
  // The seller's name is often printed again where the seller is: its web or e-mail domain, its bank details'
  // holder, its legal and registration lines; a buyer's rarely.
  const core = coreOf(name)
  const printed = printedText(facts.contexts)
  features.domain_match = core.length >= 3 ? domainOverlap(core, printed.domains) : 0
  const mentions =
    core.length >= 4
      ? printed.lines.filter(
          (l) => l.plain.includes(core) && !(l.context === context && l.index === lineIndex),
        )
      : []
  features.mentions = Math.min(1, new Set(mentions.map((l) => l.plain)).size / 3)
  const block = blockOf(candidate, column)
  const contactInBlock =
    block.classes.some((c) => c.has('contact') || c.has('payee')) || PHONE_NUMBER.test(block.words.join(' '))
  features.contact_mention = contactInBlock || mentions.some((l) => l.nearContact) ? 1 : 0
  features.register_line =
    REGISTER_WORDS.test(fold(block.words.join(' '))) || mentions.some((l) => l.register) ? 1 : 0
  // A domain spelt from the name's first word ("sonnberg-mt.de" for "Sonnberg Medientechnik GmbH").
  const firstWord = coreOf(name.split(/\s+/)[0] ?? '')
  features.domain_word =
    firstWord.length >= 4 && printed.domains.some((domain) => domain.startsWith(firstWord)) ? 1 : 0
  features.address_below = addressBelow(candidate) ? 1 : 0
  const heightOf = (c: ValueCandidate) => c.bbox[3] - c.bbox[1]
  const tallest = Math.max(...facts.all.filter((c) => c.context === context).map(heightOf))
  features.largest_print = heightOf(candidate) >= tallest * 0.95 ? 1 : 0
}

/**
 * Printed as a person's name: two to four words of letters, each capitalised or a particle ("de Lattre Alexis",
 * "Anushrut Singh"), no legal form, no label word.
 */
function personLike(text: string, classes: Set<WordClass>[]): boolean {
  // A courtesy title before a full name is no word of it ("De heer Joris van der Wal").
  const trimmed = text.trim()
  const title = COURTESY_TITLE.exec(trimmed)?.[0] ?? ''
  const bare = trimmed.slice(title.length).split(/\s+/)
  const titleWords = title && bare.length >= 2 ? title.trim().split(/\s+/).length : 0
  const words = titleWords ? bare : trimmed.split(/\s+/)
  if (words.length < 2 || words.length > 4 || LEGAL_FORM.test(` ${text}`)) return false
  if (classes.slice(titleWords).some((c) => c.size > 0)) return false
  // Two capitalised words at least, a given name and a surname: a particle before one word is a phrase ("zu
  // Selbstkosten").
  return (
    words.every((w) => /^[\p{L}'’.-]+$/u.test(w) && (/^\p{Lu}/u.test(w) || PARTICLE.test(w))) &&
    words.filter((w) => /^\p{Lu}/u.test(w)).length >= 2 &&
    words.some((w) => /^\p{Lu}\p{Ll}/u.test(w))
  )
}

/** The next line starting where the name starts, close under it. */
function lineBelow(candidate: ValueCandidate): { line: Line; index: number } | null {
  const { context, lineIndex, bbox } = candidate
  const next = context.lines[lineIndex + 1]
  if (!next || next.bbox[1] - bbox[3] > (bbox[3] - bbox[1]) * 2) return null
  const start = next.words.findIndex((w) => Math.abs(w.bbox[0] - bbox[0]) < 0.02)
  if (start < 0) return null
  return { line: { ...next, words: next.words.slice(start) } as Line, index: start }
}

/**
 * The line before starting where the name's line starts (`left`), close over it and in print as large: the line
 * above it in its block (not a window envelope's small sender line).
 */
function blockLineAbove(
  candidate: ValueCandidate,
  left: number,
): { text: string; classes: Set<WordClass>[] } | null {
  const { context, lineIndex, bbox } = candidate
  const previous = context.lines[lineIndex - 1]
  const height = bbox[3] - bbox[1]
  if (!previous || bbox[1] - previous.bbox[3] > height * 2) return null
  const start = previous.words.findIndex((w) => Math.abs(w.bbox[0] - left) < 0.02)
  if (start < 0) return null
  const [, last] = runsOf(previous, height * 3).find(([first]) => first === start) ?? [start, start]
  const words = previous.words.slice(start, last + 1)
  if (Math.max(...words.map((w) => w.bbox[3] - w.bbox[1])) < height * 0.8) return null
  return {
    text: words.map((w) => w.text).join(' '),
    classes: context.classes[lineIndex - 1]?.slice(start, last + 1) ?? [],
  }
}

const addressBlocks = new WeakMap<ValueCandidate[], ValueCandidate[]>()
/** The first page's names with an address printed under them, top to bottom: letterhead, address window, ... */
function addressBlocksOf(facts: DocumentFacts): ValueCandidate[] {
  let blocks = addressBlocks.get(facts.all)
  if (!blocks) {
    const seen = new Set<string>()
    // A heading over a block ("Hotel Details", "Seller") is no name of it.
    blocks = facts.all
      .filter((c) => c.context.index === 0 && !holdsLabel(c) && addressBelow(c))
      .sort((a, b) => a.bbox[1] - b.bbox[1])
      .filter((c) => {
        const key = `${c.lineIndex}:${c.wordStart}`
        if (seen.has(key)) return false
        seen.add(key)
        return true
      })
    addressBlocks.set(facts.all, blocks)
  }
  return blocks
}

/**
 * A header row of a table over its row of values ("Data | Vencimento | N.º Cliente | Condições" over "08/10/2025 |
 * 07/11/2025 | 0217 | 30 dias"): three cells or more on each line, two of the header's labelled cells over cells
 * holding no label word (an address beside a column of labels has labels under labels).
 */
function headsTable(context: PageContext, index: number): boolean {
  const [line, next] = [context.lines[index], context.lines[index + 1]]
  if (!line || !next) return false
  const height = line.bbox[3] - line.bbox[1]
  if (next.bbox[1] - line.bbox[3] > height * 1.5) return false
  const [cells, under] = [runsOf(line, height * 2), runsOf(next, height * 2)]
  if (cells.length < 3 || under.length < 3) return false
  const labelled = (i: number, [first, last]: [number, number]) =>
    (context.classes[i] ?? []).slice(first, last + 1).some((c) => c.size > 0)
  const labelsOverValues = cells.filter((cell) => {
    if (!labelled(index, cell)) return false
    const [x0, x1] = [line.words[cell[0]]?.bbox[0] ?? 0, line.words[cell[1]]?.bbox[2] ?? 0]
    const below = under.find(
      ([first, last]) => (next.words[first]?.bbox[0] ?? 1) < x1 && (next.words[last]?.bbox[2] ?? 0) > x0,
    )
    return below !== undefined && !labelled(index + 1, below)
  })
  return labelsOverValues.length >= 2
}

/** The word classes of the candidate's own words. */
const ownClasses = ({ context, lineIndex, wordStart, wordEnd }: ValueCandidate) =>
  (context.classes[lineIndex] ?? []).slice(wordStart, wordEnd + 1)
/** A segment that holds a label word ("Sold By : WS Retail ...", "Hotel Details"): a label, not a name. */
const holdsLabel = (candidate: ValueCandidate) => ownClasses(candidate).some((c) => c.size > 0)

/** Printed after a postcode elsewhere ("20095 Hamburg") or before a state ("Westlake Village, CA"): a town, not a party. */
function townOfAddress(name: string, facts: DocumentFacts): boolean {
  if (name.split(/\s+/).length > 2) return false
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const town = new RegExp(
    `(?:^|\\s)(?:[A-Z]{1,2}-)?\\d{4,5}\\s+${escaped}(?:$|[\\s,])|(?:^|[\\s,])${escaped},\\s*[A-Z]\\.?[A-Z]\\.?(?![\\p{L}\\p{N}])`,
    'u',
  )
  return facts.contexts.some((context) =>
    context.lines.some((line) => line.text.includes(name) && town.test(line.text)),
  )
}

/**
 * A street's name, its number aside ("Convent Road", "Avda. del Puerto", "Lindenallee"): a line of an address, no
 * party. Romance languages print the street's word first, English and the Germanic compounds last.
 */
const STREET =
  /^(?:avda\.?|avenida|av\.|calle|c\/|carrer|paseo|plaza|ronda|camino|travesía|rua|travessa|largo|praça|via|viale|piazza|piazzale|corso|vicolo|rue|avenue|boulevard|bd|chemin|allée|impasse|quai)\s|\s(?:road|rd\.?|street|st\.?|lane|ln\.?|avenue|ave\.?|drive|way|close|crescent|terrace|square|boulevard|blvd\.?|parkway|mews)$|^\S*\p{L}(?:straße|strasse|str\.|weg|gasse|allee|platz|damm|ufer|chaussee|straat|laan|plein|gracht|kade|singel|dijk|dreef)$/iu

/**
 * Who or which part of a company its mail is for, opening the line under the company's name: a person by a form of
 * address or a family ("Herrn Tom Schröder", "Familie Huber", "Dhr. Bakker"), or a department ("Buchhaltung").
 */
const ADDRESSEE_BELOW =
  /^(?:(?:herrn?|frau|familie|fam\.|mr\.?|mrs\.?|ms\.?|mme|monsieur|madame|dhr\.?|mevr\.?|sig\.(?:ra)?)\s+\p{L}|\S*\s?(?:abteilung|buchhaltung|department|afdeling|boekhouding)\b|accounts payable\b|service comptabilit)/iu

function partyFeatures(features: Features, candidate: ValueCandidate, facts: DocumentFacts) {
  const { context, lineIndex } = candidate
  const own = ownClasses(candidate)
  features.holds_label = holdsLabel(candidate) ? 1 : 0
  features.town = townOfAddress(String(candidate.value), facts) ? 1 : 0
  features.person_like = personLike(String(candidate.value), own) ? 1 : 0
  // A company's name above a person's: an address window's company and the person it is for.
  const below = lineBelow(candidate)
  const belowText = below?.line.words
    .slice(0, 4)
    .map((w) => w.text)
    .join(' ')
  features.person_below =
    below &&
    !features.person_like &&
    personLike(belowText ?? '', context.classes[lineIndex + 1]?.slice(below.index, below.index + 4) ?? [])
      ? 1
      : 0
  // The person a company's mail is for, by an attention mark under the name: an addressee's block.
  features.attention_below = ATTENTION.test(belowText ?? '') || ADDRESSEE_BELOW.test(belowText ?? '') ? 1 : 0
  // ... and that person, after the mark: not the party (a company after "Attention:" is the party itself).
  const line = context.lines[lineIndex] as Line
  const before = line.text.slice(0, line.offsets[candidate.wordStart] ?? 0)
  const afterMark = ATTENTION.test(before.trim())
  features.after_attention = features.person_like && afterMark ? 1 : 0
  // ... and a person under a company's name in its block, the mark before it or not: the company is the party.
  const above = features.person_like
    ? blockLineAbove(candidate, afterMark ? (line.words[0]?.bbox[0] ?? candidate.bbox[0]) : candidate.bbox[0])
    : null
  features.company_above =
    above &&
    /\p{L}{2}/u.test(above.text) &&
    !FORM_OF_ADDRESS.test(above.text.trim()) &&
    !above.classes.some((c) => c.size > 0) &&
    !POSTCODE_OR_STREET.test(withoutDates(above.text))
      ? 1
      : 0
  features.street = STREET.test(String(candidate.value)) ? 1 : 0
  features.x_left = candidate.bbox[0]
  // A cell of a table's header row or of the values under it: a label or a detail, no party.
  features.table_cell = headsTable(context, lineIndex) || headsTable(context, lineIndex - 1) ? 1 : 0
  const blocks = addressBlocksOf(facts)
  const at = blocks.findIndex((c) => c.context === context && c.lineIndex === lineIndex)
  features.first_address_block = at === 0 ? 1 : 0
  features.later_address_block = at > 0 ? 1 : 0
}

/** The candidate's features; missing ones are 0. */
export function featuresOf(kind: CandidateKind, candidate: ValueCandidate, facts: DocumentFacts): Features {
  const features: Features = {}
  commonFeatures(features, candidate, facts)
  labelFeatures(features, candidate)
  if (kind === 'money') moneyFeatures(features, candidate, facts)
  else if (kind === 'date') dateFeatures(features, candidate, facts)
  else if (kind === 'code') codeFeatures(features, candidate, facts)
  else {
    nameFeatures(features, candidate, facts)
    partyFeatures(features, candidate, facts)
  }
  return features
}
