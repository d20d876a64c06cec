import { builtinEmbedMany } from './embeddings/builtin-embedder'
import { useLiteEmbed } from './embeddings/use-lite-model'

/**
 * AI's face for worker threads: the embedders' CPU work, spread into the app's `workerTasks`
 * (src-server/worker-tasks.ts). Kept apart from `index.ts` because a worker thread that loaded the model registry
 * and the OpenAI client with it started in 2.5 s instead of 0.5 s.
 */
export const aiWorkerTasks = {
  /** Builtin embeddings of a batch of texts. */
  knowledgeEmbedBuiltin: (input: { texts: string[] }) => builtinEmbedMany(input.texts),
  /** Universal Sentence Encoder Lite embeddings (loaded on first use, on the dedicated embedding thread). */
  useLiteEmbed,
}

/** For semantic chunking, which runs on a worker thread too. */
export { builtinEmbedMany }
