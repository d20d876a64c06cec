import { getTableName, is, type SQL, sql } from 'drizzle-orm'
import { PgDatabase, PgTable } from 'drizzle-orm/pg-core'
import {
  type BaseSQLiteDatabase,
  type SQLiteColumn,
  SQLiteSyncDialect,
  SQLiteTable,
} from 'drizzle-orm/sqlite-core'
import {
  type AfterCommitFailure,
  type Collected,
  collectingAfterCommit,
  runAfterCommit,
  warnAfterCommitFailure,
} from './after-commit'
import { type Db, openReader } from './client'
import { appliedMigrationCount } from './migrate'
import { appliedPgMigrationCount, applyPgMigrations, openPostgres, type PgDb } from './postgres/connection'
import * as generatedPgTables from './postgres/generated-tables'

/**
 * A database or a transaction on it, on either engine: what a converted repository function takes. Typed as
 * SQLite's query builders; on PostgreSQL it is drizzle's node-postgres database with the engine's own tables
 * (`engineTables`), whose JavaScript types the generator keeps equal. Repositories await every builder (drizzle's
 * SQLite builders are thenables too) and never call `.all()/.get()/.run()`, which PostgreSQL's do not have.
 */
export type EngineDb = BaseSQLiteDatabase<'sync', unknown>

/** The server's database on either engine: reads outside transactions, and transactions. */
export interface Database {
  readonly engine: 'sqlite' | 'postgres'
  /** Reads outside a transaction: they see committed rows only, never an open transaction's. */
  readonly reader: EngineDb
  /**
   * Runs `work` in one transaction and settles with its result once committed; every write goes through here. On
   * PostgreSQL `work` may run again (serialization failure, deadlock), so it must do nothing but database work;
   * on SQLite transactions run one at a time. Never call `transact` inside `work`: on SQLite it waits for itself.
   * What `work` registers with `afterCommit(tx, ...)` runs after the commit (outside it: SQLite's next transaction
   * may begin meanwhile), before this settles; nothing of it runs when the transaction rolls back.
   */
  transact<T>(work: (tx: EngineDb) => Promise<T>): Promise<T>
  /** How many migrations are recorded as applied: another process (`npm run db:migrate`, a restore) may change it. */
  appliedMigrations(): Promise<number>
  /** What tells this database and its schema from another (`/healthz`'s fingerprint): never a path or password. */
  schemaIdentity(): Promise<string>
  close(): Promise<void>
}

/** Handles already told apart: drizzle's `is` walks a SQLite handle's whole class chain, and hot paths ask often. */
const engineOf = new WeakMap<object, boolean>()

export function isPostgres(db: EngineDb): boolean {
  let postgres = engineOf.get(db)
  if (postgres === undefined) {
    postgres = is(db, PgDatabase)
    engineOf.set(db, postgres)
  }
  return postgres
}

/**
 * The SQLite engine over the server's writer connection. Transactions take an async mutex around `BEGIN IMMEDIATE
 * ... COMMIT` on the writer; reads go to a second, read-only connection: while a transaction awaits, other requests'
 * continuations run, and on the writer they would read its uncommitted rows (WAL gives the reader the last commit).
 * An in-memory database has no second connection, so there reads share the writer. Anything else writing on the
 * writer (the group commit's pieces) runs under the same mutex.
 */
export function sqliteEngine(
  writer: Db,
  onAfterCommitFailure: AfterCommitFailure = warnAfterCommitFailure,
): Database {
  const file = writer.$client.name
  const separateReader = file !== ':memory:' && file !== ''
  const reader = separateReader ? openReader(file) : writer
  const begin = writer.$client.prepare('BEGIN IMMEDIATE')
  const commit = writer.$client.prepare('COMMIT')
  const rollback = writer.$client.prepare('ROLLBACK')
  const waiting: (() => void)[] = []
  let held = false
  const release = () => {
    const next = waiting.shift()
    if (next) next()
    else held = false
  }
  return {
    engine: 'sqlite',
    reader: reader as unknown as EngineDb,
    async transact<T>(work: (tx: EngineDb) => Promise<T>): Promise<T> {
      // The lock passes from one holder to the next waiting without being free in between.
      if (held) await new Promise<void>((resolve) => waiting.push(resolve))
      else held = true
      let committed: Collected<T>
      try {
        begin.run()
        try {
          committed = await collectingAfterCommit(writer as unknown as EngineDb, work)
          commit.run()
        } catch (error) {
          // Some errors (a full disk, I/O) end the transaction themselves.
          if (writer.$client.inTransaction) rollback.run()
          throw error
        }
      } finally {
        release()
      }
      await runAfterCommit(committed.afterwards, onAfterCommitFailure)
      return committed.result
    },
    appliedMigrations: async () => appliedMigrationCount(writer),
    schemaIdentity: async () => `sqlite:${writer.$client.pragma('schema_version', { simple: true })}`,
    async close() {
      if (reader !== writer) reader.$client.close()
    },
  }
}

/** SQLSTATEs after which the whole transaction may succeed when run again. */
const RETRYABLE = new Set(['40001', '40P01'])
const MAX_ATTEMPTS = 5
const BACKOFF_MS = 5

