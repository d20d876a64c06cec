import { type ModelRegistry, parseJsonFromText } from '../../ai'
import { AppError } from '../../platform/errors'
import type { PageText } from '../page-text'
import { type ExtractedField, notFound } from './extracted-field'
import type { ExtractionConfig, FieldDefinition } from './field-config'
import { linesOf } from './layout'
import { locateValue } from './locate'
import { normaliseValue } from './values'

/** A model's answer is accepted with this confidence when its value is found on the page, lower when not. */
const LOCATED_CONFIDENCE = 0.9
const UNLOCATED_CONFIDENCE = 0.5
const MAX_PROMPT_CHARS = 24_000

const jsonType: Record<FieldDefinition['type'], string> = {
  string: 'string',
  number: 'number',
  money: 'number',
  date: 'string',
  enum: 'string',
  boolean: 'boolean',
}

/** The JSON schema the model must answer with: one nullable property per field. */
export function answerSchema(fields: FieldDefinition[]): Record<string, unknown> {
  return {
    type: 'object',
    additionalProperties: false,
    required: fields.map((f) => f.key),
    properties: Object.fromEntries(
      fields.map((f) => [
        f.key,
        {
          type: [jsonType[f.type], 'null'],
          description: `${f.label}${f.type === 'date' ? ' (YYYY-MM-DD)' : ''}${f.enum ? ` (one of ${f.enum.join(', ')})` : ''}`,
        },
      ]),
    ),
  }
}

function fitsSchema(fields: FieldDefinition[], answer: unknown): answer is Record<string, unknown> {
  if (!answer || typeof answer !== 'object' || Array.isArray(answer)) return false
  const record = answer as Record<string, unknown>
  return fields.every((f) => {
    if (!(f.key in record)) return false
    const value = record[f.key]
    return value === null || typeof value === jsonType[f.type]
  })
}

function documentText(pages: PageText[]): string {
  const text = pages
    .map(
      (page) =>
        `--- page ${page.page_number} ---\n${linesOf(page)
          .sort((a, b) => a.bbox[1] - b.bbox[1])
          .map((l) => l.text)
          .join('\n')}`,
    )
    .join('\n')
  return text.slice(0, MAX_PROMPT_CHARS)
}

export interface ModelExtraction {
  fields: ExtractedField[]
  answer: Record<string, unknown>
  mode: 'structured' | 'json_text'
}

/**
 * The model strategy: structured output against the fields' JSON schema first; when the answer does not fit
 * the schema, the same question asking for JSON in plain text, parsed from the reply. Each value is then
 * located on the page for its box.
 */
export async function extractWithModel(
  models: ModelRegistry,
  config: ExtractionConfig,
  pages: PageText[],
  signal: AbortSignal,
): Promise<ModelExtraction> {
  const resolved = models.resolve({ provider: config.model?.provider, model: config.model?.model })
  const schema = answerSchema(config.fields)
  const messages = [
    {
      role: 'system' as const,
      content:
        'You extract fields from a document. Use only values printed in the document; use null when a field is absent.',
    },
    {
      role: 'user' as const,
      content: `Fields: ${config.fields.map((f) => `${f.key} (${f.label})`).join(', ')}\n\n${documentText(pages)}`,
    },
  ]
  let mode: ModelExtraction['mode'] = 'structured'
  let answer: unknown = await models
    .completeJson({ provider: resolved.provider, model: resolved.model, messages, schema, signal })
    .catch((error: unknown) => {
      // A 200 whose text is not JSON is an answer that does not fit: ask again for JSON in text below.
      if (error instanceof AppError && error.code === 'STRUCTURED_OUTPUT_FAILED') return undefined
      throw error
    })
  if (!fitsSchema(config.fields, answer)) {
    mode = 'json_text'
    let text = ''
    const instruction = `Answer with one JSON object only, following this JSON schema:\n${JSON.stringify(schema)}`
    for await (const chunk of models.streamChat({
      provider: resolved.provider,
      model: resolved.model,
      temperature: 0,
      messages: [...messages, { role: 'system', content: instruction }],
      signal,
    }))
      if (chunk.type === 'token') text += chunk.content
    answer = parseJsonFromText(text)
    if (!fitsSchema(config.fields, answer)) throw new Error('The model answer does not match the fields.')
  }
  const record = answer as Record<string, unknown>
  const fields = config.fields.map((field): ExtractedField => {
    const value = normaliseValue(field, record[field.key])
    if (value === null) return notFound(field.key)
    const located = locateValue(field, pages, value)
    return {
      key: field.key,
      value,
      confidence: located ? LOCATED_CONFIDENCE * located.confidence : UNLOCATED_CONFIDENCE,
      page_number: located?.pageNumber ?? null,
      bbox: located?.bbox ?? null,
      method: 'llm',
      anchor: null,
    }
  })
  return { fields, answer: record, mode }
}
