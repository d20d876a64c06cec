import { eq, sql } from 'drizzle-orm'
import { perHandle, type Queryable } from '../db'
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
