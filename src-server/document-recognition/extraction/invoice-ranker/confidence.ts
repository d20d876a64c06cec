import type { FieldValue } from '../../document-recognition.tables'
import type { FieldDefinition } from '../field-config'
import { lettersAndDigits } from '../values'
import type { ValueCandidate } from './candidates'
import { type Features, sameValue } from './features'
import { weightedSum } from './model'
import type { FieldChoice, ValueChoice } from './rank'
import { taxOfSeveralRates } from './several-rates'

/**
 * The confidence model: the probability that a chosen value is right, from what the ranker's choice leaves out of
 * its own probability: how far the value stands above the runner-up, whether the general rules picked it too,
 * whether a label of its kind names it, whether the amounts chosen add up, how often it is printed. Logistic
 * regression, fitted on values the ranker chose in documents its weights did not see (`npm run train:invoices`).
 */
export interface ConfidenceModel {
  features: string[]
  weights: number[]
  /** The probability of being right under which a value goes to a reviewer: it catches 90 % of wrong values. */
  review_below: number
}

/** The fields the ranker chooses; the confidence model gives each its own intercept (their base rates differ). */
export const RANKED_FIELDS = [
  'invoice_number',
  'invoice_date',
  'net_amount',
  'tax_amount',
  'total_amount',
  'seller_name',
  'buyer_name',
]
const NAMES = new Set(['seller_name', 'buyer_name'])

export const CONFIDENCE_FEATURES = [
  ...RANKED_FIELDS.map((key) => `field_${key}`),
  'log_odds',
  'log_odds_name',
  'margin',
  'margin_name',
  'rules_agree',
  'rules_confident',
  'own_label',
  'copies',
  'candidates',
  'in_sum',
  'sum_holds',
  'sum_fails',
  'another_sums',
  'nested_rival',
  'parties_clash',
  'legal_form',
  'domain',
  'mentioned',
  'page_head',
  'person_like',
  'holds_label',
]

/** The word classes whose labels name a field's value ("Rechnungsnummer", "Date", "VAT", "Bill to"). */
const OWN_LABELS: Record<string, string[]> = {
  invoice_number: ['number', 'marker', 'title'],
  invoice_date: ['date', 'dated'],
  net_amount: ['net'],
  tax_amount: ['tax'],
  total_amount: ['total', 'amount', 'incl', 'payable'],
  seller_name: ['seller', 'payee'],
  buyer_name: ['buyer'],
}
const LABEL_PLACES = ['near', 'left', 'above', 'prev', 'column']

/** Is the value named by a label of its own field's kind, on its line, over it or on the line before? */
function ownLabel(key: string, features: Features): boolean {
  return (OWN_LABELS[key] ?? []).some((c) =>
    LABEL_PLACES.some((place) => (features[`${place}_${c}`] ?? 0) > 0),
  )
}

const adds = (sum: number, terms: number[]) => Math.abs(sum - terms.reduce((a, b) => a + b, 0)) < 0.015

/**
 * The sum a field takes part in (`equals_sum_of` in the configuration: total = net + tax) among the chosen values:
 * it holds, it fails, or it fails and another value of this field printed in the document would make it hold
 * (then this field is the one likely wrong). null when one of them is not chosen, or the field takes part in none.
 */
function sumCheck(
  definitions: FieldDefinition[],
  choices: Map<string, FieldChoice>,
  key: string,
  chosen: Map<string, FieldValue>,
): 'holds' | 'fails' | 'another_holds' | null {
  for (const definition of definitions) {
    const parts = definition.validation?.equals_sum_of
    if (!parts || (definition.key !== key && !parts.includes(key))) continue
    const keys = [definition.key, ...parts]
    const values = keys.map((k) => chosen.get(k))
    if (!values.every((v): v is number => typeof v === 'number')) return null
    const holds = (numbers: number[]) => adds(numbers[0] as number, numbers.slice(1))
    if (holds(values)) return 'holds'
    const at = keys.indexOf(key)
    const others = (choices.get(key)?.values ?? []).map((v) => v.value)
    const repaired = others.some(
      (other) => typeof other === 'number' && holds(values.map((v, i) => (i === at ? other : v))),
    )
    return repaired ? 'another_holds' : 'fails'
  }
  return null
}

/**
 * The value chosen for each field, the tax of several rates in place of one rate's (`taxOfSeveralRates`): what the
 * document's amounts are once its rates' taxes are added.
 */
export function chosenWithTaxOfRates(
  choices: Map<string, FieldChoice>,
  amounts: ValueCandidate[],
): Map<string, FieldValue> {
  const values = new Map([...choices].map(([key, choice]) => [key, choice.chosen.value]))
  const [net, tax, total] = ['net_amount', 'tax_amount', 'total_amount'].map((key) => values.get(key))
  if (taxOfSeveralRates(net, tax, total, amounts) && typeof net === 'number' && typeof total === 'number')
    values.set('tax_amount', (Math.round(total * 100) - Math.round(net * 100)) / 100)
  return values
}

