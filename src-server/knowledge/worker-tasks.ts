import { builtinEmbedMany, useLiteEmbed } from '../ai'
import { prepareDocument } from './parsing'

/** Knowledge's CPU-heavy steps, spread into the app's `workerTasks` (src-server/worker-tasks.ts). */
export const knowledgeWorkerTasks = {
  /** Parse (pdfjs, mammoth, html) and chunk one document. */
  knowledgePrepareDocument: prepareDocument,
  /** Builtin embeddings of a batch of texts. */
  knowledgeEmbedBuiltin: (input: { texts: string[] }) => builtinEmbedMany(input.texts),
  /** Universal Sentence Encoder Lite embeddings (loaded on first use, on the dedicated embedding thread). */
  useLiteEmbed,
}
