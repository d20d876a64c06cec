import type { FieldValue } from '../../document-recognition.tables'
import type { PageText } from '../../page-text'
import { calibratedConfidence } from '../calibration'
import { confirmCurrencyByAmount } from '../cross-checks'
import { type ExtractedField, notFound } from '../extracted-field'
import type { FieldDefinition } from '../field-config'
import { extractWithRules } from '../rules'
import { fold, lettersAndDigits } from '../values'
import { toCents } from './amount-index'
import {
  type CandidateKind,
  candidatesOf,
  FORM_OF_ADDRESS,
  kindOf,
  type PageContext,
  pageContexts,
  type ValueCandidate,
} from './candidates'
import { type ConfidenceModel, confidenceFeatures, probabilityRight } from './confidence'
import confidenceWeights from './confidence.weights.json'
import { signedForCreditNote } from './credit-note'
import { type Features, featuresOf, sameValue } from './features'
import { COURTESY_TITLE, LEGAL_FORM, PARTICLE } from './label-words'
import { type FieldModel, type RankerWeights, softmax, weightedSum } from './model'
import { withSelfBilledParties } from './self-billing'
import { withTaxOfSeveralRates } from './several-rates'
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

/**
 * The entries of a field's values, found by value: the first entry whose value is the same (`sameValue`: an amount
 * to half a cent, a text letter for letter), looked up by its text or its cents rather than searched among all.
 */
class ValueEntries<Entry extends { value: FieldValue }> {
  private readonly byKey = new Map<string | number | null, Entry[]>()
  private readonly order = new Map<Entry, number>()

  private static keyOf(value: FieldValue): string | number | null {
    if (value === null) return null
    return typeof value === 'number' ? toCents(value) : lettersAndDigits(String(value))
  }

  add(entry: Entry): void {
    const key = ValueEntries.keyOf(entry.value)
    this.order.set(entry, this.order.size)
    this.byKey.set(key, [...(this.byKey.get(key) ?? []), entry])
  }

  find(value: FieldValue): Entry | undefined {
    const key = ValueEntries.keyOf(value)
    // Amounts half a cent apart can round to neighbouring cents.
    const keys = typeof key === 'number' ? [key - 1, key, key + 1] : [key]
    const same = keys
      .flatMap((k) => this.byKey.get(k) ?? [])
      .filter((entry) => entry.value === value || sameValue(entry.value, value))
    return same.sort((a, b) => (this.order.get(a) ?? 0) - (this.order.get(b) ?? 0))[0]
  }
}

/** A value's probability: the sum over the candidates printing it (`copies` of them). */
export function valueProbabilities(
  model: Pick<FieldModel, 'features' | 'weights'>,
  ranked: RankedCandidate[],
) {
  const probabilities = softmax(ranked.map((r) => weightedSum(model, r.features)))
  const values: {
    value: FieldValue
    probability: number
    best: RankedCandidate
    bestP: number
    copies: number
  }[] = []
  const entries = new ValueEntries<(typeof values)[number]>()
  ranked.forEach((r, i) => {
    const p = probabilities[i] as number
    const entry = entries.find(r.value)
    if (!entry) {
      const added = { value: r.value, probability: p, best: r, bestP: p, copies: 1 }
      values.push(added)
      entries.add(added)
    } else {
      entry.probability += p
      entry.copies += 1
      if (p > entry.bestP) Object.assign(entry, { best: r, bestP: p })
    }
  })
  return values.sort((a, b) => b.probability - a.probability)
}

/** The label nearest left of the value (or over it), as printed, for the field's `anchor`. */
function labelOf(candidate: ValueCandidate): { anchor: string | null; below: boolean } {
  const line = candidate.context.lines[candidate.lineIndex]
  const classes = candidate.context.classes[candidate.lineIndex] ?? []
  for (let i = candidate.wordStart - 1; i >= 0; i--)
    if (classes[i]?.size) return { anchor: line?.words[i]?.text ?? null, below: false }
  return { anchor: null, below: false }
}

export type ValueChoice = ReturnType<typeof valueProbabilities>[number]

/** A field's values by probability, and the one chosen (the most probable, unless the parties clash). */
export interface FieldChoice {
  values: ValueChoice[]
  chosen: ValueChoice
}

/** The two parties of an invoice: one party cannot be both, so their values are chosen together. */
const PARTIES = ['seller_name', 'buyer_name'] as const

/**
 * Do two names name one party: the same words, or one holding the other as a name does ("Sanne Vermeulen
 * Fotografie" and the wordmark "sanne vermeulen")?
 */
