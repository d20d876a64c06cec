import { type Static, Type } from 'typebox'
import { Timestamp } from '../platform/http'
import { CAPABILITIES } from './model-types'

export const ModelDefaultsSchema = Type.Object({
  model_provider: Type.String(),
  model_name: Type.String(),
  model_temperature: Type.Number(),
})

export const ModelCatalogueSchema = Type.Object({
  providers: Type.Array(
    Type.Object({
      id: Type.String(),
      type: Type.String(),
      models: Type.Array(
        Type.Object({ id: Type.String(), capabilities: Type.Array(Type.Enum([...CAPABILITIES])) }),
      ),
    }),
  ),
  defaults: ModelDefaultsSchema,
})

export const ProviderSettingsSchema = Type.Object({
  providers: Type.Array(
    Type.Object({
      id: Type.String(),
      type: Type.String(),
      source: Type.Enum(['env', 'console']),
      base_url: Type.String(),
      models: Type.Array(Type.String()),
      has_api_key: Type.Boolean(),
      updated_at: Type.Union([Timestamp, Type.Null()]),
    }),
  ),
  defaults: ModelDefaultsSchema,
})
export type ProviderSettings = Static<typeof ProviderSettingsSchema>

export const PutProvidersBody = Type.Object({
  providers: Type.Array(
    Type.Object({
      id: Type.String({ pattern: '^[a-z0-9][a-z0-9_-]{0,49}$' }),
      base_url: Type.String({ minLength: 1, maxLength: 500, pattern: '^https?://' }),
      /** Omitted: keep the stored key. null: remove it. */
      api_key: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 1000 }), Type.Null()])),
      models: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
        minItems: 1,
        maxItems: 100,
        uniqueItems: true,
      }),
    }),
    { maxItems: 20 },
  ),
  /** Save without trying the new or changed providers first (a server that is down for now). */
  skip_check: Type.Optional(Type.Boolean()),
  defaults: Type.Optional(
    Type.Object({
      model_provider: Type.String({ minLength: 1 }),
      model_name: Type.String({ minLength: 1 }),
      model_temperature: Type.Number({ minimum: 0, maximum: 2 }),
    }),
  ),
})
export type PutProvidersBody = Static<typeof PutProvidersBody>

export const ProviderParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 50 }) })

export const ProviderCheckSchema = Type.Object({
  ok: Type.Boolean(),
  reachable: Type.Boolean(),
  status: Type.Union([Type.Integer(), Type.Null()]),
  message: Type.String(),
  listed_models: Type.Union([Type.Array(Type.String()), Type.Null()]),
  missing_models: Type.Array(Type.String()),
})
