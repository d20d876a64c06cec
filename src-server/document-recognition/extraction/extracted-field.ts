import type { Bbox, FieldValue } from '../document-recognition.tables'

/** One field as a strategy extracted it, before validation and review. */
export interface ExtractedField {
  key: string
  value: FieldValue
  /** 0..1: OCR or text-layer confidence x match quality (x validation, applied later). */
  confidence: number
  page_number: number | null
  bbox: Bbox | null
  method:
    | 'anchor_right'
    | 'anchor_below'
    | 'pattern'
    | 'header'
    /**
     * Not read on the page but computed from other values: a sum check's missing amount, a due date from the issue
     * date and the payment terms.
     */
    | 'derived'
    | 'e_invoice'
    | 'llm'
    | 'learned'
    | 'not_found'
  anchor: string | null
  /** For `learned`: the run whose review taught the hint. */
  learned_from_run_id?: string
  /** For `learned`: on how many documents its hint was taught or confirmed (it stays flagged below the setting). */
  learned_confirmations?: number
}

export function notFound(key: string): ExtractedField {
  return { key, value: null, confidence: 0, page_number: null, bbox: null, method: 'not_found', anchor: null }
}
