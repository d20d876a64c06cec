import type { FieldValue } from '../document-recognition.tables'
import type { PageText } from '../page-text'
import { calibratedConfidence } from './calibration'
import type { ExtractedField } from './extracted-field'
import { distance } from './header-name'
import weights from './receipt-confidence.weights.json'
import { shopNameChoice } from './shop-name'
import { lettersAndDigits } from './values'

/** The evidence a value read from several OCR readings carries, in the order of the learned weights. */
export const CONFIDENCE_FEATURES = [
  'bias',
  'other_reading_same',
  'read_once',
  'other_reading_likeness',
  'word_confidence',
  'least_word_confidence',
  'name_probability',
  'name_margin',
  'verified',
  'merged',
  'payment_confirms',
  'labelled',
  'derived',
  'passes_checks',
] as const

export interface Evidence {
  /** The values the other readings hold for the field (none when they found nothing). */
  otherValues: FieldValue[]
  valid: boolean
  /** A check that would catch a misreading passed (`verifiedRead`). */
  verified: boolean
  /** The payment lines repeat or balance the amount (`receipt-total.ts`). */
  paymentConfirms: boolean
  /** The value is two readings' names merged letter by letter, so neither reading printed it as it is. */
  merged: boolean
  /** The pages of the reading the value comes from. */
  pages: PageText[]
}

/** Letters and digits, accents aside: the other engine reads the language's letters without them. */
const plain = (value: FieldValue) => lettersAndDigits(String(value ?? ''))

/** How alike two values read, letters and digits only (1 the same, 0 nothing alike or no other value). */
function likeness(value: FieldValue, others: FieldValue[]): number {
  const own = plain(value)
  return Math.max(
    0,
    ...others.map((other) => {
      const theirs = plain(other)
      const longest = Math.max(own.length, theirs.length, 1)
      return 1 - Math.min(longest, distance(own, theirs, longest)) / longest
    }),
  )
}

/** The OCR confidence of the words inside the value's box on its page: their mean and their least. */
function wordConfidence(field: ExtractedField, pages: PageText[]): { mean: number; least: number } {
  const page = pages.find((p) => p.page_number === field.page_number)
  const box = field.bbox
  if (!page || !box) return { mean: field.confidence, least: field.confidence }
  const inside = page.words
    .filter((w) => {
      const x = (w.bbox[0] + w.bbox[2]) / 2
      const y = (w.bbox[1] + w.bbox[3]) / 2
      return x >= box[0] && x <= box[2] && y >= box[1] && y <= box[3]
    })
    .map((w) => w.confidence)
  if (inside.length === 0) return { mean: field.confidence, least: field.confidence }
  return { mean: inside.reduce((a, b) => a + b, 0) / inside.length, least: Math.min(...inside) }
}

export function evidenceFeatures(field: ExtractedField, evidence: Evidence): number[] {
  const words = wordConfidence(field, evidence.pages)
  const header = field.method === 'header'
  const name = header ? shopNameChoice(evidence.pages) : null
  const like = likeness(field.value, evidence.otherValues)
  const values: Record<(typeof CONFIDENCE_FEATURES)[number], number> = {
    bias: 1,
    other_reading_same: like === 1 ? 1 : 0,
    read_once: evidence.otherValues.length === 0 ? 1 : 0,
    other_reading_likeness: like,
    word_confidence: words.mean,
    least_word_confidence: words.least,
    name_probability: name?.probability ?? 0,
    name_margin: name?.margin ?? 0,
    verified: evidence.verified ? 1 : 0,
    merged: evidence.merged ? 1 : 0,
    payment_confirms: evidence.paymentConfirms ? 1 : 0,
    labelled: field.method === 'anchor_right' || field.method === 'anchor_below' ? 1 : 0,
    derived: field.method === 'derived' ? 1 : 0,
    passes_checks: evidence.valid ? 1 : 0,
  }
  return CONFIDENCE_FEATURES.map((f) => values[f])
}

const learned = weights.fields as Record<string, number[] | undefined>

/** The probability that a field's value is right given its evidence, under a model's weights. */
export const probabilityRight = (w: readonly number[], features: number[]) =>
  1 / (1 + Math.exp(-features.reduce((a, x, i) => a + x * (w[i] ?? 0), 0)))

/**
 * A field's confidence from its evidence: the probability that it is right by the logistic weights
 * `scripts/train-receipt-models.ts` fitted on the SROIE tuning receipts, mapped so that the review threshold falls
 * at the probability chosen there (`review_below`, as the invoice ranker's is); null for a field without weights.
 */
export function calibratedReceiptConfidence(key: string, features: number[]): number | null {
  const w = learned[key]
  if (!w) return null
  return calibratedConfidence(probabilityRight(w, features), weights.review_below)
}
