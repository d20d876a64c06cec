import { prepareForOcr } from './pipeline/ocr-image'
import { readPdfText, renderPdfPage } from './pipeline/pdf-pages'

/**
 * Document recognition's CPU-heavy steps, run on worker threads: the text layer, page rendering, and the image
 * tesseract reads (decoding, the line-height pixel loop, resampling).
 */
export const documentRecognitionWorkerTasks = {
  documentText: readPdfText,
  renderPdfPage,
  prepareOcrImage: (input: { bytes: Uint8Array }) => prepareForOcr(input.bytes),
}