/** Did the seller's and the buyer's most probable values name the same party (so one of them was set aside)? */
function partiesClash(choices: Map<string, FieldChoice>): boolean {
  const [seller, buyer] = ['seller_name', 'buyer_name'].map((k) => choices.get(k)?.values[0]?.value)
  return seller != null && sameValue(seller, buyer ?? null)
}

/** A runner-up worth a reviewer's look: one with this share of the probability or more. */
const RIVAL = 0.05
const plain = (value: FieldValue) => lettersAndDigits(String(value))

/**
 * Does a rival value hold the chosen one's text or lie within it ("Customer: Keller Group LLP" and "Keller Group
 * LLP", "n.RE-2023/830" and "RE-2023/830")? Then where the value starts and ends is the doubt.
 */
function nestedRival(chosen: ValueChoice, values: ValueChoice[]): boolean {
  if (typeof chosen.value !== 'string') return false
  const own = plain(chosen.value)
  return values.some((v) => {
    if (v === chosen || v.probability < RIVAL || typeof v.value !== 'string') return false
    const other = plain(v.value)
    return other !== own && other.length > 0 && (own.includes(other) || other.includes(own))
  })
}

/**
 * The most probable value `top`, when the chosen value is its fuller form chosen in its place: the same words
 * followed by more of the name or its legal form ("Druckpunkt Weber" and "Druckpunkt Weber AG"). Words before them
 * are no completion a reviewer can trust ("Questions? Contact Tallyloop Software Ltd").
 */
function fullNameOf(chosen: ValueChoice, top: ValueChoice | undefined): ValueChoice | undefined {
  if (!top || top === chosen || typeof chosen.value !== 'string' || typeof top.value !== 'string')
    return undefined
  const short = plain(top.value)
  return short.length > 0 && plain(chosen.value).startsWith(short) ? top : undefined
}

const AMOUNT_SUMS = ['sum_of_two', 'part_of_sum', 'tax_of_other', 'tax_inside']

const logOdds = (p: number) => Math.max(-1, Math.min(1, Math.log(p / Math.max(1e-9, 1 - p)) / 10))

/** The evidence about the value chosen for `key` (which must be a value, not "not printed"). */
export function confidenceFeatures(
  definitions: FieldDefinition[],
  choices: Map<string, FieldChoice>,
  key: string,
  amounts: ValueCandidate[],
): Features {
  const choice = choices.get(key) as FieldChoice
  const { chosen } = choice
  const own = chosen.best.features
  // A company's full name chosen in place of the most probable value it continues (its wordmark, its name without the
  // legal form): both name the party, so their probabilities count together and the shorter is no rival.
  const shortForm = fullNameOf(chosen, choice.values[0])
  const values = choice.values.filter((v) => v !== shortForm)
  const probability = chosen.probability + (shortForm?.probability ?? 0)
  const runnerUp = Math.max(0, ...values.filter((v) => v !== chosen).map((v) => v.probability))
  const name = NAMES.has(key) ? 1 : 0
  const odds = logOdds(probability)
  const margin = probability - runnerUp
  const sum = sumCheck(definitions, choices, key, chosenWithTaxOfRates(choices, amounts))
  return {
    [`field_${key}`]: 1,
    log_odds: odds,
    log_odds_name: odds * name,
    margin,
    margin_name: margin * name,
    rules_agree: own.rules ?? 0,
    rules_confident: own.rules_confident ?? 0,
    own_label: ownLabel(key, own) ? 1 : 0,
    copies: Math.min(1, (chosen.copies - 1) / 3),
    candidates: Math.min(1, Math.log(values.length) / Math.log(200)),
    in_sum: Math.max(0, ...AMOUNT_SUMS.map((f) => own[f] ?? 0)),
    sum_holds: sum === 'holds' ? 1 : 0,
    sum_fails: sum === 'fails' || sum === 'another_holds' ? 1 : 0,
    another_sums: sum === 'another_holds' ? 1 : 0,
    nested_rival: nestedRival(chosen, values) ? 1 : 0,
    parties_clash: name && partiesClash(choices) ? 1 : 0,
    // A name's own evidence of being a party's: a legal form, the web address's domain, other mentions, the head
    // of the page; a person's name or one holding a label word is more often a contact or a label line.
    legal_form: own.legal_form ?? 0,
    domain: Math.max(own.domain_match ?? 0, own.domain_word ?? 0),
    mentioned: Math.max(own.mentions ?? 0, own.repeated_text ?? 0, own.contact_mention ?? 0),
    page_head: Math.max(own.page_head ?? 0, own.early_line ?? 0),
    person_like: own.person_like ?? 0,
    holds_label: own.holds_label ?? 0,
  }
}

/** The probability that the value is right: the logistic of the weighted evidence. */
export function probabilityRight(
  model: Pick<ConfidenceModel, 'features' | 'weights'>,
  features: Features,
): number {
  return 1 / (1 + Math.exp(-weightedSum(model, features)))
}
