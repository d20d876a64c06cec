import type { FieldValue } from '../../src-server/document-recognition/document-recognition.tables'
import type { ExtractedField } from '../../src-server/document-recognition/extraction/extracted-field'
import type { ExtractionConfig } from '../../src-server/document-recognition/extraction/field-config'
import {
  type CandidateKind,
  kindOf,
  pageContexts,
  type ValueCandidate,
} from '../../src-server/document-recognition/extraction/invoice-ranker/candidates'
import {
  CONFIDENCE_FEATURES,
  type ConfidenceModel,
  chosenWithTaxOfRates,
  confidenceFeatures,
  probabilityRight,
  RANKED_FIELDS,
} from '../../src-server/document-recognition/extraction/invoice-ranker/confidence'
import {
  type Features,
  featureNames,
  sameValue,
} from '../../src-server/document-recognition/extraction/invoice-ranker/features'
import {
  dot,
  type FieldModel,
  featureVector,
  type RankerWeights,
  softmax,
} from '../../src-server/document-recognition/extraction/invoice-ranker/model'
import {
  candidateFeatures,
  chooseValues,
  type RankedCandidate,
  SUM_FIELDS,
} from '../../src-server/document-recognition/extraction/invoice-ranker/rank'
import { extractWithRules } from '../../src-server/document-recognition/extraction/rules'
import { normaliseValue } from '../../src-server/document-recognition/extraction/values'
import type { PageText } from '../../src-server/document-recognition/page-text'
import { readPdfText } from '../../src-server/document-recognition/pipeline/pdf-pages'
import {
  isHeldOut,
  loadFixtureCases,
  shippedExtractorConfig,
} from '../../test/helpers/document-recognition/fixture-accuracy'
import {
  generatedInvoicePdf,
  generateInvoices,
} from '../../test/helpers/document-recognition/generated-invoices'

/**
 * Training of the invoice ranker's weights and of the confidence model over its choices, deterministic: the same
 * generated invoices (fixed seeds), the tuning part of the real invoices (never the held-out part), a fixed number
 * of full-batch gradient steps from zero, and weights rounded to 6 decimals. Running it again gives the committed
 * `weights.json` and `confidence.weights.json` again.
 */
export const TRAINING = {
  generated: 300,
  firstSeed: 1,
  calibration: 160,
  iterations: 300,
  learningRate: 0.5,
  l2: 0.002,
  realWeight: 4,
  unreadWeight: 0.1,
  /**
   * A party's name is printed on nearly every invoice (a logo alone is rare), so "not printed" is learned faintly
   * for seller and buyer: at 0.1 it beat the weaker names of real invoices (no legal form, a person, one word).
   */
  unreadWeightNames: 0.02,
}
const NAME_FIELDS = new Set(['seller_name', 'buyer_name'])
/**
 * Of the wrong values on the calibration documents, the share the review threshold must catch: the target (90 %),
 * not more, since every point above it sends right values to a reviewer.
 */
const WRONG_CAUGHT = 0.9
/** The wrong values out of fold a field needs to place its own review threshold (one in ten sets it). */
const OWN_THRESHOLD_AT = 10
/** Folds for scoring the training documents with weights that did not see them. */
const FOLDS = 4
/** The confidence model's fit: full-batch gradient steps from zero, and a light L2 penalty. */
const CONFIDENCE = { iterations: 2000, learningRate: 2, l2: 0.0005 }

export interface TrainingDocument {
  name: string
  pages: PageText[]
  expected: Record<string, FieldValue>
  /** Other printed forms of an expected value (a party's short and legal name). */
  accepted?: Record<string, FieldValue[]>
  weight: number
  /** What the general rules read from it, with every field of the extractor (as extraction runs them). */
  rules?: ExtractedField[]
}

const withRules = (config: ExtractionConfig, doc: TrainingDocument): ExtractedField[] => {
  doc.rules ??= extractWithRules(config.fields, doc.pages)
  return doc.rules
}

