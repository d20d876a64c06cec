import type { FieldIssue } from '../document-recognition.tables'
import type { ExtractedField } from '../extraction/extracted-field'
import type { FieldDefinition } from '../extraction/field-config'

/**
 * What the extraction itself sends to a reviewer: an empty field (required or not, so a run with gaps reaches the
 * flagged-first queue), unless the extractor is sure the document does not print it; a value below the threshold.
 * The review seed and the benchmark's scoring both flag by it.
 */
export function extractionIssues(
  definition: Pick<FieldDefinition, 'label'>,
  field: Pick<ExtractedField, 'value' | 'confidence' | 'method'> | undefined,
  threshold: number,
): FieldIssue[] {
  const value = field?.value ?? null
  if (value === null)
    return field?.method === 'not_printed'
      ? []
      : [{ kind: 'missing', message: `${definition.label} was not found.` }]
  const confidence = Math.round((field?.confidence ?? 0) * 1000) / 1000
  return confidence < threshold
    ? [
        {
          kind: 'low_confidence',
          message: `${definition.label} was read with confidence ${confidence}, below ${threshold}.`,
        },
      ]
    : []
}
