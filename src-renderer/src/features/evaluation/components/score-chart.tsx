import type { EvaluationResult } from '../api/evaluation-api'

const BUCKETS = 10

/** Histogram of per-sample scores in ten buckets from 0 to 1, rule and judge side by side. */
export function ScoreChart({ results }: { results: EvaluationResult[] }) {
  const count = (pick: (r: EvaluationResult) => number | null) => {
    const buckets = new Array<number>(BUCKETS).fill(0)
    for (const result of results) {
      const score = pick(result)
      if (score !== null && score !== undefined)
        buckets[Math.min(BUCKETS - 1, Math.floor(score * BUCKETS))]! += 1
    }
    return buckets
  }
  const rule = count((r) => r.rule_score)
  const judge = count((r) => r.judge_score)
  const max = Math.max(1, ...rule, ...judge)
  const width = 560
  const height = 180
  const band = width / BUCKETS
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${width} ${height + 24}`} role="img" aria-label="Score distribution">
        {rule.map((n, i) => {
          const ruleHeight = (n / max) * height
          const judgeHeight = ((judge[i] ?? 0) / max) * height
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: buckets are positions on the axis
            <g key={i}>
              <rect
                x={i * band + 6}
                y={height - ruleHeight}
                width={band / 2 - 6}
                height={ruleHeight}
                className="bar-rule"
              >
                <title>{`rule ${(i / BUCKETS).toFixed(1)}–${((i + 1) / BUCKETS).toFixed(1)}: ${n}`}</title>
              </rect>
              <rect
                x={i * band + band / 2}
                y={height - judgeHeight}
                width={band / 2 - 6}
                height={judgeHeight}
                className="bar-judge"
              >
                <title>{`judge ${(i / BUCKETS).toFixed(1)}–${((i + 1) / BUCKETS).toFixed(1)}: ${judge[i]}`}</title>
              </rect>
              <text x={i * band + band / 2} y={height + 16} textAnchor="middle" className="axis">
                {(i / BUCKETS).toFixed(1)}
              </text>
            </g>
          )
        })}
      </svg>
      <figcaption className="small">
        <span className="legend legend-rule" /> rule score <span className="legend legend-judge" /> judge
        score
      </figcaption>
    </figure>
  )
}
