import { sql } from 'drizzle-orm'
import { check, real, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { jsonText, nowIso } from '../platform/db'

/**
 * OpenAI-compatible providers configured by an admin in the console. The API key is stored sealed with the
 * app's SecretBox and never returned. Providers from env (`SWITCHBOARD_OPENAI_*`) are not stored here.
 */
export const modelProvider = sqliteTable('model_provider', {
  id: text('id').primaryKey(),
  baseUrl: text('base_url').notNull(),
  apiKeySealed: text('api_key_sealed'),
  models: jsonText<string[]>('models_json').notNull(),
  createdAt: text('created_at').notNull().$defaultFn(nowIso),
  updatedAt: text('updated_at').notNull().$defaultFn(nowIso).$onUpdateFn(nowIso),
})

/** The global chat defaults (one row, `id = 'global'`); absent means builtin/extractive. */
export const modelDefaults = sqliteTable(
  'model_defaults',
  {
    id: text('id').primaryKey(),
    modelProvider: text('model_provider').notNull(),
    modelName: text('model_name').notNull(),
    modelTemperature: real('model_temperature').notNull(),
    updatedAt: text('updated_at').notNull().$defaultFn(nowIso).$onUpdateFn(nowIso),
  },
  (t) => [check('model_defaults_single_row_check', sql`${t.id} = 'global'`)],
)
