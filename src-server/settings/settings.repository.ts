import type { Statement } from 'better-sqlite3'
import { eq, sql } from 'drizzle-orm'
import { type Db, perHandle, type Queryable } from '../platform/db'
import { platformConfig } from './settings.tables'

/** Every stored setting as key -> value; keys never set are absent. */
export function storedConfigValues(db: Queryable): Map<string, unknown> {
  return new Map(
    db
      .select()
      .from(platformConfig)
      .all()
      .map((row) => [row.key, row.value]),
  )
}

/** The read built once per database handle: purchases read the commission rate and the earn cap every time. */
const valueRead = perHandle((db: Queryable) =>
  db
    .select({ value: platformConfig.value })
    .from(platformConfig)
    .where(eq(platformConfig.key, sql.placeholder('key')))
    .prepare(),
)

/** The stored value of one setting, or undefined when it was never set. */
export function findConfigValue(db: Queryable, key: string): unknown {
  return valueRead(db).get({ key })?.value
}

export function upsertConfig(db: Queryable, row: typeof platformConfig.$inferInsert): void {
  db.insert(platformConfig).values(row).onConflictDoUpdate({ target: platformConfig.key, set: row }).run()
}

/** Plain statements reading a set of keys, one per set (the keys are the code's constants, never input). */
const valuesRead = perHandle((_db: Db) => new Map<string, Statement<string[], [string, string]>>())

/** The stored values of several settings in one statement; keys never set are absent. */
export function findConfigValues(db: Db, keys: readonly string[]): Map<string, unknown> {
  const shape = keys.join(',')
  const statements = valuesRead(db)
  let read = statements.get(shape)
  if (!read) {
    read = db.$client
      .prepare<string[], [string, string]>(
        `SELECT key, value_json FROM platform_config WHERE key IN (${keys.map(() => '?').join(', ')})`,
      )
      .raw()
    statements.set(shape, read)
  }
  return new Map(read.all(...keys).map(([key, value]) => [key, JSON.parse(value)]))
}
