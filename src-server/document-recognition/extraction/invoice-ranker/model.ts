import type { Features } from './features'

/** One field's learned ranker: a weight per feature (softmax over the document's candidates, so no bias). */
export interface FieldModel {
  features: string[]
  weights: number[]
  /**
   * The ranker's probability calibrated on documents the weights did not see so that 90 % of its wrong values fall
   * below it: the confidence of a field found not printed is that probability against it (a value found has the
   * confidence model's, `confidence.ts`).
   */
  review_below: number
}

export interface RankerWeights {
  /** What the weights were trained on, so a reader can tell (the training script writes it). */
  trained_on: { generated: number; first_seed: number; real: string[]; iterations: number }
  fields: Record<string, FieldModel>
  /**
   * What a net, a tax and a total that add up gain, in log-odds, when the three are chosen together (`rank.ts`
   * `withSumsThatAdd`): the training script picks it as the one that gets most amounts right on documents the
   * weights did not see.
   */
  sums_bonus: number
}

export const featureVector = (model: Pick<FieldModel, 'features'>, features: Features) =>
  model.features.map((name) => features[name] ?? 0)

export const dot = (weights: readonly number[], vector: readonly number[]) =>
  vector.reduce((sum, x, i) => sum + x * (weights[i] as number), 0)

const featureIndexes = new WeakMap<readonly string[], Map<string, number>>()

/**
 * `dot(weights, featureVector(model, features))` from the features a candidate has (a few dozen of a model's one
 * hundred and more), added in the model's order so the sum is the same to the last bit.
 */
export function weightedSum(model: Pick<FieldModel, 'features' | 'weights'>, features: Features): number {
  let indexes = featureIndexes.get(model.features)
  if (!indexes) {
    indexes = new Map(model.features.map((name, i) => [name, i]))
    featureIndexes.set(model.features, indexes)
  }
  const present: number[] = []
  for (const name in features) {
    const i = indexes.get(name)
    if (i !== undefined) present.push(i)
  }
  present.sort((a, b) => a - b)
  let sum = 0
  for (const i of present) sum += (features[model.features[i] as string] ?? 0) * (model.weights[i] as number)
  return sum
}

/** The probability of each candidate being the field's value: a softmax of the weighted features. */
export function softmax(scores: number[]): number[] {
  const top = Math.max(...scores)
  const exps = scores.map((s) => Math.exp(s - top))
  const sum = exps.reduce((a, b) => a + b, 0)
  return exps.map((e) => e / sum)
}
