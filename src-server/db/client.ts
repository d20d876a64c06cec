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
  reusePreparedStatements(sqlite)
  return drizzle(sqlite, { schema }) as Db
}

const STATEMENT_CACHE_SIZE = 500

/**
 * drizzle prepares every query anew, and compiling SQL was a third of a chat request's server time. Statements are
 * kept per SQL text (the most recent 500) and handed out again with their row mode reset, since `raw()`,
 * `pluck()` and `expand()` change a statement for every later caller. Safe because nothing here keeps a
 * statement busy across calls (no `iterate()`).
 */
function reusePreparedStatements(sqlite: Database.Database): void {
  const compile = sqlite.prepare.bind(sqlite)
  const cache = new Map<string, Database.Statement>()
  sqlite.prepare = ((source: string) => {
    let statement = cache.get(source)
    if (statement) {
      cache.delete(source)
      if (statement.reader) statement.raw(false).pluck(false).expand(false)
    } else {
      statement = compile(source)
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string)
    }
    cache.set(source, statement)
    return statement
  }) as typeof sqlite.prepare
}
