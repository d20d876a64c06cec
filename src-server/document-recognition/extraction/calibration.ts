import { DEFAULT_LOW_CONFIDENCE_THRESHOLD } from '../../platform/config'

/**
 * A learned probability of being right as a field's confidence: the review threshold is reached exactly at the
 * probability the training chose for the field (`reviewBelow`); below it a value is flagged, above it trusted in
 * proportion. The invoice ranker and the receipt confidence model both report through it.
 */
export function calibratedConfidence(probability: number, reviewBelow: number): number {
  const threshold = DEFAULT_LOW_CONFIDENCE_THRESHOLD
  if (probability < reviewBelow) return (threshold * probability) / reviewBelow
  return threshold + ((1 - threshold) * (probability - reviewBelow)) / Math.max(1e-9, 1 - reviewBelow)
}
