import type { Statement } from 'better-sqlite3'
import { eq, inArray } from 'drizzle-orm'
import { type Db, type EngineDb, engineTables, isPostgres, type Maybe, perHandle } from '../platform/db'
import { platformConfig } from './settings.tables'

const tables = engineTables({ platformConfig })

/** Every stored setting as key -> value; keys never set are absent. */
export async function storedConfigValues(db: EngineDb): Promise<Map<string, unknown>> {
  const { platformConfig } = tables(db)
  const rows = await db.select().from(platformConfig)
  return new Map(rows.map((row) => [row.key, row.value]))
}

/** The stored value of one setting, or undefined when it was never set. */
export async function findConfigValue(db: EngineDb, key: string): Promise<unknown> {
  const { platformConfig } = tables(db)
  const [row] = await db
    .select({ value: platformConfig.value })
    .from(platformConfig)
    .where(eq(platformConfig.key, key))
    .limit(1)
  return row?.value
}

export async function upsertConfig(db: EngineDb, row: typeof platformConfig.$inferInsert): Promise<void> {
  const { platformConfig } = tables(db)
  await db.insert(platformConfig).values(row).onConflictDoUpdate({ target: platformConfig.key, set: row })
}

/** Stores `row` unless its key is stored already (then the stored one stays). */
export async function insertConfigIfAbsent(
  db: EngineDb,
  row: typeof platformConfig.$inferInsert,
): Promise<void> {
  const { platformConfig } = tables(db)
  await db.insert(platformConfig).values(row).onConflictDoNothing({ target: platformConfig.key })
}

/** Plain statements reading a set of keys, one per set (the keys are the code's constants, never input). */
const valuesRead = perHandle((_db: Db) => new Map<string, Statement<string[], [string, string]>>())

/**
 * The stored values of several settings in one statement (a purchase reads three, inside its transaction); keys
 * never set are absent. On SQLite a plain statement prepared once per set, run at once (no round trip to save),
 * and its values are returned as they are, not in a promise.
 */
export function findConfigValues(db: EngineDb, keys: readonly string[]): Maybe<Map<string, unknown>> {
  if (isPostgres(db)) return findConfigValuesOnPg(db, keys)
  return findConfigValuesOnSqlite(db as unknown as Db, keys)
}

async function findConfigValuesOnPg(db: EngineDb, keys: readonly string[]): Promise<Map<string, unknown>> {
  const { platformConfig } = tables(db)
  const rows = await db
    .select({ key: platformConfig.key, value: platformConfig.value })
    .from(platformConfig)
    .where(inArray(platformConfig.key, [...keys]))
  return new Map(rows.map((row) => [row.key, row.value]))
}

function findConfigValuesOnSqlite(db: Db, keys: readonly string[]): Map<string, unknown> {
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
