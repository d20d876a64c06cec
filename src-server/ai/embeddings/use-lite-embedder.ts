import { WorkerPool } from '../../platform/jobs'
import type { Embedder } from './embedder'
import { USE_LITE_DIM, USE_LITE_MODEL } from './use-lite-model'

/** Texts per worker call: batches amortise TF.js's per-call cost (about 500 ms for 1 text, 115 ms each for 16). */
const BATCH = 16
/** A batch of 16 long chunks takes 2-4 s on 2 busy cores; past this the thread is assumed hung and replaced. */
const BATCH_TIMEOUT_MS = 120_000

/**
 * One thread for the model, whatever the size of the app's pool: the model costs about 230 MB per thread that
 * loads it. It lives as long as the process (unref'd), so every app instance in a process shares one model.
 */
let embeddingThread: WorkerPool | null = null
const thread = () => {
  embeddingThread ??= new WorkerPool(1)
  return embeddingThread
}

/** Universal Sentence Encoder Lite (see use-lite-model.ts), run on its own worker thread. */
export function createUseLiteEmbedder(): Embedder {
  return {
    backendType: 'builtin',
    provider: 'builtin',
    model: USE_LITE_MODEL,
    dim: () => USE_LITE_DIM,
    async embed(texts, signal) {
      const vectors: Float32Array[] = []
      for (let start = 0; start < texts.length; start += BATCH) {
        if (signal?.aborted) throw signal.reason
        const batch = texts.slice(start, start + BATCH)
        vectors.push(
          ...(await thread().run<Float32Array[]>(
            'useLiteEmbed',
            { texts: batch },
            { timeoutMs: BATCH_TIMEOUT_MS, timeoutMessage: 'The embedding model took too long.' },
          )),
        )
      }
      return vectors
    },
  }
}
