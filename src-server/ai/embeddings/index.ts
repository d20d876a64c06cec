import type { WorkerPool } from '../../jobs'
import { BUILTIN_EMBEDDING_MODEL } from './builtin-embedder'
import type { Embedder } from './embedder'
import { createLocalEmbedder } from './local-embedder'
import { createOpenAiEmbedder } from './openai-embedder'
import { createUseLiteEmbedder } from './use-lite-embedder'
import { USE_LITE_MODEL } from './use-lite-model'

export {
  BUILTIN_EMBEDDING_DIM,
  BUILTIN_EMBEDDING_MODEL,
  builtinEmbed,
  builtinEmbedMany,
} from './builtin-embedder'
export type { Embedder } from './embedder'
export { embeddingKey } from './embedder'
export { USE_LITE_DIM, USE_LITE_MODEL } from './use-lite-model'

/** `SWITCHBOARD_LOCAL_EMBEDDER` values: the embedders that ship inside the app. */
export const LOCAL_EMBEDDERS = { hashing: BUILTIN_EMBEDDING_MODEL, 'use-lite': USE_LITE_MODEL } as const
export type LocalEmbedderName = keyof typeof LOCAL_EMBEDDERS
/** Chosen on the retrieval benchmark's held-out queries (ai/embeddings/README.md). */
export const DEFAULT_LOCAL_EMBEDDER: LocalEmbedderName = 'hashing'

/**
 * The configured embedder: an OpenAI-compatible endpoint when `SWITCHBOARD_EMBEDDING_MODEL` and
 * `SWITCHBOARD_OPENAI_BASE_URL` are both set, else the local one named by `SWITCHBOARD_LOCAL_EMBEDDER`
 * (`use-lite` or `hashing`, default `DEFAULT_LOCAL_EMBEDDER`).
 */
export function createEmbedder(workers: WorkerPool, env: NodeJS.ProcessEnv = process.env): Embedder {
  const model = env.SWITCHBOARD_EMBEDDING_MODEL?.trim()
  const baseURL = env.SWITCHBOARD_OPENAI_BASE_URL?.trim()
  if (model && baseURL)
    return createOpenAiEmbedder({ baseURL, apiKey: env.SWITCHBOARD_OPENAI_API_KEY ?? '', model })
  const local = env.SWITCHBOARD_LOCAL_EMBEDDER?.trim()
  const name = local && local in LOCAL_EMBEDDERS ? (local as LocalEmbedderName) : DEFAULT_LOCAL_EMBEDDER
  return localEmbedder(name, workers)
}

function localEmbedder(name: LocalEmbedderName, workers: WorkerPool): Embedder {
  return name === 'use-lite' ? createUseLiteEmbedder() : createLocalEmbedder(workers)
}

/**
 * The local embedder that wrote vectors of `embeddingKey`, if one ships with the app: a source whose new index
 * is still being built keeps being searched with its old one.
 */
export function localEmbedderForKey(embeddingKey: string, workers: WorkerPool): Embedder | null {
  for (const [name, model] of Object.entries(LOCAL_EMBEDDERS))
    if (embeddingKey.startsWith(`builtin:${model}:`)) return localEmbedder(name as LocalEmbedderName, workers)
  return null
}