/** One field of one document: its candidates' feature vectors and which of them print the expected value. */
interface Example {
  vectors: number[][]
  values: FieldValue[]
  right: boolean[]
  weight: number
  /** The document as if its value had not been read: for fitting, not for calibrating the review threshold. */
  unread?: boolean
  /** Which document it comes from: folds split documents, so no document is on both sides. */
  document: number
}

export async function trainingDocuments(): Promise<{
  fit: TrainingDocument[]
  calibrate: TrainingDocument[]
  real: string[]
}> {
  const generated = async (count: number, firstSeed: number) => {
    const docs: TrainingDocument[] = []
    for (const invoice of generateInvoices(count, firstSeed))
      docs.push({
        name: invoice.name,
        pages: await readPdfText({ bytes: await generatedInvoicePdf(invoice) }),
        expected: invoice.expected,
        weight: 1,
      })
    return docs
  }
  const real: TrainingDocument[] = []
  for (const fixture of (await loadFixtureCases()).filter((c) => !isHeldOut(c.issuer)))
    real.push({
      name: fixture.name,
      pages: await readPdfText({ bytes: fixture.pdf }),
      expected: fixture.expected,
      accepted: fixture.accepted,
      weight: TRAINING.realWeight,
    })
  return {
    fit: [...(await generated(TRAINING.generated, TRAINING.firstSeed)), ...real],
    calibrate: await generated(TRAINING.calibration, TRAINING.firstSeed + TRAINING.generated),
    real: real.map((d) => d.name),
  }
}

/** One document's ranked fields: each field's candidates with their features, and the forms of its right value. */
interface DocumentFields {
  ranked: Map<string, RankedCandidate[]>
  forms: Map<string, FieldValue[]>
  weight: number
  /** Every amount printed (a tax of several rates is added from them). */
  amounts: ValueCandidate[]
}

function examples(
  config: ExtractionConfig,
  docs: TrainingDocument[],
): { byField: Map<string, Example[]>; documents: DocumentFields[] } {
  const byField = new Map<string, Example[]>(RANKED_FIELDS.map((key) => [key, []]))
  const documents: DocumentFields[] = []
  for (const [document, doc] of docs.entries()) {
    const rules = withRules(config, doc)
    const contexts = pageContexts(doc.pages)
    const pool = new Map<CandidateKind, ValueCandidate[]>()
    const fields: DocumentFields = { ranked: new Map(), forms: new Map(), weight: doc.weight, amounts: [] }
    documents.push(fields)
    for (const key of RANKED_FIELDS) {
      const field = config.fields.find((f) => f.key === key)
      const kind = field && kindOf(field)
      if (!field || !kind || !(key in doc.expected)) continue
      // An expected null is a field the document does not print: the null choice is right.
      const want = normaliseValue(field, doc.expected[key])
      const forms = [want, ...(doc.accepted?.[key] ?? []).map((v) => normaliseValue(field, v))]
      const ranked = candidateFeatures(
        field,
        contexts,
        rules.find((f) => f.key === key) ?? { value: null, confidence: 0 },
        pool,
      )
      fields.ranked.set(key, ranked)
      fields.forms.set(key, want === null ? [] : forms)
      const names = { features: featureNames(kind) }
      const example = {
        vectors: ranked.map((r) => featureVector(names, r.features)),
        values: ranked.map((r) => r.value),
        right: ranked.map((r) =>
          want === null ? r.candidate === null : forms.some((form) => sameValue(r.value, form)),
        ),
        weight: doc.weight,
        document,
      }
      byField.get(key)?.push(example)
      // The same document as if its value had not been read (a faint print, a lost label line): then nothing
      // printed is the field's value, and the empty choice is right.
      if (want !== null) {
        const kept = example.right.map((right, i) => !right || ranked[i]?.candidate === null)
        byField.get(key)?.push({
          vectors: example.vectors.filter((_, i) => kept[i]),
          values: example.values.filter((_, i) => kept[i]),
          right: ranked.filter((_, i) => kept[i]).map((r) => r.candidate === null),
          weight: doc.weight * (NAME_FIELDS.has(key) ? TRAINING.unreadWeightNames : TRAINING.unreadWeight),
          unread: true,
          document,
        })
      }
    }
    fields.amounts = pool.get('money') ?? []
  }
  return { byField, documents }
}

