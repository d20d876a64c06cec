/** A small labelled bar chart in SVG: one bar per point, the scale's top in a corner, the value on hover. */
export function BarChart({
  points,
  label,
  height = 160,
}: {
  points: { label: string; value: number }[]
  label: string
  height?: number
}) {
  const width = 640
  const max = Math.max(1, ...points.map((p) => p.value))
  const band = width / Math.max(1, points.length)
  const every = Math.ceil(points.length / 10)
  return (
    <figure className="chart">
      {/* Room on both sides for the first and last axis labels, and above the bars for the scale. */}
      <svg viewBox={`-20 -18 ${width + 40} ${height + 42}`} role="img" aria-label={label}>
        <text x={0} y={-6} className="axis">
          {`highest ${Math.max(0, ...points.map((p) => p.value))}`}
        </text>
        {points.map((point, index) => {
          const barHeight = (point.value / max) * height
          return (
            <g key={point.label}>
              <rect
                x={index * band + 2}
                y={height - barHeight}
                width={Math.max(1, band - 4)}
                height={barHeight}
                className="bar-rule"
              >
                <title>{`${point.label}: ${point.value}`}</title>
              </rect>
              {index % every === 0 ? (
                <text x={index * band + band / 2} y={height + 16} textAnchor="middle" className="axis">
                  {point.label}
                </text>
              ) : null}
            </g>
          )
        })}
      </svg>
      <figcaption className="small muted">{label}</figcaption>
    </figure>
  )
}
