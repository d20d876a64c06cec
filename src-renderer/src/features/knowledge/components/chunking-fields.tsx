import { label, options } from '../../../lib/labels'
import { STRATEGY_DEFAULTS, type Strategy } from '../api/knowledge-api'

/** Each strategy's numeric parameters, with what they mean; `separators` keeps the server's default. */
const PARAMETERS: Record<Strategy, { key: string; label: string; hint: string; step?: number }[]> = {
  recursive: [
    {
      key: 'chunk_size',
      label: 'Chunk size (characters)',
      hint: 'Longest chunk, split at paragraphs first.',
    },
    { key: 'chunk_overlap', label: 'Overlap (characters)', hint: 'Repeated between chunks; below the size.' },
  ],
  fixed_size: [
    { key: 'chunk_size', label: 'Chunk size (characters)', hint: 'Every chunk this long.' },
    { key: 'chunk_overlap', label: 'Overlap (characters)', hint: 'Repeated between chunks; below the size.' },
  ],
  sentence: [
    { key: 'max_sentences', label: 'Sentences per chunk', hint: 'At most this many sentences.' },
    { key: 'chunk_overlap', label: 'Overlap (sentences)', hint: 'Sentences repeated between chunks.' },
  ],
  paragraph: [
    { key: 'target_size', label: 'Target size (characters)', hint: 'Paragraphs joined up to this.' },
  ],
  semantic: [
    { key: 'target_size', label: 'Target size (characters)', hint: 'Sentences joined up to this.' },
    {
      key: 'threshold',
      label: 'Similarity threshold',
      hint: 'From -1 to 1; a new chunk starts below it.',
      step: 0.05,
    },
  ],
}

export type ChunkingDraft = { strategy: Strategy; values: Record<string, string> }

/** A draft form state from a strategy and its parameters (the defaults when none are given). */
export function chunkingDraft(strategy: Strategy, params?: Record<string, unknown>): ChunkingDraft {
  const source = params ?? STRATEGY_DEFAULTS[strategy]
  const values: Record<string, string> = {}
  for (const parameter of PARAMETERS[strategy]) values[parameter.key] = String(source[parameter.key] ?? '')
  return { strategy, values }
}

/** The parameters as the API takes them: numbers, or the raw text so the server names what is wrong. */
export function chunkingParams(draft: ChunkingDraft): Record<string, unknown> {
  const params: Record<string, unknown> = {}
  for (const [key, text] of Object.entries(draft.values)) {
    const number = Number(text)
    params[key] = text.trim() !== '' && Number.isFinite(number) ? number : text
  }
  return params
}

/** The fields the server may name in a validation error, for `useFormErrors`. */
export const chunkingFieldNames = (prefix: string) => [
  `${prefix}_strategy`,
  ...new Set(Object.values(PARAMETERS).flatMap((list) => list.map((p) => `${prefix}_params.${p.key}`))),
]

/** A strategy picker and one number field per parameter of the chosen strategy, each with its error. */
export function ChunkingFields({
  idPrefix,
  draft,
  onChange,
  fieldError,
}: {
  idPrefix: string
  draft: ChunkingDraft
  onChange(draft: ChunkingDraft): void
  fieldError(parameter: string): string | null
}) {
  return (
    <div className="chunking-fields">
      <div className="field">
        <label htmlFor={`${idPrefix}-strategy`}>Chunking</label>
        <select
          id={`${idPrefix}-strategy`}
          value={draft.strategy}
          onChange={(e) => onChange(chunkingDraft(e.target.value as Strategy))}
        >
          {options('chunking_strategy').map((option) => (
            <option key={option.value} value={option.value}>
              {option.text}
            </option>
          ))}
        </select>
      </div>
      {PARAMETERS[draft.strategy].map((parameter) => {
        const id = `${idPrefix}-${parameter.key}`
        const error = fieldError(parameter.key)
        return (
          <div className="field" key={`${draft.strategy}-${parameter.key}`}>
            <label htmlFor={id}>{parameter.label}</label>
            <input
              id={id}
              type="number"
              step={parameter.step ?? 1}
              value={draft.values[parameter.key] ?? ''}
              aria-invalid={error ? true : undefined}
              aria-describedby={`${id}-note`}
              onChange={(e) =>
                onChange({ ...draft, values: { ...draft.values, [parameter.key]: e.target.value } })
              }
            />
            <p id={`${id}-note`} className={error ? 'field-error' : 'field-hint'}>
              {error ?? parameter.hint}
            </p>
          </div>
        )
      })}
    </div>
  )
}

/** One line saying how a source is chunked, in words. */
export function describeChunking(strategy: Strategy, params: Record<string, unknown>): string {
  const parts = PARAMETERS[strategy]
    .filter((parameter) => params[parameter.key] !== undefined)
    .map((parameter) => `${parameter.label.toLowerCase()} ${params[parameter.key]}`)
  return [label('chunking_strategy', strategy), ...parts].join(' · ')
}
