import type { ExtractedField } from './extracted-field'
import type { FieldDefinition } from './field-config'
import { lettersAndDigits } from './values'

export interface ValidationIssue {
  field_key: string
  message: string
}

/** A failed check halves the confidence of the fields it involves: a value that does not add up is doubtful. */
export const FAILED_CHECK_FACTOR = 0.5

const labelOf = (definitions: FieldDefinition[], key: string) =>
  (definitions.find((d) => d.key === key)?.label ?? key).toLowerCase()

/** A day of grace: the document may come from a time zone ahead of the server's. */
const GRACE_MS = 24 * 60 * 60 * 1000

/**
 * Checks min/max, `equals_sum_of` (to the cent), `not_in_future` (an ISO date after tomorrow), `not_before_year`,
 * `not_before` (an ISO date before another field's) and `differs_from` (the same text as another field's); returns
 * the issues and the fields with adjusted confidence.
 */
export function validateFields(
  definitions: FieldDefinition[],
  fields: ExtractedField[],
  now: Date = new Date(),
): { fields: ExtractedField[]; issues: ValidationIssue[] } {
  const byKey = new Map(fields.map((f) => [f.key, { ...f }]))
  const issues: ValidationIssue[] = []
  for (const definition of definitions) {
    const field = byKey.get(definition.key)
    const rules = definition.validation
    if (!field || !rules || field.value === null) continue
    // OCR misreads a year's digit ("29 Mar 2215" for 2018) and the date still parses.
    if (
      rules.not_in_future &&
      typeof field.value === 'string' &&
      Date.parse(field.value) > now.getTime() + GRACE_MS
    )
      issues.push({
        field_key: definition.key,
        message: `${definition.label} (${field.value}) is in the future.`,
      })
    if (
      rules.not_before_year !== undefined &&
      typeof field.value === 'string' &&
      /^\d{4}-/u.test(field.value) &&
      Number(field.value.slice(0, 4)) < rules.not_before_year
    )
      issues.push({
        field_key: definition.key,
        message: `${definition.label} (${field.value}) is before ${rules.not_before_year}.`,
      })
    const earliest = rules.not_before ? byKey.get(rules.not_before) : undefined
    if (
      typeof field.value === 'string' &&
      typeof earliest?.value === 'string' &&
      field.value < earliest.value
    )
      issues.push({
        field_key: definition.key,
        message: `${definition.label} (${field.value}) is before the ${labelOf(definitions, earliest.key)} (${earliest.value}).`,
      })
    const other = rules.differs_from ? byKey.get(rules.differs_from) : undefined
    const otherDefinition = definitions.find((d) => d.key === other?.key)
    if (
      typeof field.value === 'string' &&
      typeof other?.value === 'string' &&
      otherDefinition &&
      lettersAndDigits(field.value) === lettersAndDigits(other.value)
    )
      // Either may be the misread one.
      for (const [mine, theirs] of [
        [definition, otherDefinition],
        [otherDefinition, definition],
      ] as const)
        issues.push({
          field_key: mine.key,
          message: `${mine.label} (${field.value}) is the same as the ${theirs.label.toLowerCase()}.`,
        })
    const value = Number(field.value)
    if (typeof field.value !== 'number' && !Number.isFinite(value)) continue
    if (rules.min !== undefined && value < rules.min)
      issues.push({
        field_key: definition.key,
        message: `${definition.label} is below the minimum ${rules.min}.`,
      })
    if (rules.max !== undefined && value > rules.max)
      issues.push({
        field_key: definition.key,
        message: `${definition.label} is above the maximum ${rules.max}.`,
      })
    const parts = rules.equals_sum_of ?? []
    if (parts.length > 0) {
      const values = parts.map((key) => byKey.get(key)?.value)
      if (values.every((v) => typeof v === 'number')) {
        const sum = (values as number[]).reduce((a, b) => a + b, 0)
        if (Math.abs(sum - value) > 0.01) {
          const message = `${definition.label} (${value}) is not the sum of ${parts.join(' + ')} (${Math.round(sum * 100) / 100}).`
          issues.push({ field_key: definition.key, message })
          for (const key of parts) {
            const part = byKey.get(key)
            if (part) part.confidence *= FAILED_CHECK_FACTOR
          }
        }
      }
    }
  }
  for (const issue of issues) {
    const field = byKey.get(issue.field_key)
    if (field) field.confidence *= FAILED_CHECK_FACTOR
  }
  return { fields: fields.map((f) => byKey.get(f.key) as ExtractedField), issues }
}
