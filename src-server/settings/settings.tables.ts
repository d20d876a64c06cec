import { sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { jsonText, nowIso } from '../platform/db'

/**
 * Platform configuration: one row per key that an admin has changed (defaults live in code); on a team server also
 * the secret key's sealed check (`secret-key-check.ts`), which is no setting.
 */
export const platformConfig = sqliteTable('platform_config', {
  key: text('key').primaryKey(),
  value: jsonText<unknown>('value_json').notNull(),
  description: text('description'),
  updatedAt: text('updated_at').notNull().$defaultFn(nowIso),
  updatedBy: text('updated_by'),
})
