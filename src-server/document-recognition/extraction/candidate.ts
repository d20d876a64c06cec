import type { ExtractedField } from './extracted-field'

/** A value a label (or a pattern, or the layout) proposes for a field, with how well the layout matched. */
export interface Candidate {
  field: ExtractedField
  score: number
  /** Where it was found among the field's proposals, top to bottom. */
  order: number
  /** Read as an amount OCR commonly misreads it as, not as printed (`sums.ts`). */
  repaired?: boolean
}
