import type { WorkerPool } from '../../jobs/worker-pool'
import type { Embedder } from './embedder'
import { createLocalEmbedder } from './local-embedder'
import { createOpenAiEmbedder } from './openai-embedder'

export {
  BUILTIN_EMBEDDING_DIM,
  BUILTIN_EMBEDDING_MODEL,
  builtinEmbed,
  builtinEmbedMany,
} from './builtin-embedder'
export type { Embedder } from './embedder'
export { embeddingKey } from './embedder'

/**
 * The configured embedder: an OpenAI-compatible endpoint when `SWITCHBOARD_EMBEDDING_MODEL` and
 * `SWITCHBOARD_OPENAI_BASE_URL` are both set, the builtin local embedder otherwise.
 */
export function createEmbedder(workers: WorkerPool, env: NodeJS.ProcessEnv = process.env): Embedder {
  const model = env.SWITCHBOARD_EMBEDDING_MODEL?.trim()
  const baseURL = env.SWITCHBOARD_OPENAI_BASE_URL?.trim()
  if (model && baseURL)
    return createOpenAiEmbedder({ baseURL, apiKey: env.SWITCHBOARD_OPENAI_API_KEY ?? '', model })
  return createLocalEmbedder(workers)
}
