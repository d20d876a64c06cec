/** A small labelled bar chart in SVG: one bar per point, the value on hover. */
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
      <svg viewBox={`0 0 ${width} ${height + 24}`} role="img" aria-label={label}>
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
