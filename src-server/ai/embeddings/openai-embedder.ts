import { lazyOpenAiClient } from '../openai-client'
import { type Embedder, normalize } from './embedder'

export interface OpenAiEmbedderOptions {
  baseURL: string
  apiKey: string
  model: string
  timeoutMs?: number
}

/** Batch size per request: OpenAI-compatible servers commonly cap inputs per call. */
const BATCH = 64

/** Embeddings from any OpenAI-compatible `/v1/embeddings` endpoint (OpenAI, Ollama, vLLM, LM Studio, ...). */
export function createOpenAiEmbedder(options: OpenAiEmbedderOptions): Embedder {
  const clientOf = lazyOpenAiClient({
    baseURL: options.baseURL,
    apiKey: options.apiKey || 'not-needed',
    timeout: options.timeoutMs ?? 60_000,
    maxRetries: 1,
  })
  let knownDim: number | null = null
  return {
    backendType: 'openai_compatible',
    provider: 'openai',
    model: options.model,
    dim: () => knownDim,
    async embed(texts, signal) {
      const client = await clientOf()
      const vectors: Float32Array[] = []
      for (let start = 0; start < texts.length; start += BATCH) {
        const batch = texts.slice(start, start + BATCH)
        const response = await client.embeddings.create(
          { model: options.model, input: batch, encoding_format: 'float' },
          { signal },
        )
        const data = [...response.data].sort((a, b) => a.index - b.index)
        if (data.length !== batch.length)
          throw new Error(`The embedding server returned ${data.length} vectors for ${batch.length} texts.`)
        for (const item of data) {
          const vector = normalize(Float32Array.from(item.embedding))
          if (knownDim !== null && vector.length !== knownDim)
            throw new Error(`The embedding server changed dimension from ${knownDim} to ${vector.length}.`)
          knownDim = vector.length
          vectors.push(vector)
        }
      }
      return vectors
    },
  }
}
