import { type Static, Type } from 'typebox'
import { Value } from 'typebox/value'

export const FIELD_TYPES = ['string', 'number', 'money', 'date', 'enum', 'boolean'] as const

export const FieldDefinition = Type.Object({
  key: Type.String({ pattern: '^[a-z][a-z0-9_]{0,63}$' }),
  label: Type.String({ minLength: 1, maxLength: 200 }),
  type: Type.Enum([...FIELD_TYPES]),
  required: Type.Boolean(),
  /** Labels printed next to the value, in every language the agent reads. */
  anchors: Type.Array(Type.String({ minLength: 1 })),
  pattern: Type.Optional(Type.String({ minLength: 1 })),
  enum: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
  /** Other spellings of enum values as printed ("€" for EUR). */
  aliases: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String({ minLength: 1 })))),
  /**
   * Where the value is when no label names it: `header_name`, the name the document is issued under, read from
   * its header (a seller on an invoice); `shop_name`, a shop's name as printed anywhere on a receipt, chosen among
   * its lines by learned weights and left empty when no line is likely enough (`shop-name.ts`); `foot_total`, a
   * receipt's total as its payment and item lines bear it out, whatever its label's language (`receipt-total.ts`);
   * `anywhere`, the first value of the field's type on the page (a receipt's
   * unlabelled date), more trusted when the document holds only one such value.
   */
  without_label: Type.Optional(Type.Enum(['header_name', 'shop_name', 'foot_total', 'anywhere'])),
  /**
   * Read from several OCR readings, the field's confidence is the probability that its value is right, learned
   * from evidence (readings agreeing, checks passed, a label) on receipts whose values are known
   * (`receipt-confidence.ts`), rather than a product of factors.
   */
  calibrated: Type.Optional(Type.Boolean()),
  /**
   * A due date: when the document prints payment terms ("Net 30", "zahlbar innerhalb 14 Tagen") it is computed
   * from this date field (the issue date), and a printed due date is checked against them.
   */
  payment_terms_from: Type.Optional(Type.String()),
  /**
   * An amount paid in cash, which a till may round to 0.05 (Malaysia, Switzerland, the Netherlands, Australia, ...):
   * the rounded amount printed next below it is the value, and its sums (`may_equal_sum_of`) may hold rounded.
   */
  cash_rounding: Type.Optional(Type.Boolean()),
  /** Which occurrence wins when an anchor appears more than once. */
  prefer: Type.Optional(Type.Enum(['first', 'last', 'max'])),
  /** Element path in a Factur-X / ZUGFeRD (CII) XML, local names joined by `/`. */
  e_invoice: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
  validation: Type.Optional(
    Type.Object({
      min: Type.Optional(Type.Number()),
      max: Type.Optional(Type.Number()),
      equals_sum_of: Type.Optional(Type.Array(Type.String())),
      /**
       * Sums the value may be, any one of them (a receipt's total is its subtotal plus tax, or its subtotal when
       * the tax is included), to the cent or rounded to 0.05 for cash: one that holds confirms the value and
       * chooses among its candidates; none holding is no issue (`extraction/sums.ts`).
       */
      may_equal_sum_of: Type.Optional(
        Type.Array(Type.Array(Type.String(), { minItems: 1 }), { minItems: 1 }),
      ),
      /** A date of something that has happened (a purchase, an issue date): one after today is a misread. */
      not_in_future: Type.Optional(Type.Boolean()),
      /** The earliest year the date can be in: an earlier one is a misread digit ("1812" for "2018"). */
      not_before_year: Type.Optional(Type.Integer()),
      /**
       * The key of a date field this date cannot precede (a due date is not before the issue date): checked in
       * validation, and used by the rules to choose when that field is defined before this one.
       */
      not_before: Type.Optional(Type.String()),
      /**
       * The key of a field naming another thing (a buyer is not the seller): one value read for both is a misread of
       * one of them, and both go to review.
       */
      differs_from: Type.Optional(Type.String()),
    }),
  ),
})
export type FieldDefinition = Static<typeof FieldDefinition>

/** The keys a `document_extraction` config adds to the base runtime agent config. */
export const ExtractionConfig = Type.Object({
  strategy: Type.Enum(['rules', 'llm']),
  fields: Type.Array(FieldDefinition, { minItems: 1, maxItems: 100 }),
  low_confidence_threshold: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  review_sample_rate: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  /**
   * How many times a page without a text layer is read by OCR: 2 reads it a second time with PaddleOCR beside
   * tesseract, in parallel, and takes each field from the reading it is best read in (`extraction/readings.ts`).
   * With the invoice ranker, PaddleOCR reads only a page holding a party name the ranker chose with a word
   * tesseract read unsurely, after the ranker, for that name's letters (`invoice-ranker/second-reading.ts`).
   */
  ocr_readings: Type.Optional(Type.Integer({ minimum: 1, maximum: 2 })),
  /**
   * A page OCR reads with fewer than five amounts is read again as sparse text and the words it lacks are added:
   * tesseract's automatic layout drops a till receipt's amount column (`pipeline/ocr.ts`).
   */
  ocr_reread_sparse: Type.Optional(Type.Boolean()),
  /**
   * `invoice`: after the rules, the invoice ranker (`extraction/invoice-ranker/`) chooses the fields it has learned
   * weights for among every value of their type on the page, the rules' pick being one of its features.
   */
  ranker: Type.Optional(Type.Enum(['invoice'])),
  model: Type.Optional(
    Type.Object({ provider: Type.Optional(Type.String()), model: Type.Optional(Type.String()) }),
  ),
})
export type ExtractionConfig = Static<typeof ExtractionConfig>

export function validateExtractionConfig(config: unknown): string[] {
  if (!Value.Check(ExtractionConfig, config))
    return [...Value.Errors(ExtractionConfig, config)].map((e) => `${e.instancePath || '/'} ${e.message}`)
  const problems: string[] = []
  const keys = new Set<string>()
  for (const field of config.fields) {
    if (keys.has(field.key)) problems.push(`field ${field.key} is defined twice`)
    keys.add(field.key)
    if (field.pattern) {
      try {
        new RegExp(field.pattern, 'iu')
      } catch {
        problems.push(`field ${field.key} has an invalid pattern`)
      }
    }
    if (field.type === 'enum' && !field.enum?.length) problems.push(`field ${field.key} needs enum values`)
  }
  for (const field of config.fields) {
    for (const key of [
      ...(field.validation?.equals_sum_of ?? []),
      ...(field.validation?.may_equal_sum_of ?? []).flat(),
    ])
      if (key === field.key) problems.push(`field ${field.key} is a part of its own sum`)
      else if (!keys.has(key)) problems.push(`field ${field.key} sums the unknown field ${key}`)
    const before = field.validation?.not_before
    if (before !== undefined && !keys.has(before))
      problems.push(`field ${field.key} must not precede the unknown field ${before}`)
    const other = field.validation?.differs_from
    if (other !== undefined && (other === field.key || !keys.has(other)))
      problems.push(`field ${field.key} differs from the unknown field ${other}`)
    if (field.payment_terms_from !== undefined && !keys.has(field.payment_terms_from))
      problems.push(
        `field ${field.key} counts payment terms from the unknown field ${field.payment_terms_from}`,
      )
  }
  return problems
}

/** An agent's own threshold wins over the server's (`LOW_CONFIDENCE_THRESHOLD`, read by `config.ts`). */
export function lowConfidenceThreshold(config: ExtractionConfig, serverThreshold: number): number {
  return config.low_confidence_threshold ?? serverThreshold
}