function sameParty(a: FieldValue, b: FieldValue): boolean {
  if (a === null) return false
  if (sameValue(a, b)) return true
  return typeof a === 'string' && typeof b === 'string' && (holdsAsName(a, b) || holdsAsName(b, a))
}

/**
 * The seller's and the buyer's values: each field's most probable value, unless both name the same party; then the
 * most probable pair of values naming different parties (either may be "not printed"), by the product of the two
 * probabilities.
 */
function chooseParties(choices: Map<string, FieldChoice>): void {
  const [sellers, buyers] = PARTIES.map((key) => choices.get(key))
  if (!sellers || !buyers) return
  if (!sameParty(sellers.chosen.value, buyers.chosen.value)) return
  let best: [ValueChoice, ValueChoice, number] | null = null
  for (const s of sellers.values)
    for (const b of buyers.values) {
      if (sameParty(s.value, b.value)) continue
      const p = s.probability * b.probability
      if (!best || p > best[2]) best = [s, b, p]
    }
  if (!best) return
  sellers.chosen = best[0]
  buyers.chosen = best[1]
}

/** The value chosen for the other party than `key`'s. */
const otherParty = (choices: Map<string, FieldChoice>, key: (typeof PARTIES)[number]) =>
  choices.get(key === 'seller_name' ? 'buyer_name' : 'seller_name')?.chosen.value ?? null

const LEGAL_FORMS = new RegExp(LEGAL_FORM.source, 'giu')
/** Does a name end in a legal form, one of several words too ("S.à r.l.", "GmbH & Co. KG")? */
const endsInLegalForm = (name: string) =>
  [...` ${name}`.matchAll(LEGAL_FORMS)].some((m) => m.index + m[0].length >= name.length + 1)

/**
 * A company's name ending in its legal form (and a note on it in brackets: "UG (haftungsbeschränkt)"): not a legal
 * line with its address and tax id, nor a name with the words printed after it ("... S.p.A. Fattura n.").
 */
function fullCompanyName(name: string): boolean {
  const words = name.replace(/\s*\([^)]*\)$/, '').split(/\s+/)
  // (French names often open with their form: "SARL Le Fournil", "EARL du Val Fleuri")
  const form = endsInLegalForm(words.join(' ')) || LEGAL_FORM.test(` ${words[0]} `)
  // (a bullet, a bar or a spaced dash parts two things on a line: "Barclays Bank – Severnside Scaffolding Ltd")
  return !/[\d·•|@]|\s[-–—]\s/.test(name) && words.length <= 8 && form
}

/** A name's words without punctuation, as printed: ["Cortiças", "Ribatejo", "Lda"] for "Cortiças Ribatejo, Lda.". */
const wordsOfName = (name: string) =>
  name
    .replace(/[^\p{L}\p{N}&]+/gu, ' ')
    .trim()
    .split(' ')

/** A name's words folded, between spaces: " corticas ribatejo lda ". */
const spacedWords = (name: string) => ` ${wordsOfName(name).map(fold).join(' ')} `

/** Words a signature or a sentence leads to a name with, capitalised at a line's start ("For and on behalf of"). */
const LEADING_TO_NAME = /^(?:for|fur|pour|voor|por|para|on|behalf|of|by|signed)$/

/**
 * Does `full` hold `short`'s words, after none or after words capitalised as a name's are ("Drukkerij" before "Van
 * Houtum"), not after a phrase leading to a name ("Vendu par", "Payment to", "t.n.v.", "For Corticeira, Lda.")?
 */
function holdsAsName(full: string, short: string): boolean {
  const words = wordsOfName(full)
  const wanted = wordsOfName(short).map(fold)
  for (let at = 0; at + wanted.length <= words.length; at++) {
    if (wanted.every((word, i) => fold(words[at + i] ?? '') === word))
      return words
        .slice(0, at)
        .every(
          (word) => (/^[\p{Lu}\d&]/u.test(word) || PARTICLE.test(word)) && !LEADING_TO_NAME.test(fold(word)),
        )
  }
  return false
}

/**
 * A person's full name that a wordmark printed in one case opens ("laura giménez" or "LAURA GIMÉNEZ" over "Laura
 * Giménez Ortega"): the name as the sender's block prints it.
 */
function completesWordmark(full: ValueChoice, short: string): boolean {
  const oneCase = short === short.toLowerCase() || short === short.toUpperCase()
  return (
    oneCase &&
    Boolean(full.best.features.person_like) &&
    spacedWords(String(full.value)).startsWith(spacedWords(short))
  )
}