/** Whether the error (or what it wraps: drizzle wraps the driver's error) is a serialization failure or deadlock. */
function retryable(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause)
    if (RETRYABLE.has((cause as { code?: string }).code ?? '')) return true
  return false
}

/**
 * The PostgreSQL engine: a pool (drizzle's node-postgres driver), transactions at READ COMMITTED, run again on a
 * serialization failure (40001) or a deadlock (40P01) after a jittered, doubling pause, at most 5 attempts.
 */
export function postgresEngine(
  pool: PgDb,
  onAfterCommitFailure: AfterCommitFailure = warnAfterCommitFailure,
): Database {
  return {
    engine: 'postgres',
    reader: pool as unknown as EngineDb,
    async transact<T>(work: (tx: EngineDb) => Promise<T>): Promise<T> {
      let committed: Collected<T>
      for (let attempt = 1; ; attempt++) {
        try {
          // Each attempt collects its own after-commit work: only the one that commits runs it.
          committed = await pool.transaction((tx) => collectingAfterCommit(tx as unknown as EngineDb, work), {
            isolationLevel: 'read committed',
          })
          break
        } catch (error) {
          if (attempt >= MAX_ATTEMPTS || !retryable(error)) throw error
          const pause = BACKOFF_MS * 2 ** (attempt - 1) * (0.5 + Math.random())
          await new Promise((resolve) => setTimeout(resolve, pause))
        }
      }
      await runAfterCommit(committed.afterwards, onAfterCommitFailure)
      return committed.result
    },
    appliedMigrations: () => appliedPgMigrationCount(pool),
    async schemaIdentity() {
      const { rows } = await pool.$client.query<{ id: string }>(
        `SELECT current_database() || ':' || oid AS id FROM pg_database WHERE datname = current_database()`,
      )
      return `postgresql:${rows[0]?.id ?? ''}`
    },
    close: () => pool.$client.end(),
  }
}

/** Opens the database at `url` and applies the PostgreSQL migrations: the server's handle on that engine. */
export async function openPostgresEngine(
  url: string,
  appRoot: string,
  onAfterCommitFailure?: AfterCommitFailure,
): Promise<Database> {
  const pool = openPostgres(url)
  try {
    await applyPgMigrations(pool, appRoot)
  } catch (error) {
    await pool.$client.end()
    throw error
  }
  return postgresEngine(pool, onAfterCommitFailure)
}

const pgTableByName = new Map<string, PgTable>(
  (Object.values(generatedPgTables) as unknown[])
    .filter((value): value is PgTable => is(value, PgTable))
    .map((table) => [getTableName(table), table]),
)

/**
 * A domain's tables on the engine of `db`: the `*.tables.ts` tables on SQLite, their generated PostgreSQL twins
 * (same names, same JavaScript types) on PostgreSQL. A table without a twin fails at load.
 */
export function engineTables<T extends Record<string, SQLiteTable>>(tables: T): (db: EngineDb) => T {
  const twins = Object.fromEntries(
    Object.entries(tables).map(([key, table]) => {
      const twin = pgTableByName.get(getTableName(table))
      if (!twin) throw new Error(`no PostgreSQL table for ${getTableName(table)}: run npm run db:generate:pg`)
      return [key, twin]
    }),
  ) as unknown as T
  return (db) => (isPostgres(db) ? twins : tables)
}

/** The tables among a module's exports. */
type TablesIn<M> = { [K in keyof M as M[K] extends SQLiteTable ? K : never]: M[K] }

/**
 * The tables a `*.tables.ts` module exports (imported whole), leaving out its constants and types: for
 * `engineTables`, so a domain's tables are not listed again beside their import.
 */
export function tablesIn<M extends Record<string, unknown>>(module: M): TablesIn<M> {
  return Object.fromEntries(
    Object.entries(module).filter(([, value]) => is(value, SQLiteTable)),
  ) as TablesIn<M>
}

const sqliteDialect = new SQLiteSyncDialect()

/**
 * Runs a raw `sql` statement on either engine: its rows, under the column names it gives (none for a statement
 * that returns none). Values come as each driver reads them: PostgreSQL gives booleans, parsed jsonb and bigint
 * as text where SQLite gives 0/1, JSON text and numbers, so a query that reads such columns maps them itself.
 */
export async function runSql<T>(db: EngineDb, query: SQL): Promise<T[]> {
  if (isPostgres(db)) return (await (db as unknown as PgDb).execute(query)).rows as T[]
  const { sql: text, params } = sqliteDialect.sqlToQuery(query)
  const statement = (db as unknown as Db).$client.prepare(text)
  if (statement.reader) return statement.all(...params) as T[]
  statement.run(...params)
  return []
}

/**
 * `column = value`, ignoring case as each engine's unique index does: `COLLATE NOCASE` on SQLite (ASCII letters),
 * `lower(...)` on PostgreSQL (whose index is on `lower(column)`), so the lookup uses the index on both.
 */
export function equalsIgnoringCase(db: EngineDb, column: SQLiteColumn, value: string): SQL {
  return isPostgres(db) ? sql`lower(${column}) = lower(${value})` : sql`${column} = ${value} COLLATE NOCASE`
}