/**
 * The usable examples' non-zero feature entries packed into flat arrays, read in order on every step: a fit is 300
 * passes over them, and arrays of arrays (a vector per candidate) cost more in reaching them than in the sums.
 */
interface Packed {
  /** Per example: its first candidate in `candidateStart`, and its weight over the total. */
  exampleStart: Int32Array
  share: Float64Array
  /** Per candidate: its first entry in `indices` and `values`, and whether it prints the right value. */
  candidateStart: Int32Array
  right: Uint8Array
  indices: Int32Array
  values: Float64Array
}

function pack(usable: Example[]): Packed {
  const total = usable.reduce((a, e) => a + e.weight, 0)
  const candidates = usable.reduce((a, e) => a + e.vectors.length, 0)
  const entries = usable.reduce(
    (a, e) => a + e.vectors.reduce((b, v) => b + v.filter((x) => x !== 0).length, 0),
    0,
  )
  const packed: Packed = {
    exampleStart: new Int32Array(usable.length + 1),
    share: new Float64Array(usable.length),
    candidateStart: new Int32Array(candidates + 1),
    right: new Uint8Array(candidates),
    indices: new Int32Array(entries),
    values: new Float64Array(entries),
  }
  let candidate = 0
  let entry = 0
  usable.forEach((example, e) => {
    packed.exampleStart[e] = candidate
    packed.share[e] = example.weight / total
    example.vectors.forEach((vector, i) => {
      packed.candidateStart[candidate] = entry
      packed.right[candidate] = example.right[i] ? 1 : 0
      candidate += 1
      vector.forEach((x, j) => {
        if (x === 0) return
        packed.indices[entry] = j
        packed.values[entry] = x
        entry += 1
      })
    })
  })
  packed.exampleStart[usable.length] = candidate
  packed.candidateStart[candidates] = entry
  return packed
}

/**
 * Conditional logit: maximises the log of the probability the right candidates get, with an L2 penalty. Each sum
 * adds its terms in the same order as `softmax` and `dot` do (from 0, candidate by candidate, entry by entry), so
 * the weights are the same to the last bit.
 */
function fitWeights(examples: Example[], size: number): number[] {
  const weights = new Float64Array(size)
  const { exampleStart, share, candidateStart, right, indices, values } = pack(
    examples.filter((e) => e.right.some(Boolean)),
  )
  const gradient = new Float64Array(size)
  const p = new Float64Array(right.length)
  for (let step = 0; step < TRAINING.iterations; step++) {
    for (let j = 0; j < size; j++) gradient[j] = -TRAINING.l2 * (weights[j] as number)
    for (let e = 0; e < share.length; e++) {
      const first = exampleStart[e] as number
      const end = exampleStart[e + 1] as number
      let top = Number.NEGATIVE_INFINITY
      for (let i = first; i < end; i++) {
        let score = 0
        for (let k = candidateStart[i] as number; k < (candidateStart[i + 1] as number); k++)
          score += (weights[indices[k] as number] as number) * (values[k] as number)
        p[i] = score
        if (score > top) top = score
      }
      let sum = 0
      for (let i = first; i < end; i++) {
        p[i] = Math.exp((p[i] as number) - top)
        sum += p[i] as number
      }
      let rightMass = 0
      for (let i = first; i < end; i++) {
        p[i] = (p[i] as number) / sum
        if (right[i]) rightMass += p[i] as number
      }
      for (let i = first; i < end; i++) {
        const pi = p[i] as number
        // d log(sum of right p) / d score_i = (right ? p_i / rightMass : 0) - p_i
        const coefficient = ((right[i] ? pi / rightMass : 0) - pi) * (share[e] as number)
        if (coefficient === 0) continue
        for (let k = candidateStart[i] as number; k < (candidateStart[i + 1] as number); k++)
          gradient[indices[k] as number] =
            (gradient[indices[k] as number] as number) + coefficient * (values[k] as number)
      }
    }
    for (let j = 0; j < size; j++)
      weights[j] = (weights[j] as number) + TRAINING.learningRate * (gradient[j] as number)
  }
  return Array.from(weights, (w) => Math.round(w * 1e6) / 1e6)
}

