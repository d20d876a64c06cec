import type { FieldValue } from '../../document-recognition.tables'
import type { Line } from '../layout'
import { lettersAndDigits } from '../values'
import { amountIndexOf } from './amount-index'
import type { CandidateKind, PageContext, ValueCandidate } from './candidates'
import { LABEL_CONTEXTS, labelFeatures, namedAs, namedCorrected } from './label-features'
import { WORD_CLASSES } from './label-words'
import { oncePer } from './memo'
import { moneyFeatures } from './money-features'
import { nameFeatures, partyFeatures } from './name-features'

/**
 * The features of a candidate value, each in 0..1: which word classes stand nearest left of it, anywhere left on
 * its line, right after it, over it (a header row or a label line above), on the line before; where it is on the
 * page; and what its kind says (an amount's magnitude and the sums it takes part in, a date's order, an
 * identifier's shape, a name's print). A new observation about invoices is added here as a feature; the weights
 * learn what it is worth.
 */
export type Features = Record<string, number>

/** The names of every feature of a kind, in a fixed order (the weights file lists them). */
export function featureNames(kind: CandidateKind): string[] {
  const labelled = LABEL_CONTEXTS.flatMap((context) => WORD_CLASSES.map((c) => `${context}_${c}`))
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
      'rates_heading',
    ],
    date: [
      'earliest',
      'latest',
      'alone_on_line',
      'after_comma',
      'line_has_code',
      'same_as_other',
      'named_corrected',
    ],
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
      'named_corrected',
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
      'figures_row',
      'street',
      'heading_seller',
      'heading_buyer',
      'paired_heading_seller',
      'paired_heading_buyer',
      'identifier_in_block',
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

const HALF_CENT = 0.005
const sameText = (a: FieldValue, b: FieldValue) =>
  a !== null &&
  b !== null &&
  (typeof a === 'number' && typeof b === 'number'
    ? Math.abs(a - b) < HALF_CENT
    : lettersAndDigits(String(a)) === lettersAndDigits(String(b)))

export { sameText as sameValue }

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
  features.repeated = copiesOf(candidate, facts.all, REPEATED) / REPEATED
}

/** A value printed this many times more is surely repeated (a sum in a summary and at the foot, a number on every page). */
const REPEATED = 3

/** How many candidates print each text, letters and digits only. */
const textCounts = oncePer((all: ValueCandidate[]) => {
  const counts = new Map<string, number>()
  for (const c of all) {
    const text = lettersAndDigits(String(c.value))
    counts.set(text, (counts.get(text) ?? 0) + 1)
  }
  return counts
})

/**
 * How many other candidates print the candidate's value (an amount to half a cent, a text letter for letter), up
 * to `atMost`.
 */
function copiesOf(candidate: ValueCandidate, all: ValueCandidate[], atMost: number): number {
  const value = candidate.value
  if (typeof value !== 'number')
    return Math.min(atMost, (textCounts(all).get(lettersAndDigits(String(value))) ?? 0) - 1)
  const amounts = amountIndexOf(all)
  let copies = 0
  amounts.someOtherNear(amounts.placeOf(candidate), value, HALF_CENT, (other) => {
    if (sameText(other, value)) copies++
    return copies === atMost
  })
  return copies
}

/** The earliest and the latest of a document's dates (ISO dates: in the order of their text). */
const dateRange = oncePer((all: ValueCandidate[]) => {
  const values = all.map((c) => String(c.value)).sort()
  return { earliest: values[0], latest: values[values.length - 1] }
})

/** How many dates print each value. */
const dateCounts = oncePer((all: ValueCandidate[]) => {
  const counts = new Map<FieldValue, number>()
  for (const c of all) counts.set(c.value, (counts.get(c.value) ?? 0) + 1)
  return counts
})

function dateFeatures(features: Features, candidate: ValueCandidate, facts: DocumentFacts) {
  const value = String(candidate.value)
  const { earliest, latest } = dateRange(facts.all)
  features.earliest = value === earliest ? 1 : 0
  features.latest = value === latest ? 1 : 0
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
  features.same_as_other = (dateCounts(facts.all).get(candidate.value) ?? 0) > 1 ? 1 : 0
  // Labelled by a reference to the invoice a credit note corrects: that invoice's date.
  features.named_corrected = namedCorrected(candidate) ? 1 : 0
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

/**
 * The document's first identifier, in reading order, that a marker or label names as its own (not the number of the
 * invoice a credit note corrects, "zur Rechnung Nr. RE-2019/123").
 */
const firstMarkedCode = oncePer(
  (all: ValueCandidate[]) => all.find((c) => markedCode(c) && !namedCorrected(c)) ?? null,
)

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
  features.first_marked = firstMarkedCode(facts.all) === candidate ? 1 : 0
  // An order's or booking's identifier on a document where no label names an invoice number: the document's own.
  features.order_unrivalled =
    namedAs(candidate, /^(?:near|above)_(?:order|booking)$/) && !numberNamed(facts.all) ? 1 : 0
  features.spaced_groups = code.includes(' ') ? 1 : 0
  // Labelled by a reference to the invoice a credit note corrects: that invoice's number.
  features.named_corrected = namedCorrected(candidate) ? 1 : 0
}

/** Does a label name an invoice's number ("Rechnungsnummer", "Invoice No.", "Facture n°" on the title line)? */
const numberNamed = oncePer((all: ValueCandidate[]) =>
  all.some(
    (c) =>
      namedAs(c, /^(?:near|above)_number$/) ||
      (c.context.classes[c.lineIndex]?.[0]?.has('title') === true &&
        (GLUED_MARKER.test(c.words[0]?.text ?? '') || namedAs(c, /^near_marker$/))),
  ),
)

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
