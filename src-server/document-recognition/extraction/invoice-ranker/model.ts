import type { Features } from './features'

/** One field's learned ranker: a weight per feature (softmax over the document's candidates, so no bias). */
export interface FieldModel {
  features: string[]
  weights: number[]
  /**
   * The probability of the chosen value under which it goes to a reviewer, calibrated on documents the weights did
   * not see so that 90 % of the wrong values fall below it.
   */
  review_below: number
}

export interface RankerWeights {
  /** What the weights were trained on, so a reader can tell (the training script writes it). */
  trained_on: { generated: number; first_seed: number; real: string[]; iterations: number }
  fields: Record<string, FieldModel>
}

export const featureVector = (model: Pick<FieldModel, 'features'>, features: Features) =>
  model.features.map((name) => features[name] ?? 0)

export const dot = (weights: readonly number[], vector: readonly number[]) =>
  vector.reduce((sum, x, i) => sum + x * (weights[i] as number), 0)

/** The probability of each candidate being the field's value: a softmax of the weighted features. */
export function softmax(scores: number[]): number[] {
  const top = Math.max(...scores)
  const exps = scores.map((s) => Math.exp(s - top))
  const sum = exps.reduce((a, b) => a + b, 0)
  return exps.map((e) => e / sum)
}