/** The value the weights choose in an example (candidates summed by value), its probability, and whether it is right. */
function chosen(
  weights: number[],
  example: Example,
): { value: FieldValue; probability: number; right: boolean } | null {
  if (example.vectors.length === 0) return null
  const p = softmax(example.vectors.map((v) => dot(weights, v)))
  const byValue: { value: FieldValue; probability: number; right: boolean }[] = []
  example.values.forEach((value, i) => {
    const entry = byValue.find((e) => e.value === value || sameValue(e.value, value))
    if (entry) entry.probability += p[i] as number
    else byValue.push({ value, probability: p[i] as number, right: example.right[i] as boolean })
  })
  return byValue.reduce((a, b) => (b.probability > a.probability ? b : a))
}

/**
 * The probabilities of the wrong values chosen on documents the weights did not see: each fold of the training
 * documents scored by weights fitted on the other folds, and the calibration invoices by the final weights. A
 * wrong "not printed" is left out: an empty field goes to a reviewer whatever its probability.
 */
function wrongProbabilities(
  examples: Example[],
  calibration: Example[],
  weights: number[],
  foldWeights: number[][],
): number[] {
  const wrong: number[] = []
  foldWeights.forEach((outOfFold, fold) => {
    for (const example of examples.filter((e) => e.document % FOLDS === fold && !e.unread)) {
      const top = chosen(outOfFold, example)
      if (top && !top.right && top.value !== null) wrong.push(top.probability)
    }
  })
  for (const example of calibration.filter((e) => !e.unread)) {
    const top = chosen(weights, example)
    if (top && !top.right && top.value !== null) wrong.push(top.probability)
  }
  return wrong
}

/**
 * The probability under which values are flagged: it catches WRONG_CAUGHT of the wrong values given. Fields the
 * ranker rarely gets wrong share one, from their wrong values pooled: one has too few to place its own (one
 * confident mistake among five would set it).
 */
function reviewThreshold(wrongValues: number[]): number {
  const wrong = [...wrongValues].sort((a, b) => a - b)
  const caught = wrong[Math.ceil(wrong.length * WRONG_CAUGHT) - 1]
  return Math.round(Math.min(0.99, Math.max(0.5, (caught ?? 0) + 0.001)) * 1e6) / 1e6
}

/** A value the ranker chose (not "not printed"), the evidence about it, and whether it is right. */
interface ChosenValue {
  vector: number[]
  right: boolean
  weight: number
}

type ModelsOf = (document: number) => Record<string, Pick<FieldModel, 'features' | 'weights'>>

/** The values chosen in each document by the ranker weights `modelsOf` gives for it (weights that did not see it). */
function chosenValues(
  config: ExtractionConfig,
  documents: DocumentFields[],
  modelsOf: ModelsOf,
  sumsBonus: number,
): ChosenValue[] {
  const values: ChosenValue[] = []
  documents.forEach((doc, document) => {
    const choices = chooseValues(modelsOf(document), doc.ranked, sumsBonus)
    const charged = chosenWithTaxOfRates(choices, doc.amounts)
    for (const key of RANKED_FIELDS) {
      const value = choices.get(key)?.chosen.value ?? null
      const forms = doc.forms.get(key)
      if (value === null || !forms) continue
      // A tax of several rates is derived, as sure as the net and the total: the model does not score it.
      if (charged.get(key) !== value) continue
      const features = confidenceFeatures(config.fields, choices, key, doc.amounts)
      values.push({
        vector: featureVector({ features: CONFIDENCE_FEATURES }, features),
        right: forms.some((form) => sameValue(value, form)),
        weight: doc.weight,
      })
    }
  })
  return values
}

