/**
 * The chunking strategies and their parameters (units are characters, or sentences where the name says so).
 * `normalizeChunkingParams` is the one validator: sources, updates and ingest requests all go through it.
 */
export const CHUNKING_STRATEGIES = ['fixed_size', 'sentence', 'paragraph', 'semantic', 'recursive'] as const
export type ChunkingStrategy = (typeof CHUNKING_STRATEGIES)[number]

export interface FixedSizeParams {
  chunk_size: number
  chunk_overlap: number
}
export interface SentenceParams {
  max_sentences: number
  chunk_overlap: number
}
export interface ParagraphParams {
  target_size: number
}
export interface SemanticParams {
  target_size: number
  threshold: number
}
export interface RecursiveParams {
  chunk_size: number
  chunk_overlap: number
  separators: string[]
}

export type ChunkingParams =
  | FixedSizeParams
  | SentenceParams
  | ParagraphParams
  | SemanticParams
  | RecursiveParams

export interface ParamsByStrategy {
  fixed_size: FixedSizeParams
  sentence: SentenceParams
  paragraph: ParagraphParams
  semantic: SemanticParams
  recursive: RecursiveParams
}

export const DEFAULT_CHUNKING_PARAMS: { [S in ChunkingStrategy]: ParamsByStrategy[S] } = {
  fixed_size: { chunk_size: 1000, chunk_overlap: 200 },
  sentence: { max_sentences: 5, chunk_overlap: 0 },
  paragraph: { target_size: 1200 },
  semantic: { target_size: 1200, threshold: 0.75 },
  recursive: { chunk_size: 1000, chunk_overlap: 200, separators: ['\n\n', '\n', '. ', ' ', ''] },
}

/** Sizes above this are refused: a chunk is meant to fit a model's context next to others. */
export const MAX_CHUNK_CHARS = 100_000

export interface ParamIssue {
  field: string
  message: string
}

export type NormalizeResult = { ok: true; params: ChunkingParams } | { ok: false; issues: ParamIssue[] }

const isInteger = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value)

/** Fills defaults and checks every key; unknown keys, sizes below 1 and overlap >= size are issues. */
export function normalizeChunkingParams(
  strategy: ChunkingStrategy,
  given: Record<string, unknown> | undefined,
  field = 'chunking_params',
): NormalizeResult {
  const defaults = DEFAULT_CHUNKING_PARAMS[strategy] as unknown as Record<string, unknown>
  const issues: ParamIssue[] = []
  const params: Record<string, unknown> = { ...defaults }
  for (const [key, value] of Object.entries(given ?? {})) {
    if (!(key in defaults)) {
      issues.push({ field: `${field}.${key}`, message: `is not a parameter of the ${strategy} strategy` })
      continue
    }
    params[key] = value
  }
  // A smaller chunk_size given alone keeps a proportionate default overlap instead of an invalid 200.
  if (
    (strategy === 'fixed_size' || strategy === 'recursive') &&
    given?.chunk_overlap === undefined &&
    isInteger(params.chunk_size)
  )
    params.chunk_overlap = Math.max(
      0,
      Math.min(defaults.chunk_overlap as number, Math.floor(params.chunk_size / 5)),
    )
  const needInteger = (key: string, min: number) => {
    const value = params[key]
    if (!isInteger(value) || value < min || value > MAX_CHUNK_CHARS)
      issues.push({
        field: `${field}.${key}`,
        message: `must be an integer from ${min} to ${MAX_CHUNK_CHARS}`,
      })
  }
  switch (strategy) {
    case 'fixed_size':
    case 'recursive':
      needInteger('chunk_size', 1)
      needInteger('chunk_overlap', 0)
      break
    case 'sentence':
      needInteger('max_sentences', 1)
      needInteger('chunk_overlap', 0)
      break
    case 'paragraph':
      needInteger('target_size', 1)
      break
    case 'semantic': {
      needInteger('target_size', 1)
      const threshold = params.threshold
      if (typeof threshold !== 'number' || !(threshold >= -1 && threshold <= 1))
        issues.push({ field: `${field}.threshold`, message: 'must be a number from -1 to 1' })
      break
    }
  }
  const size = strategy === 'sentence' ? params.max_sentences : params.chunk_size
  if (
    (strategy === 'fixed_size' || strategy === 'recursive' || strategy === 'sentence') &&
    isInteger(size) &&
    isInteger(params.chunk_overlap) &&
    params.chunk_overlap >= size
  )
    issues.push({
      field: `${field}.chunk_overlap`,
      message: `must be smaller than ${strategy === 'sentence' ? 'max_sentences' : 'chunk_size'}`,
    })
  if (strategy === 'recursive') {
    const separators = params.separators
    if (
      !Array.isArray(separators) ||
      separators.length === 0 ||
      separators.length > 20 ||
      !separators.every((s) => typeof s === 'string' && s.length <= 20)
    )
      issues.push({
        field: `${field}.separators`,
        message: 'must be a list of 1 to 20 strings of at most 20 characters',
      })
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, params: params as unknown as ChunkingParams }
}
