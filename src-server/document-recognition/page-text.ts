import type { Bbox } from './document-recognition.tables'

/*
 * A page's words with their boxes: what the text layer or OCR reads (pipeline/), and what extraction, learning and
 * review read. Kept at the domain's root so none of those has to reach into another's folder for it.
 */

/** One word on a page: its text, a box as fractions of the page from the top-left, and a 0..1 confidence. */
export interface PageWord {
  text: string
  bbox: Bbox
  confidence: number
  /**
   * The line the OCR engine read this word in, where it reads whole lines (PaddleOCR): such words are grouped into
   * lines by it, not by their boxes. Never stored: a page's stored words are grouped by their boxes.
   */
  line?: number
}

export interface PageText {
  page_number: number
  /** Page size in PDF points. */
  width: number
  height: number
  words: PageWord[]
}
