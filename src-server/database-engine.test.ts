import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import Database from 'better-sqlite3'
import pg from 'pg'
import { afterEach, describe, expect, it } from 'vitest'
import { createSource, upload } from '../test/helpers/knowledge-files'
import { postgresUnavailable, startPostgres } from '../test/helpers/postgres'
import { startTestServer, type TestServer } from '../test/helpers/server'
import { createServer } from './app'
import { ConfigError, findAppRoot, resolveConfig } from './platform/config'
import { journalMigrationCount, migrationsFolder, pgMigrationsFolder } from './platform/db'

const appRoot = findAppRoot()
const run = promisify(execFile)
const tempDir = () => mkdtempSync(path.join(tmpdir(), 'switchboard-engine-'))

let server: TestServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

describe('choosing the database engine', () => {
  it('reads a PostgreSQL URL from SWITCHBOARD_DATABASE_URL or the option, and none means SQLite', () => {
    const url = 'postgres://switchboard:pw@db.internal:5432/switchboard'
    expect(resolveConfig({}, { SWITCHBOARD_DATABASE_URL: url }).databaseUrl).toBe(url)
    expect(resolveConfig({}, { SWITCHBOARD_DATABASE_URL: 'postgresql://h/db' }).databaseUrl).toBe(
      'postgresql://h/db',
    )
    expect(
      resolveConfig({ databaseUrl: url }, { SWITCHBOARD_DATABASE_URL: 'postgres://other/db' }).databaseUrl,
    ).toBe(url)
    expect(resolveConfig({}, { SWITCHBOARD_DATABASE_URL: '  ' }).databaseUrl).toBeNull()
    expect(resolveConfig({}, {}).databaseUrl).toBeNull()
  })

  it('refuses another kind of URL, naming the setting and masking the password', () => {
    const read = () => resolveConfig({}, { SWITCHBOARD_DATABASE_URL: 'mysql://root:hunter2@db/switchboard' })
    expect(read).toThrow(ConfigError)
    expect(read).toThrow(/SWITCHBOARD_DATABASE_URL must be a postgres:\/\/ or postgresql:\/\/ URL/)
    expect(read).not.toThrow(/hunter2/)
    expect(() => resolveConfig({ databaseUrl: 'not a url' }, {})).toThrow(/--database-url/)
  })

  it('keeps blobs in SWITCHBOARD_BLOB_DIR, by default <data dir>/blobs', () => {
    expect(resolveConfig({ dataDir: '/srv/a' }, {}).blobDir).toBe(path.resolve('/srv/a/blobs'))
    expect(resolveConfig({ dataDir: '/srv/a' }, { SWITCHBOARD_BLOB_DIR: '/mnt/shared/blobs' }).blobDir).toBe(
      path.resolve('/mnt/shared/blobs'),
    )
  })

  it('does not start on PostgreSQL yet, says so, and leaves the data directory untouched', async () => {
    const dataDir = path.join(tempDir(), 'data')
    await expect(createServer({ dataDir, databaseUrl: 'postgres://u@127.0.0.1:1/db' })).rejects.toThrow(
      /PostgreSQL engine is not complete yet/,
    )
    expect(existsSync(dataDir)).toBe(false)
  })
})

describe('the blob directory', () => {
  it('receives the blobs the server stores, and the backup copies it', async () => {
    const blobDir = path.join(tempDir(), 'shared-blobs')
    server = await startTestServer({ blobDir })
    const headers = await server.adminHeaders()
    const sourceId = await createSource(server, headers)
    const uploaded = await upload(server, headers, sourceId, [
      { name: 'notes.txt', data: Buffer.from('blobs live where the team server says') },
    ])
    expect(uploaded.statusCode).toBe(201)
    expect(filesUnder(blobDir)).toHaveLength(1)
    expect(filesUnder(path.join(server.dataDir, 'blobs'))).toHaveLength(0)

    const backup = await server.app.inject({ method: 'POST', url: '/api/admin/backup', headers })
    expect(backup.json().blob_files).toBe(1)
  })
})

describe('/healthz', () => {
  it('reports the engine and whether the database has every migration of this release', async () => {
    server = await startTestServer()
    const health = async () => (await server?.app.inject({ method: 'GET', url: '/healthz' }))?.json()
    expect(await health()).toMatchObject({ status: 'ok', engine: 'sqlite', migrations_current: true })
    // Another process (an older release's restore, say) leaves the database a migration short.
    server.app.ctx.db.$client
      .prepare(
        'DELETE FROM __drizzle_migrations WHERE created_at = (SELECT max(created_at) FROM __drizzle_migrations)',
      )
      .run()
    expect(await health()).toMatchObject({ engine: 'sqlite', migrations_current: false })
  })
})

describe('npm run db:migrate', () => {
  const migrate = (args: string[], env: Record<string, string> = {}) =>
    run(process.execPath, ['--import', 'tsx', 'src-server/db-migrate.ts', ...args], {
      cwd: appRoot,
      env: { ...process.env, SWITCHBOARD_DATABASE_URL: '', ...env },
    })

  it('applies the SQLite migrations to a data directory without starting the server', async () => {
    const dataDir = path.join(tempDir(), 'data')
    const { stdout } = await migrate(['--data-dir', dataDir])
    const expected = journalMigrationCount(migrationsFolder(appRoot))
    expect(stdout).toContain(`${expected} of ${expected} migrations applied`)
    const sqlite = new Database(path.join(dataDir, 'switchboard.db'), { readonly: true })
    expect(sqlite.prepare('SELECT count(*) FROM __drizzle_migrations').pluck().get()).toBe(expected)
    sqlite.close()
  })

  it('refuses a data directory a running server holds (exit 3)', async () => {
    server = await startTestServer()
    await expect(migrate(['--data-dir', server.dataDir])).rejects.toMatchObject({ code: 3 })
  })

  const unavailable = postgresUnavailable()
  it.skipIf(unavailable)(
    `applies the PostgreSQL migrations to SWITCHBOARD_DATABASE_URL${unavailable ? ` (skipped: ${unavailable})` : ''}`,
    async () => {
      const cluster = await startPostgres()
      try {
        const { stdout } = await migrate([], { SWITCHBOARD_DATABASE_URL: cluster.url })
        const expected = journalMigrationCount(pgMigrationsFolder(appRoot))
        expect(stdout).toContain(`${expected} of ${expected} migrations applied`)
        const client = new pg.Client({ connectionString: cluster.url })
        await client.connect()
        const { rows } = await client.query('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations')
        await client.end()
        expect(rows[0].n).toBe(expected)
      } finally {
        await cluster.stop()
      }
    },
  )
})

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name)
}
