import { Ajv, type ValidateFunction } from 'ajv'
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

const compile = (schema: unknown, httpPart: string | undefined): ValidateFunction =>
  (httpPart === 'body' ? strictTypes : coercing).compile(schema as object)

/**
 * A route's validator, compiled by Ajv on the route's first request rather than when the server is built: compiling
 * all of them was about 0.3 s of CPU per server start (each test file builds its own), and most routes of a
 * server a test builds are never called. It is called as Fastify calls Ajv's functions (with the parent data, so
 * coercion and defaults can replace a root value) and hands on Ajv's `errors`.
 */
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  let compiled: ValidateFunction | undefined
  const validate = (data: unknown, context?: object) => {
    compiled ??= compile(schema, httpPart)
    const valid = compiled(data, context as Parameters<ValidateFunction>[1])
    validate.errors = compiled.errors
    return valid
  }
  validate.errors = null as ValidateFunction['errors']
  // Fastify passes the parent data only to functions that carry Ajv's `schemaEnv`.
  validate.schemaEnv = true
  return validate
}

/**
 * The same validators compiled while the server is built, so a schema Ajv cannot compile fails the start and names
 * its route (`route-schemas.test.ts` builds a server with it; the lazy one would only fail on that route's first call).
 */
export const eagerValidatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  compile(schema, httpPart)
