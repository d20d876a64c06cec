import type { ExtractedField } from './extracted-field'
import weights from './receipt-confidence.weights.json'

/** The evidence a value read from several OCR readings carries, in the order of the learned weights. */
export const CONFIDENCE_FEATURES = [
  'bias',
  'readings_agree',
  'read_once',
  'readings_disagree',
  'passes_checks',
  'verified',
  'confidence',
  'labelled',
  'header_line',
  'derived',
  'payment_confirms',
] as const

export interface Evidence {
  /** How many readings hold this value, how many hold another, how many readings there are. */
  agreeing: number
  others: number
  readings: number
  valid: boolean
  /** A check that would catch a misreading passed (`verifiedRead`). */
  verified: boolean
  /** The payment lines repeat or balance the amount (`receipt-total.ts`). */
  paymentConfirms: boolean
}

export function evidenceFeatures(field: ExtractedField, evidence: Evidence): number[] {
  const values: Record<(typeof CONFIDENCE_FEATURES)[number], number> = {
    bias: 1,
    readings_agree: evidence.agreeing === evidence.readings ? 1 : 0,
    read_once: evidence.agreeing === 1 && evidence.others === 0 && evidence.readings > 1 ? 1 : 0,
    readings_disagree: evidence.others > 0 ? 1 : 0,
    passes_checks: evidence.valid ? 1 : 0,
    verified: evidence.verified ? 1 : 0,
    confidence: field.confidence,
    labelled: field.method === 'anchor_right' || field.method === 'anchor_below' ? 1 : 0,
    header_line: field.method === 'header' ? 1 : 0,
    derived: field.method === 'derived' ? 1 : 0,
    payment_confirms: evidence.paymentConfirms ? 1 : 0,
  }
  return CONFIDENCE_FEATURES.map((f) => values[f])
}

const learned = weights.fields as Record<string, number[] | undefined>

/**
 * The probability that a field's value is right given its evidence, by the logistic weights
 * `scripts/train-receipt-models.ts` fitted on the SROIE tuning receipts; null for a field it has no weights for.
 */
export function calibratedConfidence(key: string, features: number[]): number | null {
  const w = learned[key]
  if (!w) return null
  return 1 / (1 + Math.exp(-features.reduce((a, x, i) => a + x * (w[i] ?? 0), 0)))
}
