import type { ExtractedField } from './extracted-field'
import type { FieldDefinition } from './field-config'

/**
 * A derived value (an amount from a sum check, a due date from payment terms) is only as good as the values it
 * comes from, and nobody saw it printed: it stays doubtful (below the review threshold) unless a check confirms it.
 */
export const DERIVED = 0.7

const round = (n: number) => Math.round(n * 100) / 100

/**
 * A required amount that was not read (OCR lost "TOTAL RM 28.60" but read "CASH 100.00" and "CHANGE 71.40") is
 * the difference its sum check leaves: `amount_tendered = total_amount + change_amount` gives the total as cash
 * minus change. Only a required field is derived, from a check whose other amounts were all read; the value has
 * no box (nothing on the page reads as it) and is flagged for review by its confidence.
 */
export function deriveMissingAmounts(fields: FieldDefinition[], chosen: Map<string, ExtractedField>): void {
  for (const field of fields) {
    const parts = field.validation?.equals_sum_of ?? []
    if (parts.length === 0) continue
    const keys = [field.key, ...parts]
    const missing = keys.filter((key) => typeof chosen.get(key)?.value !== 'number')
    const target = fields.find((f) => f.key === missing[0])
    if (missing.length !== 1 || !target?.required) continue
    const known = keys.filter((key) => key !== target.key).map((key) => chosen.get(key) as ExtractedField)
    const amount = (key: string) => Number(chosen.get(key)?.value)
    const otherParts = parts.filter((key) => key !== target.key).reduce((sum, key) => sum + amount(key), 0)
    const value = round(target.key === field.key ? otherParts : amount(field.key) - otherParts)
    if (value <= 0) continue
    chosen.set(target.key, {
      key: target.key,
      value,
      confidence: Math.min(...known.map((f) => f.confidence)) * DERIVED,
      page_number: known[0]?.page_number ?? null,
      bbox: null,
      method: 'derived',
      anchor: null,
    })
  }
}
