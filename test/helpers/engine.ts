import { randomUUID } from 'node:crypto'
import { inject, it } from 'vitest'
import { findAppRoot } from '../../src-server/platform/config'
import { type Database, openPostgresEngine } from '../../src-server/platform/db'
import { createDatabaseBeside } from './postgres'

/**
 * The engine the converted domains run on in this run: PostgreSQL in the `postgres` Vitest project (which sets
 * SWITCHBOARD_TEST_ENGINE and starts a cluster), SQLite everywhere else.
 */
export const TEST_ENGINE: 'sqlite' | 'postgres' =
  process.env.SWITCHBOARD_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite'

/** On PostgreSQL, the address of a fresh database (a copy of the project's migrated one); else undefined. */
export async function freshPostgresUrl(): Promise<string | undefined> {
  if (TEST_ENGINE !== 'postgres') return undefined
  const template = inject('postgresTemplate')
  if ('unavailable' in template) throw new Error(template.unavailable)
  return createDatabaseBeside(template.url, `test_${randomUUID().replaceAll('-', '')}`, template.database)
}

/** On PostgreSQL, a fresh database for one test server; else undefined. */
export async function convertedDomainsDatabase(): Promise<Database | undefined> {
  const url = await freshPostgresUrl()
  return url === undefined ? undefined : openPostgresEngine(url, findAppRoot())
}

/**
 * `it`, or on PostgreSQL a skipped test whose title names the domain it needs that does not run there yet: a test
 * of a converted domain that goes through another one (an admin's user change writes the admin audit log).
 */
export function itNeedsConverted(domain: string) {
  if (TEST_ENGINE === 'sqlite') return it
  return (title: string, test: () => Promise<void>, timeout?: number) =>
    it.skip(`${title} (skipped on PostgreSQL: ${domain} does not run there yet)`, test, timeout)
}
