import type { WorkerPool } from '../../platform/jobs'
import { BUILTIN_EMBEDDING_DIM, BUILTIN_EMBEDDING_MODEL, builtinEmbedMany } from './builtin-embedder'
import type { Embedder } from './embedder'

/** Batches at least this large go to a worker thread; a query's few words are cheaper inline. */
const WORKER_BATCH_CHARS = 20_000

/** The builtin embedder (see builtin-embedder.ts), run off the request thread for ingestion-sized batches. */
export function createLocalEmbedder(workers: WorkerPool): Embedder {
  return {
    backendType: 'builtin',
    provider: 'builtin',
    model: BUILTIN_EMBEDDING_MODEL,
    dim: () => BUILTIN_EMBEDDING_DIM,
    inline: true,
    async embed(texts) {
      const chars = texts.reduce((sum, text) => sum + text.length, 0)
      if (chars < WORKER_BATCH_CHARS) return builtinEmbedMany(texts)
      return workers.run<Float32Array[]>('knowledgeEmbedBuiltin', { texts })
    },
  }
}
