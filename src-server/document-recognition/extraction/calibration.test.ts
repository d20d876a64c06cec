import { describe, expect, it } from 'vitest'
import { DEFAULT_LOW_CONFIDENCE_THRESHOLD as THRESHOLD } from '../../platform/config'
import { calibratedConfidence } from './calibration'

describe('a learned probability as a confidence', () => {
  it('reaches the review threshold exactly at the probability the training chose, and keeps the order', () => {
    for (const reviewBelow of [0.5, 0.8, 0.97]) {
      expect(calibratedConfidence(reviewBelow, reviewBelow)).toBeCloseTo(THRESHOLD, 9)
      expect(calibratedConfidence(reviewBelow - 0.001, reviewBelow)).toBeLessThan(THRESHOLD)
      expect(calibratedConfidence(0, reviewBelow)).toBe(0)
      expect(calibratedConfidence(1, reviewBelow)).toBeCloseTo(1, 9)
      const steps = Array.from({ length: 101 }, (_, i) => calibratedConfidence(i / 100, reviewBelow))
      for (let i = 1; i < steps.length; i++)
        expect(steps[i] as number).toBeGreaterThan(steps[i - 1] as number)
    }
  })
})
