import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { migrate } from 'drizzle-orm/better-sqlite3/migrator'
import type { Db } from './client'
import { pgMigrationsFolder } from './postgres/connection'

export const migrationsFolder = (appRoot: string) =>
  path.join(appRoot, 'src-server', 'platform', 'db', 'migrations')

/** Applies the committed migrations (drizzle-kit output) in order; already-applied ones are skipped. */
export function applyMigrations(db: Db, appRoot: string): void {
  migrate(db, { migrationsFolder: migrationsFolder(appRoot) })
}

/** Number of migrations recorded as applied, for the health guard and the database fingerprint. */
export function appliedMigrationCount(db: Db): number {
  const row = db.$client.prepare('SELECT count(*) AS n FROM __drizzle_migrations').get() as { n: number }
  return row.n
}

/** Number of migrations in a folder's journal: what a database of this release must have applied. */
export function journalMigrationCount(migrationsDir: string): number {
  const journal = path.join(migrationsDir, 'meta', '_journal.json')
  return existsSync(journal) ? (JSON.parse(readFileSync(journal, 'utf8')).entries as unknown[]).length : 0
}

/** The migrations a database of this release must have applied, on its engine. */
export function expectedMigrationCount(engine: 'sqlite' | 'postgres', appRoot: string): number {
  return journalMigrationCount(
    engine === 'postgres' ? pgMigrationsFolder(appRoot) : migrationsFolder(appRoot),
  )
}
