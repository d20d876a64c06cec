import { parseArgs } from 'node:util'
import { ConfigError, redactedUrl, resolveConfig } from './platform/config'
import {
  appliedMigrationCount,
  appliedPgMigrationCount,
  applyMigrations,
  applyPgMigrations,
  databaseErrorMessage,
  journalMigrationCount,
  migrationsFolder,
  openDatabase,
  openPostgres,
  pgMigrationsFolder,
  sqliteFileIn,
} from './platform/db'
import { DataDirLockedError, lockDataDir, tightenDataDir } from './platform/storage'

/**
 * `npm run db:migrate`: applies the configured engine's migrations without starting the server (a server applies
 * them itself at start). PostgreSQL with `--database-url` or SWITCHBOARD_DATABASE_URL, else the data directory's
 * SQLite file, which no running server may hold meanwhile.
 */
const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    'database-url': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
})

if (values.help) {
  process.stdout.write(`Usage: npm run db:migrate -- [--data-dir ./data] [--database-url postgres://...]
  Env: SWITCHBOARD_DATA_DIR, SWITCHBOARD_DATABASE_URL.\n`)
  process.exit(0)
}

try {
  const config = resolveConfig({
    ...(values['data-dir'] ? { dataDir: values['data-dir'] } : {}),
    ...(values['database-url'] ? { databaseUrl: values['database-url'] } : {}),
  })
  if (config.databaseUrl) {
    const db = openPostgres(config.databaseUrl, 1)
    try {
      await applyPgMigrations(db, config.appRoot)
      const applied = await appliedPgMigrationCount(db)
      const expected = journalMigrationCount(pgMigrationsFolder(config.appRoot))
      process.stdout.write(
        `PostgreSQL ${redactedUrl(config.databaseUrl)}: ${applied} of ${expected} migrations applied.\n`,
      )
    } finally {
      await db.$client.end()
    }
  } else {
    tightenDataDir(config.dataDir)
    const release = lockDataDir(config.dataDir)
    try {
      const db = openDatabase(sqliteFileIn(config.dataDir))
      applyMigrations(db, config.appRoot)
      const expected = journalMigrationCount(migrationsFolder(config.appRoot))
      process.stdout.write(
        `SQLite ${sqliteFileIn(config.dataDir)}: ${appliedMigrationCount(db)} of ${expected} migrations applied.\n`,
      )
      db.$client.close()
    } finally {
      release()
    }
  }
} catch (error) {
  // As `npm start`: a bad setting exits 2, a data directory a running server holds 3, anything else 1.
  const code = error instanceof ConfigError ? 2 : error instanceof DataDirLockedError ? 3 : 1
  process.stderr.write(`${databaseErrorMessage(error)}\n`)
  process.exit(code)
}
