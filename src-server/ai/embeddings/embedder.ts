/** One interface for every embedding backend: ingestion, retrieval and the readiness check use only this. */
export interface Embedder {
  readonly backendType: 'builtin' | 'openai_compatible'
  readonly provider: string
  readonly model: string
  /** Known up front for the builtin embedder; learnt from the first response for a remote one. */
  dim(): number | null
  /**
   * Cheap enough to run during ingestion (microseconds per chunk): its vectors are written with the chunks.
   * Any other embedder's vectors are filled in by the background embedding job.
   */
  readonly inline?: boolean
  /** L2-normalised vectors, one per text, all of the same length. */
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>
}

/** Identifies the vector space: vectors with different keys are never compared. */
export function embeddingKey(embedder: Embedder, dim: number): string {
  return `${embedder.provider}:${embedder.model}:${dim}`
}

export function normalize(vector: Float32Array): Float32Array {
  let norm = 0
  for (const value of vector) norm += value * value
  if (norm > 0) {
    const scale = 1 / Math.sqrt(norm)
    for (let i = 0; i < vector.length; i++) vector[i] = (vector[i] as number) * scale
  }
  return vector
}
