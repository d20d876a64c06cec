import path from 'node:path'
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres'
import { migrate } from 'drizzle-orm/node-postgres/migrator'
import pg from 'pg'

export type PgDb = NodePgDatabase & { $client: pg.Pool }

/** A pool of connections to the database at `url` (`postgres://user:password@host:port/database`). */
export function openPostgres(url: string, maxConnections = 10): PgDb {
  return drizzle(new pg.Pool({ connectionString: url, max: maxConnections })) as PgDb
}

export const pgMigrationsFolder = (appRoot: string) =>
  path.join(appRoot, 'src-server', 'platform', 'db', 'postgres', 'migrations')

/** Any constant of the database's advisory lock space; only migrations take this one. */
const MIGRATION_LOCK = 7_004_310_021

/**
 * Applies the committed PostgreSQL migrations (drizzle-kit output of `drizzle.pg.config.ts`) in order, skipping the
 * applied ones. Under an advisory lock on one connection: instances starting together apply each migration once
 * (drizzle's migrator reads what is applied, then applies the rest in one transaction, and takes no lock itself).
 */
export async function applyPgMigrations(db: PgDb, appRoot: string): Promise<void> {
  const client = await db.$client.connect()
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK])
    await migrate(drizzle(client), { migrationsFolder: pgMigrationsFolder(appRoot) })
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined)
    client.release()
  }
}

/** Number of migrations recorded as applied (0 before the first). */
export async function appliedPgMigrationCount(db: PgDb): Promise<number> {
  const { rows } = await db.$client.query<{ n: string }>(
    `SELECT CASE WHEN to_regclass('drizzle.__drizzle_migrations') IS NULL THEN 0
            ELSE (SELECT count(*) FROM drizzle.__drizzle_migrations) END AS n`,
  )
  return Number(rows[0]?.n ?? 0)
}

/**
 * What went wrong with the database, for a person: drizzle wraps the server's error ("Failed query: CREATE SCHEMA
 * ...") and the reason ("permission denied for database switchboard") is in its cause, so each cause is added.
 */
export function databaseErrorMessage(error: unknown): string {
  const messages: string[] = []
  for (let cause = error; cause instanceof Error; cause = cause.cause)
    if (cause.message && !messages.includes(cause.message)) messages.push(cause.message)
  return messages.length > 0 ? messages.join(': ') : String(error)
}