/** The bonuses tried for a net, a tax and a total that add up (`rank.ts` `withSumsThatAdd`), smallest first. */
const SUMS_BONUSES = [0, 0.5, 1, 1.5, 2, 3, 4, 6]

/** The weight of the amounts chosen right in `documents` by the weights `modelsOf` gives for each, with `bonus`. */
function rightAmounts(documents: DocumentFields[], modelsOf: ModelsOf, bonus: number): number {
  let right = 0
  documents.forEach((doc, document) => {
    const choices = chooseValues(modelsOf(document), doc.ranked, bonus)
    for (const key of SUM_FIELDS) {
      const forms = doc.forms.get(key)
      if (!forms) continue
      const value = choices.get(key)?.chosen.value ?? null
      if (forms.length === 0 ? value === null : forms.some((form) => sameValue(value, form)))
        right += doc.weight
    }
  })
  return right
}

/**
 * The bonus for amounts that add up that gets the most amounts right on documents the weights did not see: the
 * training documents by the weights of the other folds, the calibration invoices by the final weights. The
 * smallest such bonus wins a tie.
 */
function sumsBonus(
  training: DocumentFields[],
  folds: Record<string, Omit<FieldModel, 'review_below'>>[],
  calibration: DocumentFields[],
  fitted: Record<string, Omit<FieldModel, 'review_below'>>,
): number {
  const scores = SUMS_BONUSES.map(
    (bonus) =>
      rightAmounts(training, (document) => folds[document % FOLDS] ?? {}, bonus) +
      rightAmounts(calibration, () => fitted, bonus),
  )
  return SUMS_BONUSES[scores.indexOf(Math.max(...scores))] as number
}

/** Logistic regression by full-batch gradient ascent from zero (a fixed number of steps), rounded to 6 decimals. */
function fitConfidence(values: ChosenValue[]): number[] {
  const size = CONFIDENCE_FEATURES.length
  const weights = new Array<number>(size).fill(0)
  const total = values.reduce((a, v) => a + v.weight, 0)
  for (let step = 0; step < CONFIDENCE.iterations; step++) {
    const gradient = weights.map((w) => -CONFIDENCE.l2 * w)
    for (const value of values) {
      const p = 1 / (1 + Math.exp(-dot(weights, value.vector)))
      const coefficient = (((value.right ? 1 : 0) - p) * value.weight) / total
      value.vector.forEach((x, j) => {
        if (x !== 0) gradient[j] = (gradient[j] as number) + coefficient * x
      })
    }
    weights.forEach((w, j) => {
      weights[j] = w + CONFIDENCE.learningRate * (gradient[j] as number)
    })
  }
  return weights.map((w) => Math.round(w * 1e6) / 1e6)
}

/**
 * A wrong total, net or tax that breaks the sum between them is flagged whatever its confidence: the validation
 * sends all three to a reviewer (`validate.ts`, `equals_sum_of`).
 */
const SUM_FAILS = CONFIDENCE_FEATURES.indexOf('sum_fails')
const flaggedAnyway = (value: ChosenValue) => value.vector[SUM_FAILS] === 1

/**
 * The confidence model, and its review threshold placed on values no fit of it saw: one fit on the training
 * documents' values (out of fold) scores the calibration invoices', one fit on those scores the training
 * documents'; the threshold catches WRONG_CAUGHT of the wrong values so scored (counting those the sum check
 * flags anyway), and the model kept is fitted on all.
 */
