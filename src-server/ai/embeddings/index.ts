import type { LocalEmbedderName, ServerConfig } from '../../platform/config'
import type { WorkerPool } from '../../platform/jobs'
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

/** The model each shipped embedder writes (its names and the default are in `config.ts`). */
const LOCAL_EMBEDDERS = {
  hashing: BUILTIN_EMBEDDING_MODEL,
  'use-lite': USE_LITE_MODEL,
} as const satisfies Record<LocalEmbedderName, string>

export type EmbedderConfig = Pick<
  ServerConfig,
  'embeddingModel' | 'openAiBaseUrl' | 'openAiApiKey' | 'localEmbedder'
>

/**
 * The configured embedder: an OpenAI-compatible endpoint when an embedding model and the OpenAI base URL are both
 * set, else the local one the configuration names.
 */
export function createEmbedder(workers: WorkerPool, config: EmbedderConfig): Embedder {
  const { embeddingModel: model, openAiBaseUrl: baseURL } = config
  if (model && baseURL) return createOpenAiEmbedder({ baseURL, apiKey: config.openAiApiKey ?? '', model })
  return localEmbedder(config.localEmbedder, workers)
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
