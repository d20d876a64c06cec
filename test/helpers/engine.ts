import { randomUUID } from 'node:crypto'
import { inject } from 'vitest'
import { createDatabaseBeside } from './postgres'

/**
 * The engine the converted domains run on in this run: PostgreSQL in the `postgres` and `instances` Vitest
 * projects (which set SWITCHBOARD_TEST_ENGINE and start a cluster), SQLite everywhere else.
 */
export const TEST_ENGINE: 'sqlite' | 'postgres' =
  process.env.SWITCHBOARD_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite'

/**
 * The URL of a fresh PostgreSQL database (a copy of the project's migrated one) on the project's cluster: several
 * handles may open it, as several instances of the server do.
 */
export async function freshPostgresUrl(): Promise<string> {
  const template = inject('postgresTemplate')
  if ('unavailable' in template) throw new Error(template.unavailable)
  return createDatabaseBeside(template.url, `test_${randomUUID().replaceAll('-', '')}`, template.database)
}

/** On PostgreSQL, the URL of a fresh database for the test servers of one test; else undefined (SQLite). */
export async function testDatabaseUrl(): Promise<string | undefined> {
  return TEST_ENGINE === 'postgres' ? freshPostgresUrl() : undefined
}

/** A JSON column as a raw query reads it: JSON text on SQLite, already parsed (jsonb) on PostgreSQL. */
export function storedJson<T = unknown>(value: unknown): T {
  return (typeof value === 'string' && TEST_ENGINE === 'sqlite' ? JSON.parse(value) : value) as T
}
