import { Ajv } from 'ajv'
import formats from 'ajv-formats'
import type { FastifySchemaCompiler } from 'fastify'

const base = { allErrors: false, useDefaults: true, removeAdditional: true, strict: false } as const

/**
 * Query strings, params and headers arrive as text, so their numbers and booleans are coerced. Bodies are
 * JSON and must already have the right types: `"amount": "10"` is a 422, not a silent conversion.
 */
// ajv-formats is CommonJS with a default export; under ESM interop it may arrive wrapped.
const addFormats = ((formats as unknown as { default?: typeof formats }).default ?? formats) as typeof formats
const coercing = addFormats(new Ajv({ ...base, coerceTypes: 'array' }))
const strictTypes = addFormats(new Ajv({ ...base, coerceTypes: false }))

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? strictTypes : coercing).compile(schema as object)
