import { describe, expect, it } from 'vitest'
import { normalise, passes, percentile, ruleScore, summarise, tokenF1 } from './scoring'

describe('rule scores', () => {
  it('normalises case, punctuation, width and spacing before comparing', () => {
    expect(normalise('  Paris!  ')).toBe('paris')
    expect(normalise('ＡＢＣ, def')).toBe('abc def')
  })

  it('scores 1 for an exact match after normalisation, else the token F1', () => {
    expect(ruleScore('Paris', 'paris.')).toEqual({
      score: 1,
      details: { exact_match: true, token_f1: 1, contains_expected: true },
    })
    expect(ruleScore('blue sky', 'The answer is blue sky')).toEqual({
      score: 0.571,
      details: { exact_match: false, token_f1: 0.571, contains_expected: true },
    })
    expect(ruleScore('forty two', 'no idea').score).toBe(0)
    expect(tokenF1('a a b', 'a b b')).toBeCloseTo(2 / 3)
  })

  it('contains-expected matches whole words only', () => {
    expect(ruleScore('cat', 'concatenate').details.contains_expected).toBe(false)
    expect(ruleScore('cat', 'the cat sat').details.contains_expected).toBe(true)
  })

  it('passes on the better of rule and judge score, ignoring a missing judge score', () => {
    expect(passes(0.2, 0.5)).toBe(true)
    expect(passes(0.6, null)).toBe(true)
    expect(passes(0.4, null)).toBe(false)
  })
})

describe('run summary', () => {
  it('averages present scores only, counts errors and judge errors, and takes nearest-rank latencies', () => {
    const summary = summarise([
      { ruleScore: 1, judgeScore: 0.8, judgeError: null, passed: true, latencyMs: 10, error: null },
      { ruleScore: 0, judgeScore: null, judgeError: 'bad json', passed: false, latencyMs: 30, error: null },
      {
        ruleScore: null,
        judgeScore: null,
        judgeError: null,
        passed: false,
        latencyMs: 20,
        error: 'model down',
      },
    ])
    expect(summary).toEqual({
      rule_score_mean: 0.5,
      judge_score_mean: 0.8,
      pass_rate: 0.333,
      errors: 1,
      judge_errors: 1,
      latency_ms_p50: 20,
      latency_ms_p95: 30,
    })
    expect(percentile([], 50)).toBeNull()
  })
})
