import { describe, expect, it } from 'vitest'
import { textPage } from '../../../test/helpers/document-recognition/text-page'
import type { ExtractedField } from '../extraction/extracted-field'
import type { ExtractionConfig } from '../extraction/field-config'
import { placementIssues } from './run-extraction'

const config = {
  strategy: 'rules',
  fields: [{ key: 'total_amount', label: 'Total', type: 'money', required: true, anchors: ['total'] }],
} as ExtractionConfig
const total = (field: Pick<Partial<ExtractedField>, 'method'>): ExtractedField => ({
  key: 'total_amount',
  value: 28.6,
  confidence: 0.5,
  page_number: 1,
  bbox: null,
  method: 'anchor_right',
  anchor: null,
  ...field,
})

describe('placement issues', () => {
  const page = textPage(['CASH 100.00', 'CHANGE 71.40'])

  it('says a read value without a box was not found, and a computed one that it was worked out', () => {
    expect(placementIssues(config, [total({})], [page])).toEqual([
      { field_key: 'total_amount', message: 'Total was not found on the page.' },
    ])
    expect(placementIssues(config, [total({ method: 'derived' })], [page])).toEqual([
      {
        field_key: 'total_amount',
        message: 'Total is not printed on the page: it was worked out from other values on it.',
      },
    ])
  })
})