/**
 * A party chosen by a shorter form of its name (a wordmark: "LUMENFIELD", "VAN HOUTUM", "Studio Tulpenkade") takes
 * the full name the document prints elsewhere with its words in it ("Lumenfield Analytics, Inc.", "Drukkerij Van
 * Houtum & Zn. B.V.", "Studio Tulpenkade B.V."), the longest there is. The confidence model counts the shorter
 * form's probability with the full name's where the full name continues it (its words, then more: 525); one holding
 * it after other words keeps its own, so a reviewer sees that completion unless it was likely by itself.
 */
function withFullNames(choices: Map<string, FieldChoice>): void {
  for (const key of PARTIES) {
    const choice = choices.get(key)
    if (!choice) continue
    const other = otherParty(choices, key)
    for (;;) {
      const short = choice.chosen.value
      if (typeof short !== 'string') break
      const full = choice.values.find(
        (v) =>
          typeof v.value === 'string' &&
          holdsAsName(v.value, short) &&
          spacedWords(v.value) !== spacedWords(short) &&
          (fullCompanyName(v.value) || completesWordmark(v, short)) &&
          // (a label printed before the name on its line is no part of it: "Rechnungsadresse Keller Holding GmbH")
          !v.best.features.holds_label &&
          !sameValue(v.value, other),
      )
      if (!full) break
      choice.chosen = full
    }
  }
}

/**
 * Is `short` a shorter form of the company name `full`: held by it as a name is, or its first word and then more of
 * its words in their order, as a wordmark leaves words out ("FERRETERÍA IBÁÑEZ" of "Ferretería Hermanos Ibáñez
 * S.L.")?
 */
function shortFormOf(full: string, short: string): boolean {
  if (holdsAsName(full, short)) return true
  const [words, wanted] = [wordsOfName(full).map(fold), wordsOfName(short).map(fold)]
  if (wanted.length < 2 || wanted[0] !== words[0]) return false
  let at = 0
  return wanted.every((word) => {
    while (at < words.length && words[at] !== word) at++
    return at++ < words.length
  })
}

/**
 * A party printed in several forms (a logo's "IMPRIMERIE PEETERS", the legal line's "Imprimerie Peeters SRL") has
 * their probabilities together, as a value printed twice has its copies': the company's full name holding the
 * others is chosen where that sum outweighs the most probable value (while that is the one chosen: the parties'
 * clash decides first).
 */
function withPartyForms(choices: Map<string, FieldChoice>): void {
  for (const key of PARTIES) {
    const choice = choices.get(key)
    if (!choice || choice.chosen !== choice.values[0]) continue
    const other = otherParty(choices, key)
    let best: { full: ValueChoice; probability: number } | null = null
    for (const full of choice.values) {
      if (typeof full.value !== 'string' || !fullCompanyName(full.value) || full.best.features.holds_label)
        continue
      const forms = choice.values.filter(
        (v) => v === full || (typeof v.value === 'string' && shortFormOf(full.value as string, v.value)),
      )
      const probability = forms.reduce((sum, v) => sum + v.probability, 0)
      if (!best || probability > best.probability) best = { full, probability }
    }
    if (
      best &&
      best.probability > choice.chosen.probability &&
      !sameParty(best.full.value, choice.chosen.value) &&
      !sameParty(best.full.value, other)
    )
      choice.chosen = best.full
  }
}

/** A person addressed by a form of address before the name ("Herrn Stefan Wirth", "Mme Sophie Chappuis"). */
const addressedPerson = (contact: RankedCandidate) =>
  Boolean(contact.features.person_like) && FORM_OF_ADDRESS.test(String(contact.value).split(/\s+/)[0] ?? '')

/**
 * A person named after an attention mark ("Attn: Mark Fellowes") or addressed over a company's name ("Herrn Stefan
 * Wirth" over "Wirth Zahntechnik GmbH & Co. KG") is the contact at the party, not the party: where the company's
 * name with its legal form follows within two lines of the same block, the company is chosen. It keeps its own
 * probability, so the choice goes to a reviewer unless the company was likely by itself.
 */