function trainConfidence(training: ChosenValue[], calibration: ChosenValue[]): ConfidenceModel {
  const model = (weights: number[]) => ({ features: CONFIDENCE_FEATURES, weights })
  const wrong = (values: ChosenValue[]) => values.filter((v) => !v.right)
  const scoredBy = (weights: number[], values: ChosenValue[]) =>
    wrong(values)
      .filter((v) => !flaggedAnyway(v))
      .map((v) => probabilityRight(model(weights), featuresOf(v.vector)))
  const probabilities = [
    ...scoredBy(fitConfidence(training), calibration),
    ...scoredBy(fitConfidence(calibration), training),
  ].sort((a, b) => a - b)
  const all = wrong([...training, ...calibration])
  const toCatch = Math.ceil(all.length * WRONG_CAUGHT) - all.filter(flaggedAnyway).length
  const caught = toCatch > 0 ? (probabilities[toCatch - 1] ?? 0) + 0.001 : 0
  return {
    ...model(fitConfidence([...training, ...calibration])),
    review_below: Math.round(Math.min(0.999, caught) * 1e6) / 1e6,
  }
}

const featuresOf = (vector: number[]): Features =>
  Object.fromEntries(CONFIDENCE_FEATURES.map((name, i) => [name, vector[i] as number]))

export interface InvoiceModels {
  ranker: RankerWeights
  confidence: ConfidenceModel
}

export async function trainInvoiceModels(): Promise<InvoiceModels> {
  const config = shippedExtractorConfig('invoice-extractor')
  const docs = await trainingDocuments()
  const fit = examples(config, docs.fit)
  const calibration = examples(config, docs.calibrate)
  const fitted: Record<string, Omit<FieldModel, 'review_below'>> = {}
  const folds: Record<string, Omit<FieldModel, 'review_below'>>[] = Array.from({ length: FOLDS }, () => ({}))
  const wrongByField = new Map<string, number[]>()
  for (const key of RANKED_FIELDS) {
    const field = config.fields.find((f) => f.key === key)
    const kind = field && kindOf(field)
    if (!kind) continue
    const features = featureNames(kind)
    const own = fit.byField.get(key) ?? []
    const weights = fitWeights(own, features.length)
    const foldWeights = folds.map((models, fold) => {
      const outOfFold = fitWeights(
        own.filter((e) => e.document % FOLDS !== fold),
        features.length,
      )
      models[key] = { features, weights: outOfFold }
      return outOfFold
    })
    wrongByField.set(key, wrongProbabilities(own, calibration.byField.get(key) ?? [], weights, foldWeights))
    fitted[key] = { features, weights }
  }
  // Fields with enough wrong values of their own place their own threshold; the others share one from their wrong
  // values pooled (a buyer's confident mistakes do not send every right total to review).
  const ownThreshold = (key: string) => (wrongByField.get(key)?.length ?? 0) >= OWN_THRESHOLD_AT
  const pooled = reviewThreshold(
    [...wrongByField].flatMap(([key, values]) => (ownThreshold(key) ? [] : values)),
  )
  const fields: Record<string, FieldModel> = {}
  for (const [key, model] of Object.entries(fitted)) {
    // The fields differ in how confident their mistakes are (a total's few are sure, a buyer's many are not); a
    // field's own threshold is never under the pooled one.
    const own = wrongByField.get(key) ?? []
    const reviewBelow = ownThreshold(key) ? Math.max(pooled, reviewThreshold(own)) : pooled
    fields[key] = { ...model, review_below: reviewBelow }
  }
  const bonus = sumsBonus(fit.documents, folds, calibration.documents, fitted)
  const confidence = trainConfidence(
    chosenValues(config, fit.documents, (document) => folds[document % FOLDS] ?? {}, bonus),
    chosenValues(config, calibration.documents, () => fitted, bonus),
  )
  return {
    ranker: {
      trained_on: {
        generated: TRAINING.generated,
        first_seed: TRAINING.firstSeed,
        real: docs.real,
        iterations: TRAINING.iterations,
      },
      fields,
      sums_bonus: bonus,
    },
    confidence,
  }
}
