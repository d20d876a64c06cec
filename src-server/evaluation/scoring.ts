import { multisetF1 } from '../ai'
import type { EvaluationSummary, RuleDetails } from './evaluation.tables'

/**
 * Rule scores of one sample. Normalisation: Unicode NFKC, lower case, punctuation removed, whitespace collapsed.
 * `rule_score` is 1 when the normalised output equals the normalised expected answer, else the token F1.
 */
export function normalise(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim()
}

export function tokenF1(expected: string, output: string): number {
  const wanted = normalise(expected).split(' ').filter(Boolean)
  const got = normalise(output).split(' ').filter(Boolean)
  if (wanted.length === 0 || got.length === 0) return wanted.length === got.length ? 1 : 0
  return multisetF1(wanted, got)
}

export function ruleScore(expected: string, output: string): { score: number; details: RuleDetails } {
  const exact = normalise(output) === normalise(expected)
  const f1 = round(tokenF1(expected, output))
  const details = {
    exact_match: exact,
    token_f1: f1,
    contains_expected:
      normalise(expected) !== '' && ` ${normalise(output)} `.includes(` ${normalise(expected)} `),
  }
  return { score: exact ? 1 : f1, details }
}

export const PASS_THRESHOLD = 0.5

/** A sample passes when its better score, rule or judge, reaches the threshold; a missing judge score is ignored. */
export function passes(rule: number | null, judge: number | null): boolean {
  return Math.max(rule ?? 0, judge ?? 0) >= PASS_THRESHOLD
}

export interface ScoredResult {
  ruleScore: number | null
  judgeScore: number | null
  judgeError: string | null
  passed: boolean
  latencyMs: number | null
  error: string | null
}

/** Means skip missing scores (a failed judge is never a 0); pass rate is over every sample of the run. */
export function summarise(results: ScoredResult[]): EvaluationSummary {
  const mean = (values: number[]) =>
    values.length === 0 ? null : round(values.reduce((sum, value) => sum + value, 0) / values.length)
  const present = (values: (number | null)[]) => values.filter((value): value is number => value !== null)
  const latencies = present(results.map((result) => result.latencyMs)).sort((a, b) => a - b)
  return {
    rule_score_mean: mean(present(results.map((result) => result.ruleScore))),
    judge_score_mean: mean(present(results.map((result) => result.judgeScore))),
    pass_rate:
      results.length === 0 ? null : round(results.filter((result) => result.passed).length / results.length),
    errors: results.filter((result) => result.error !== null).length,
    judge_errors: results.filter((result) => result.judgeError !== null).length,
    latency_ms_p50: percentile(latencies, 50),
    latency_ms_p95: percentile(latencies, 95),
  }
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length))
  return sorted[rank - 1] ?? null
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000
}
