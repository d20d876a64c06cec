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
import { candidateFeatures } from '../../src-server/document-recognition/extraction/invoice-ranker/rank'
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
 * Training of the invoice ranker's weights, deterministic: the same generated invoices (fixed seeds), the tuning
 * part of the real invoices (never the held-out part), a fixed number of full-batch gradient steps from zero, and
 * weights rounded to 6 decimals. Running it again gives the committed `weights.json` byte for byte.
 */
export const RANKED_FIELDS = [
  'invoice_number',
  'invoice_date',
  'net_amount',
  'tax_amount',
  'total_amount',
  'seller_name',
  'buyer_name',
]
export const TRAINING = {
  generated: 200,
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

function examples(config: ExtractionConfig, docs: TrainingDocument[]): Map<string, Example[]> {
  const byField = new Map<string, Example[]>(RANKED_FIELDS.map((key) => [key, []]))
  for (const [document, doc] of docs.entries()) {
    const rules = withRules(config, doc)
    const contexts = pageContexts(doc.pages)
    const pool = new Map<CandidateKind, ValueCandidate[]>()
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
  }
  return byField
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
  size: number,
): number[] {
  const wrong: number[] = []
  for (let fold = 0; fold < FOLDS; fold++) {
    const outOfFold = fitWeights(
      examples.filter((e) => e.document % FOLDS !== fold),
      size,
    )
    for (const example of examples.filter((e) => e.document % FOLDS === fold && !e.unread)) {
      const top = chosen(outOfFold, example)
      if (top && !top.right && top.value !== null) wrong.push(top.probability)
    }
  }
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

export async function trainRankerWeights(): Promise<RankerWeights> {
  const config = shippedExtractorConfig('invoice-extractor')
  const docs = await trainingDocuments()
  const byField = examples(config, docs.fit)
  const calibration = examples(config, docs.calibrate)
  const fitted: Record<string, Omit<FieldModel, 'review_below'>> = {}
  const wrongByField = new Map<string, number[]>()
  for (const key of RANKED_FIELDS) {
    const field = config.fields.find((f) => f.key === key)
    const kind = field && kindOf(field)
    if (!kind) continue
    const features = featureNames(kind)
    const own = byField.get(key) ?? []
    const weights = fitWeights(own, features.length)
    const wrongOfField = wrongProbabilities(own, calibration.get(key) ?? [], weights, features.length)
    wrongByField.set(key, wrongOfField)
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
  return {
    trained_on: {
      generated: TRAINING.generated,
      first_seed: TRAINING.firstSeed,
      real: docs.real,
      iterations: TRAINING.iterations,
    },
    fields,
  }
}
