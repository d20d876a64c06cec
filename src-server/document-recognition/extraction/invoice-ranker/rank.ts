import type { FieldValue } from '../../document-recognition.tables'
import type { PageText } from '../../page-text'
import { calibratedConfidence } from '../calibration'
import { type ExtractedField, notFound } from '../extracted-field'
import type { FieldDefinition } from '../field-config'
import { extractWithRules } from '../rules'
import {
  type CandidateKind,
  candidatesOf,
  kindOf,
  type PageContext,
  pageContexts,
  type ValueCandidate,
} from './candidates'
import { type Features, featuresOf, sameValue } from './features'
import { type FieldModel, type RankerWeights, softmax, weightedSum } from './model'
import trained from './weights.json'

/** A candidate with its features, for ranking and for training. */
export interface RankedCandidate {
  /** null: the field is not printed on the document (an invoice without a net), a choice like any other. */
  candidate: ValueCandidate | null
  value: FieldValue
  features: Features
}

/** Every candidate of a field in a document, with its features. */
export function candidateFeatures(
  field: FieldDefinition,
  contexts: PageContext[],
  rules: Pick<ExtractedField, 'value' | 'confidence'>,
  pool = new Map<CandidateKind, ValueCandidate[]>(),
): RankedCandidate[] {
  const kind = kindOf(field)
  if (!kind) return []
  const all = pool.get(kind) ?? candidatesOf(kind, contexts)
  pool.set(kind, all)
  const facts = {
    all,
    rulesValue: rules.value,
    rulesConfidence: rules.confidence,
    pageCount: contexts.length,
    contexts,
  }
  return [
    { candidate: null, value: null, features: { none: 1 } },
    ...all.map((candidate) => ({
      candidate,
      value: candidate.value,
      features: featuresOf(kind, candidate, facts),
    })),
  ]
}

/** A value's probability: the sum over the candidates printing it. */
export function valueProbabilities(model: FieldModel, ranked: RankedCandidate[]) {
  const probabilities = softmax(ranked.map((r) => weightedSum(model, r.features)))
  const values: { value: FieldValue; probability: number; best: RankedCandidate; bestP: number }[] = []
  ranked.forEach((r, i) => {
    const p = probabilities[i] as number
    const entry = values.find((v) => v.value === r.value || sameValue(v.value, r.value))
    if (!entry) values.push({ value: r.value, probability: p, best: r, bestP: p })
    else {
      entry.probability += p
      if (p > entry.bestP) Object.assign(entry, { best: r, bestP: p })
    }
  })
  return values.sort((a, b) => b.probability - a.probability)
}

const CODE_LABEL = /^(?:near|left|above)_(?:number|marker|title|booking)$/
const AMOUNT_LABEL = /^(?:near|left|above)_(?:total|amount|net|tax|incl|prepaid|payable)$/
const AMOUNT_SUMS = ['sum_of_two', 'part_of_sum', 'tax_of_other', 'tax_inside']
/** Is the chosen value named by a label of its kind (an amount also by a sum it takes part in)? Names and dates are. */
function labelled(features: Features): boolean {
  const present = Object.keys(features).filter((name) => (features[name] ?? 0) > 0)
  if ('glued_marker' in features)
    return features.glued_marker === 1 || present.some((name) => CODE_LABEL.test(name))
  if ('cents' in features)
    return present.some((name) => AMOUNT_LABEL.test(name) || AMOUNT_SUMS.includes(name))
  return true
}

/** The label nearest left of the value (or over it), as printed, for the field's `anchor`. */
function labelOf(candidate: ValueCandidate): { anchor: string | null; below: boolean } {
  const line = candidate.context.lines[candidate.lineIndex]
  const classes = candidate.context.classes[candidate.lineIndex] ?? []
  for (let i = candidate.wordStart - 1; i >= 0; i--)
    if (classes[i]?.size) return { anchor: line?.words[i]?.text ?? null, below: false }
  return { anchor: null, below: false }
}

type ValueChoice = ReturnType<typeof valueProbabilities>[number]

/** The two parties of an invoice: one party cannot be both, so their values are chosen together. */
const PARTIES = ['seller_name', 'buyer_name'] as const

/**
 * The seller's and the buyer's values: each field's most probable value, unless both name the same party; then the
 * most probable pair of different values (either may be "not printed"), by the product of the two probabilities.
 */
function chooseParties(choices: Map<string, ValueChoice[]>): void {
  const [sellers, buyers] = PARTIES.map((key) => choices.get(key))
  const [seller, buyer] = [sellers?.[0], buyers?.[0]]
  if (
    !sellers ||
    !buyers ||
    !seller ||
    !buyer ||
    seller.value === null ||
    !sameValue(seller.value, buyer.value)
  )
    return
  let best: [ValueChoice, ValueChoice, number] | null = null
  for (const s of sellers)
    for (const b of buyers) {
      if (s.value !== null && sameValue(s.value, b.value)) continue
      const p = s.probability * b.probability
      if (!best || p > best[2]) best = [s, b, p]
    }
  if (!best) return
  choices.set('seller_name', [best[0]])
  choices.set('buyer_name', [best[1]])
}

/**
 * The invoice ranker: for each field it has weights for, every value of the field's type printed in the document
 * is a candidate, scored by learned weights over its features (the general rules' choice among them), and the
 * most probable value is the field's (the two parties chosen together). Its confidence is that probability,
 * calibrated to the review threshold. Fields without weights keep what the rules read.
 */
export function rankInvoiceFields(
  definitions: FieldDefinition[],
  pages: PageText[],
  fromRules: ExtractedField[],
  weights: RankerWeights = trained as RankerWeights,
): ExtractedField[] {
  const contexts = pageContexts(pages)
  const pool = new Map<CandidateKind, ValueCandidate[]>()
  const choices = new Map<string, ValueChoice[]>()
  for (const rules of fromRules) {
    const field = definitions.find((d) => d.key === rules.key)
    const model = weights.fields[rules.key]
    if (field && model)
      choices.set(rules.key, valueProbabilities(model, candidateFeatures(field, contexts, rules, pool)))
  }
  chooseParties(choices)
  return fromRules.map((rules) => {
    const model = weights.fields[rules.key]
    const top = choices.get(rules.key)?.[0]
    if (!model || !top) return rules
    const { candidate } = top.best
    if (!candidate)
      return { ...notFound(rules.key), confidence: calibratedConfidence(top.probability, model.review_below) }
    const label = labelOf(candidate)
    // An identifier or an amount that no label of its kind names is a guess however sure the weights are: it goes
    // to a reviewer (a date alone in the header is common, and is not held to this).
    const probability = labelled(top.best.features)
      ? top.probability
      : Math.min(top.probability, model.review_below * 0.99)
    return {
      key: rules.key,
      value: top.value,
      confidence: calibratedConfidence(probability, model.review_below),
      page_number: candidate.context.page.page_number,
      bbox: candidate.bbox,
      method: label.anchor ? 'anchor_right' : 'pattern',
      anchor: label.anchor,
    }
  })
}

/** The general rules, then the ranker over the fields it has weights for (the rules' pick is one of its features). */
export function extractWithInvoiceRanker(
  definitions: FieldDefinition[],
  pages: PageText[],
  known: ExtractedField[] = [],
): ExtractedField[] {
  return rankInvoiceFields(definitions, pages, extractWithRules(definitions, pages, known))
}
