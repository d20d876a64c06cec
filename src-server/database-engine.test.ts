import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync } from 'node:fs'
import { createServer as createHttpServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import Database from 'better-sqlite3'
import pg from 'pg'
import { afterEach, describe, expect, it } from 'vitest'
import { createSource, upload } from '../test/helpers/knowledge-files'
import { postgresUnavailable, startPostgres } from '../test/helpers/postgres'
import { startTestServer, type TestServer } from '../test/helpers/server'
import {
  client,
  freePort,
  PROCESS_ADMIN_PASSWORD,
  type ServerProcess,
  startServerProcess,
  until,
} from '../test/helpers/server-process'
import { createServer } from './app'
import { ConfigError, findAppRoot, redactedUrl, resolveConfig } from './platform/config'
import { journalMigrationCount, migrationsFolder, pgMigrationsFolder } from './platform/db'

const appRoot = findAppRoot()
const run = promisify(execFile)
const tempDir = () => mkdtempSync(path.join(tmpdir(), 'switchboard-engine-'))
const postgresMissing = postgresUnavailable()
/** The key every instance of one team server is given. */
const TEAM_KEY = '4f9b2c7d1e8a3f6b0c5d9e2a7b4c1f8e3d6a9b2c5f8e1d4a7b0c3f6e9d2a5b8c'

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
    // A password with an unencoded `/`, `#` or `@`, or in the query, shows no part either.
    for (const password of [
      'Hunter7/Secret9@Tail4',
      'Hunter7#Secret9@Tail4',
      'Hunter7/Secret9:Tail4@More5',
    ]) {
      const unreadable = () =>
        resolveConfig({}, { SWITCHBOARD_DATABASE_URL: `postgres://sw:${password}@db/x` })
      expect(unreadable).toThrow(ConfigError)
      for (const part of password.split(/[/#@:]/)) expect(unreadable).not.toThrow(new RegExp(part))
    }
    expect(() => resolveConfig({ databaseUrl: 'not a url' }, {})).toThrow(/--database-url/)
  })

  it('masks every part of a password in a URL a message shows, parsed or not, in the query too', () => {
    for (const url of [
      'postgres://sw:Hunter7@Secret9#Tail4@db:5432/x',
      'postgres://sw:Hunter7?Secret9@db:5432/x',
      'postgres:sw:Hunter7@db:5432/x',
      'postgres://db:5432/x?sslmode=require&password=Hunter7&sslpassword=Secret9',
    ]) {
      const shown = redactedUrl(url)
      for (const part of ['Hunter7', 'Secret9', 'Tail4']) expect(shown).not.toContain(part)
      expect(shown).toContain('db:5432/x')
    }
  })

  it('keeps blobs in SWITCHBOARD_BLOB_DIR, by default <data dir>/blobs', () => {
    expect(resolveConfig({ dataDir: '/srv/a' }, {}).blobDir).toBe(path.resolve('/srv/a/blobs'))
    expect(resolveConfig({ dataDir: '/srv/a' }, { SWITCHBOARD_BLOB_DIR: '/mnt/shared/blobs' }).blobDir).toBe(
      path.resolve('/mnt/shared/blobs'),
    )
  })

  it('refuses a database URL without the secret key every instance shares, and leaves the data directory', async () => {
    const dataDir = path.join(tempDir(), 'data')
    await expect(
      createServer({ dataDir, databaseUrl: 'postgres://u@127.0.0.1:1/db', secretKey: '' }),
    ).rejects.toThrow(/SWITCHBOARD_SECRET_KEY is required with a database URL/)
    expect(existsSync(dataDir)).toBe(false)
  })

  it('names a database it cannot reach as a setting to fix, with the password masked', async () => {
    const dataDir = path.join(tempDir(), 'data')
    const opening = createServer({
      dataDir,
      databaseUrl: `postgres://switchboard:hunter2@127.0.0.1:${await freePort()}/db`,
      secretKey: TEAM_KEY,
    })
    await expect(opening).rejects.toThrow(ConfigError)
    await expect(opening).rejects.toThrow(/database at postgres:\/\/\*\*\*@127\.0\.0\.1:\d+\/db could not/)
    await expect(opening).rejects.not.toThrow(/hunter2/)
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
    server
      .sqlite()
      .$client.prepare(
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

  it.skipIf(postgresMissing)(
    `applies the PostgreSQL migrations to SWITCHBOARD_DATABASE_URL${postgresMissing ? ` (skipped: ${postgresMissing})` : ''}`,
    async () => {
      const cluster = await startPostgres()
      try {
        // A login that may not create in the database: the exit names the database's reason, not only the query.
        const admin = new pg.Client({ connectionString: cluster.url })
        await admin.connect()
        await admin.query('CREATE ROLE visitor LOGIN')
        await admin.end()
        const visitor = new URL(cluster.url)
        visitor.username = 'visitor'
        await expect(migrate([], { SWITCHBOARD_DATABASE_URL: visitor.toString() })).rejects.toMatchObject({
          code: 1,
          stderr: expect.stringMatching(/permission denied for database/),
        })

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
    // A cluster of its own: initdb, its start and every migration take most of a minute on a busy machine.
    120_000,
  )
})

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name)
}

describe.skipIf(postgresMissing)(
  'a team server: two `npm start` processes on one PostgreSQL database',
  () => {
    it('start together and share accounts, encrypted credentials, blobs and jobs; backup is pg_dump’s', async () => {
      const cluster = await startPostgres()
      const models = await startModelListing('sk-team-key')
      const blobDir = path.join(tempDir(), 'shared-blobs')
      const dataDirs = [path.join(tempDir(), 'a'), path.join(tempDir(), 'b')]
      const env = {
        SWITCHBOARD_DATABASE_URL: cluster.url,
        SWITCHBOARD_BLOB_DIR: blobDir,
        SWITCHBOARD_SECRET_KEY: TEAM_KEY,
      }
      const processes: ServerProcess[] = []
      try {
        // Started at the same moment: one applies the migrations and installs the shipped agents, the other waits.
        const [a, b] = (await Promise.all(
          dataDirs.map(async (dataDir) => {
            const started = await startServerProcess(dataDir, env)
            processes.push(started)
            return started
          }),
        )) as [ServerProcess, ServerProcess]
        const [healthA = {}, healthB = {}] = await Promise.all(
          [a, b].map(
            async ({ url }) => (await (await fetch(`${url}/healthz`)).json()) as Record<string, unknown>,
          ),
        )
        expect(healthA).toMatchObject({ engine: 'postgresql', migrations_current: true, guard_state: 'ok' })
        expect(healthB).toMatchObject({ engine: 'postgresql', migrations_current: true })
        expect(healthB.database_fingerprint).toBe(healthA.database_fingerprint)
        expect(healthB.app_instance).not.toBe(healthA.app_instance)
        for (const dataDir of dataDirs) expect(existsSync(path.join(dataDir, 'switchboard.db'))).toBe(false)

        // An account made through A signs in through B.
        const adminA = await client(a.url, 'admin', PROCESS_ADMIN_PASSWORD)
        const created = await adminA.call('POST', '/api/admin/users', {
          username: 'carol',
          password: 'carol-password-1',
          roles: ['user'],
        })
        expect(created.status).toBe(201)
        const carolB = await client(b.url, 'carol', 'carol-password-1')

        // A provider's key sealed by A is unsealed by B, which has heard of the new provider.
        const saved = await adminA.call('PUT', '/api/admin/model-providers', {
          providers: [{ id: 'team', base_url: models.url, models: ['m1'], api_key: 'sk-team-key' }],
          skip_check: true,
        })
        expect(saved.status).toBe(200)
        const adminB = await client(b.url, 'admin', PROCESS_ADMIN_PASSWORD)
        // B hears of the provider within a notification's delay.
        await expect
          .poll(() => adminB.call('POST', '/api/admin/model-providers/team/test'), { timeout: 15_000 })
          .toMatchObject({ status: 200, body: { ok: true, reachable: true, listed_models: ['m1'] } })

        // A file uploaded through B is ingested by a job queued through A and read back through A.
        const source = await carolB.call('POST', '/knowledge-sources', { name: 'Team notes' })
        const form = new FormData()
        form.append('file', new Blob(['The harbour opens at six.'], { type: 'text/plain' }), 'notes.txt')
        const uploaded = await carolB.call('POST', `/knowledge-sources/${source.body.id}/documents`, form)
        expect(uploaded.status).toBe(201)
        const documentId = uploaded.body.id as string
        const carolA = await client(a.url, 'carol', 'carol-password-1')
        const queued = await carolA.call('POST', `/knowledge-sources/${source.body.id}/ingest`, {})
        expect(queued.status).toBe(202)
        const job = await until(
          () => carolA.call('GET', `/ingestion-jobs/${queued.body.id}`),
          ({ body }) => body.status !== 'queued' && body.status !== 'running',
        )
        expect(job.body.status).toBe('succeeded')
        const file = await fetch(
          `${a.url}/knowledge-sources/${source.body.id}/documents/${documentId}/file`,
          {
            headers: carolA.headers,
          },
        )
        expect(await file.text()).toBe('The harbour opens at six.')
        const stored = new pg.Client({ connectionString: cluster.url })
        await stored.connect()
        const { rows } = await stored.query(
          'SELECT attempts::int AS attempts, status FROM job WHERE id = $1',
          [queued.body.id],
        )
        await stored.end()
        expect(rows).toEqual([{ attempts: 1, status: 'succeeded' }])

        // The data is PostgreSQL's to back up: the SQLite backup is refused and writes nothing.
        const backup = await adminA.call('POST', '/api/admin/backup')
        expect(backup).toMatchObject({ status: 409, body: { error: { code: 'BACKUP_BY_POSTGRESQL' } } })
        expect(existsSync(path.join(dataDirs[0] as string, 'backups'))).toBe(false)
      } finally {
        await Promise.all(processes.map((started) => started.stop()))
        await models.close()
        await cluster.stop()
      }
    }, 240_000)
  },
)

/** An OpenAI-compatible model listing that answers only requests bearing `key` (401 otherwise). */
async function startModelListing(key: string) {
  const server = createHttpServer((request, response) => {
    const known = request.headers.authorization === `Bearer ${key}`
    response.writeHead(known ? 200 : 401, { 'content-type': 'application/json' })
    response.end(
      JSON.stringify(
        known ? { object: 'list', data: [{ id: 'm1', object: 'model' }] } : { error: { message: 'bad key' } },
      ),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
