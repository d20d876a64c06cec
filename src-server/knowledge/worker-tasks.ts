import { extractPdfPage, prepareDocument } from './parsing'

/** Knowledge's CPU-heavy steps, spread into the app's `workerTasks` (src-server/worker-tasks.ts). */
export const knowledgeWorkerTasks = {
  /** Parse (pdfjs, mammoth, html) and chunk one document. */
  knowledgePrepareDocument: prepareDocument,
  /** One page of a PDF as a PDF of its own (a cited page). */
  knowledgePdfPage: extractPdfPage,
}
