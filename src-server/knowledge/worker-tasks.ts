import { prepareDocument } from './parsing'

/** Knowledge's CPU-heavy steps, spread into the app's `workerTasks` (src-server/worker-tasks.ts). */
export const knowledgeWorkerTasks = {
  /** Parse (pdfjs, mammoth, html) and chunk one document. */
  knowledgePrepareDocument: prepareDocument,
}