function withCompanyOverContact(choices: Map<string, FieldChoice>): void {
  for (const key of PARTIES) {
    const choice = choices.get(key)
    const contact = choice?.chosen.best
    const at = contact?.candidate
    if (!choice || !at || !(contact.features.after_attention || addressedPerson(contact))) continue
    const other = otherParty(choices, key)
    const company = choice.values.find((v) => {
      const c = v.best.candidate
      return (
        c !== null &&
        typeof v.value === 'string' &&
        c.context === at.context &&
        c.lineIndex > at.lineIndex &&
        c.lineIndex <= at.lineIndex + 2 &&
        // Under the mark and the name: starting left of the name, by no more than the mark's width.
        c.bbox[0] <= at.bbox[0] + 0.01 &&
        c.bbox[0] >= at.bbox[0] - 0.15 &&
        fullCompanyName(v.value) &&
        !sameValue(v.value, other)
      )
    })
    if (company) choice.chosen = company
  }
}

/**
 * An officer's or an owner's label before a name ("Geschäftsführerin: Lena Petersen", "Managing Director", "gérant",
 * "Inhaber"): the person runs the party, and is not it.
 */
const OFFICER_LABEL =
  /(?:^|[\s·|,;])(?:geschaftsfuhrer(?:in)?|geschaftsfuhrung|inhaber(?:in)?|vorstand|managing directors?|directors?|ceo|owner|proprietor|gerante?|presidente?|directeur|directrice|amministratore(?: unico| delegato)?|titolare|bestuurders?|eigenaar|administrador(?:a)?|gerente)\s*:?\s*$/

/**
 * A party chosen by a person named after an officer's label gives way to the most probable company name with its
 * legal form: OCR reads the company's own copies apart (a logo in pieces), and the managing director in the legal
 * line came first. The company keeps its own probability, so a reviewer sees the choice.
 */
function withCompanyOverOfficer(choices: Map<string, FieldChoice>): void {
  for (const key of PARTIES) {
    const choice = choices.get(key)
    const at = choice?.chosen.best.candidate
    if (!choice || !at) continue
    const line = at.context.lines[at.lineIndex]
    const before = line?.text.slice(0, line.offsets[at.wordStart] ?? 0) ?? ''
    if (!OFFICER_LABEL.test(fold(before))) continue
    const other = otherParty(choices, key)
    const company = choice.values.find(
      (v) => typeof v.value === 'string' && fullCompanyName(v.value) && !sameValue(v.value, other),
    )
    if (company) choice.chosen = company
  }
}

/** The amounts that add up on an invoice: net + tax = total. */
export const SUM_FIELDS = ['net_amount', 'tax_amount', 'total_amount'] as const
/** How many of each amount's most probable values are weighed together. */
const SUM_RIVALS = 5

/**
 * The net, the tax and the total chosen together: the most probable three values (the product of their
 * probabilities), where three that add up gain `bonus` (a log-odds, learnt with the weights). Each field's own
 * choice stays unless a combination that adds up is likelier by that measure. Three that add up gain nothing when
 * three others that add up are each larger: a table of the tax by rate prints a net, a tax and a gross on each
 * rate's row, and the invoice's are their sums.
 */
function withSumsThatAdd(choices: Map<string, FieldChoice>, bonus: number): void {
  const [net, tax, total] = SUM_FIELDS.map((key) => choices.get(key))
  if (!net || !tax || !total || bonus <= 0) return
  const adds = (n: ValueChoice, t: ValueChoice, g: ValueChoice) =>
    typeof n.value === 'number' &&
    typeof t.value === 'number' &&
    typeof g.value === 'number' &&
    Math.abs(Math.abs(n.value) + Math.abs(t.value) - Math.abs(g.value)) < 0.015
  const [nets, taxes, totals] = [net, tax, total].map((choice) => choice.values.slice(0, SUM_RIVALS)) as [
    ValueChoice[],
    ValueChoice[],
    ValueChoice[],
  ]
  const adding: number[][] = []
  for (const n of nets)
    for (const t of taxes)
      for (const g of totals)
        if (adds(n, t, g)) adding.push([n, t, g].map((v) => Math.abs(v.value as number)))
  const dominated = (parts: number[]) =>
    adding.some((other) => other.every((part, i) => part > (parts[i] as number) + 0.005))
  const score = (n: ValueChoice, t: ValueChoice, g: ValueChoice) => {
    const gains = adds(n, t, g) && !dominated([n, t, g].map((v) => Math.abs(v.value as number)))
    return Math.log(n.probability) + Math.log(t.probability) + Math.log(g.probability) + (gains ? bonus : 0)
  }
  let best = {
    score: score(net.chosen, tax.chosen, total.chosen),
    picks: [net.chosen, tax.chosen, total.chosen],
  }
  for (const n of nets)
    for (const t of taxes)
      for (const g of totals) {
        const s = score(n, t, g)
        if (s > best.score) best = { score: s, picks: [n, t, g] }
      }
  ;[net, tax, total].forEach((choice, i) => {
    choice.chosen = best.picks[i] as ValueChoice
  })
}

