import type { FieldValue } from '../../document-recognition.tables'
import type { Line } from '../layout'
import { lettersAndDigits } from '../values'
import type { CandidateKind, PageContext, ValueCandidate } from './candidates'
import { LABEL_CONTEXTS, labelFeatures, namedAs } from './label-features'
import { WORD_CLASSES } from './label-words'
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
