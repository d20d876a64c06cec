import { closeSync, existsSync, openSync } from 'node:fs'
import path from 'node:path'
import Database from 'better-sqlite3'
import { type BetterSQLite3Database, drizzle } from 'drizzle-orm/better-sqlite3'
import * as sqliteVec from 'sqlite-vec'

export type Db = BetterSQLite3Database & { $client: Database.Database }

/** The SQLite database of a data directory. */
export const sqliteFileIn = (dataDir: string) => path.join(dataDir, 'switchboard.db')

/**
 * Opens the data directory's database with the pragmas the whole app relies on:
 * WAL (readers never block the writer), foreign keys, a busy timeout for the rare second connection
 * (worker threads, the backup), temporary storage in memory, and sqlite-vec for vector search.
 */
export function openDatabase(file: string): Db {
  // SQLite gives the WAL and shared-memory files the database file's mode: made 0600 here, all three are.
  if (file !== ':memory:' && !existsSync(file)) closeSync(openSync(file, 'a', 0o600))
  const sqlite = new Database(file)
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('foreign_keys = ON')
  sqlite.pragma('busy_timeout = 5000')
  sqlite.pragma('synchronous = NORMAL')
  // A savepoint keeps the pages it changes in a sub-journal, by default a temporary file past 64 KiB: in memory,
  // a group commit's savepoint per purchase costs little (group-commit.ts).
  sqlite.pragma('temp_store = MEMORY')
  sqliteVec.load(sqlite)
  reusePreparedStatements(sqlite)
  return drizzle(sqlite) as Db
}

/**
 * A second, read-only connection to a database `openDatabase` opened (so already in WAL mode): it reads the last
 * commit, never a transaction the writer has open.
 */
export function openReader(file: string): Db {
  const sqlite = new Database(file, { readonly: true })
  sqlite.pragma('busy_timeout = 5000')
  sqlite.pragma('temp_store = MEMORY')
  sqliteVec.load(sqlite)
  reusePreparedStatements(sqlite)
  return drizzle(sqlite) as Db
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

/**
 * `build` run once per database handle and remembered: statements prepared on first use, for functions that are
 * handed the handle on each call.
 */
export function perHandle<H extends object, T>(build: (handle: H) => T): (handle: H) => T {
  const built = new WeakMap<H, T>()
  return (handle) => {
    let value = built.get(handle)
    if (value === undefined) {
      value = build(handle)
      built.set(handle, value)
    }
    return value
  }
}

/**
 * Runs `work` in a transaction, or as part of the one already open on this connection without a savepoint: a
 * caller that wraps it (the Idempotency-Key claim) makes one transaction of both, and rolls both back on failure.
 */
export function atomically<T>(db: Db, work: () => T): T {
  return db.$client.inTransaction ? work() : db.$client.transaction(work)()
}

/** Shapes a `perShape` keeps per handle: the page size is part of a shape, so clients can ask for many. */
const SHAPES_KEPT = 200

/**
 * Prepared statements of a query whose shape varies (which optional filters are present, the sort, the page size):
 * `build` runs once per handle and shape, with placeholders for the values; `shapeOf` must never include a value.
 * The most recently used SHAPES_KEPT shapes are kept, so no sequence of requests grows them without bound.
 */
export function perShape<H extends object, F, T>(
  shapeOf: (filter: F) => string,
  build: (handle: H, filter: F) => T,
): (handle: H, filter: F) => T {
  const shapes = perHandle((_handle: H) => new Map<string, T>())
  return (handle, filter) => {
    const built = shapes(handle)
    const shape = shapeOf(filter)
    let value = built.get(shape)
    if (value === undefined) {
      value = build(handle, filter)
      if (built.size >= SHAPES_KEPT) built.delete(built.keys().next().value as string)
    } else {
      // Most recently used last.
      built.delete(shape)
    }
    built.set(shape, value)
    return value
  }
}