/**
 * Each ranked field's values scored by its model, and the value chosen (the two parties chosen together, and the
 * three amounts).
 */
export function chooseValues(
  models: Record<string, Pick<FieldModel, 'features' | 'weights'>>,
  ranked: Map<string, RankedCandidate[]>,
  sumsBonus: number,
): Map<string, FieldChoice> {
  const choices = new Map<string, FieldChoice>()
  for (const [key, candidates] of ranked) {
    const model = models[key]
    const values = model ? valueProbabilities(model, candidates) : []
    if (values[0]) choices.set(key, { values, chosen: values[0] })
  }
  chooseParties(choices)
  withPartyForms(choices)
  withSumsThatAdd(choices, sumsBonus)
  withCompanyOverContact(choices)
  withCompanyOverOfficer(choices)
  withFullNames(choices)
  return choices
}

/**
 * The invoice ranker: for each field it has weights for, every value of the field's type printed in the document
 * is a candidate, scored by learned weights over its features (the general rules' choice among them), and the
 * most probable value is the field's (the two parties chosen together). A value's confidence is the confidence
 * model's probability that it is right (`confidence.ts`), calibrated to its review threshold; an empty field's is
 * the ranker's probability that nothing is printed. Fields without weights keep what the rules read.
 */
export function rankInvoiceFields(
  definitions: FieldDefinition[],
  pages: PageText[],
  fromRules: ExtractedField[],
  weights: RankerWeights = trained as RankerWeights,
  confidence: ConfidenceModel = confidenceWeights,
): ExtractedField[] {
  const contexts = pageContexts(pages)
  const pool = new Map<CandidateKind, ValueCandidate[]>()
  const ranked = new Map<string, RankedCandidate[]>()
  for (const rules of fromRules) {
    const field = definitions.find((d) => d.key === rules.key)
    if (field && weights.fields[rules.key])
      ranked.set(rules.key, candidateFeatures(field, contexts, rules, pool))
  }
  const choices = chooseValues(weights.fields, ranked, weights.sums_bonus)
  const fields = fromRules.map((rules) => {
    const model = weights.fields[rules.key]
    const top = choices.get(rules.key)?.chosen
    if (!model || !top) return rules
    const { candidate } = top.best
    if (!candidate)
      return { ...notFound(rules.key), confidence: calibratedConfidence(top.probability, model.review_below) }
    const label = labelOf(candidate)
    const right = probabilityRight(
      confidence,
      confidenceFeatures(definitions, choices, rules.key, pool.get('money') ?? []),
    )
    return {
      key: rules.key,
      value: top.value,
      confidence: calibratedConfidence(right, confidence.review_below),
      page_number: candidate.context.page.page_number,
      bbox: candidate.bbox,
      method: label.anchor ? 'anchor_right' : 'pattern',
      anchor: label.anchor,
    } satisfies ExtractedField
  })
  // What the document as a whole says of the chosen values: who wrote it, a tax of several rates, a credit's sign.
  const parties = withoutCourtesyTitles(withSelfBilledParties(fields, pages))
  const signed = signedForCreditNote(withTaxOfSeveralRates(parties, pool.get('money') ?? []), pages)
  return withCurrencyOfChosenAmounts(definitions, signed, pages)
}

/**
 * The rules confirm a currency by the amounts they chose; the ranker may choose other amounts (the charged column
 * beside a reference currency's), so the currency printed with those is confirmed again, as far as they are trusted.
 */
function withCurrencyOfChosenAmounts(
  definitions: FieldDefinition[],
  fields: ExtractedField[],
  pages: PageText[],
): ExtractedField[] {
  const chosen = new Map(fields.map((f) => [f.key, f]))
  confirmCurrencyByAmount(definitions, chosen, pages)
  return fields.map((f) => chosen.get(f.key) ?? f)
}

/**
 * A party that is a person is entered by name: the courtesy title the address prints before it goes ("Mme Camille
 * Desrosiers" is "Camille Desrosiers"). A company's name keeps whatever it starts with.
 */
function withoutCourtesyTitles(fields: ExtractedField[]): ExtractedField[] {
  return fields.map((f) => {
    if (!PARTIES.includes(f.key as (typeof PARTIES)[number]) || typeof f.value !== 'string') return f
    if (LEGAL_FORM.test(` ${f.value}`)) return f
    const name = f.value.replace(COURTESY_TITLE, '')
    return name !== f.value && name.split(/\s+/).length >= 2 ? { ...f, value: name } : f
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
