import { readPdfText, renderPdfPage } from './pipeline/pdf-pages'

/** Document recognition's CPU-heavy steps, run on worker threads: the text layer and page rendering. */
export const documentRecognitionWorkerTasks = {
  documentText: readPdfText,
  renderPdfPage,
}
