import type { TestProject } from 'vitest/node'
import { findAppRoot } from '../../src-server/platform/config'
import { applyPgMigrations, openPostgres } from '../../src-server/platform/db'
import { postgresUnavailable, startPostgres } from './postgres'

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * The cluster of the `postgres` or `instances` project: a database with every migration applied, copied for
     * each test server; or why there is none.
     */
    postgresTemplate: { url: string; database: string } | { unavailable: string }
  }
}

const TEMPLATE = 'switchboard_migrated'

/**
 * Global setup of the `postgres` and `instances` projects: one throwaway cluster for the project's run, and a
 * migrated database that each test server copies (`CREATE DATABASE ... TEMPLATE`, a file copy) instead of migrating
 * its own.
 */
export default async function setup(project: TestProject) {
  const unavailable = postgresUnavailable()
  if (unavailable) {
    project.provide('postgresTemplate', { unavailable })
    return
  }
  const cluster = await startPostgres(TEMPLATE)
  const pool = openPostgres(cluster.url, 1)
  try {
    await applyPgMigrations(pool, findAppRoot())
  } finally {
    await pool.$client.end()
  }
  project.provide('postgresTemplate', { url: cluster.url, database: TEMPLATE })
  return () => cluster.stop()
}
