import Database from 'better-sqlite3'
import { type BetterSQLite3Database, drizzle } from 'drizzle-orm/better-sqlite3'
import type { BaseSQLiteDatabase } from 'drizzle-orm/sqlite-core'
import * as sqliteVec from 'sqlite-vec'
import { schema } from './schema'

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database }
/** The database or a transaction on it: what repository functions take, so they compose inside `db.transaction`. */
export type Queryable = BaseSQLiteDatabase<'sync', Database.RunResult, typeof schema>

/**
 * Opens the data directory's database with the pragmas the whole app relies on:
 * WAL (readers never block the writer), foreign keys, a busy timeout for the rare second connection
 * (worker threads, the backup), and sqlite-vec for vector search.
 */
export function openDatabase(file: string): Db {
  const sqlite = new Database(file)
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('foreign_keys = ON')
  sqlite.pragma('busy_timeout = 5000')
  sqlite.pragma('synchronous = NORMAL')
  sqliteVec.load(sqlite)
  return drizzle(sqlite, { schema }) as Db
}
