import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PassThrough } from 'node:stream'
import { pathToFileURL } from 'node:url'
import type { SQL } from 'drizzle-orm'
import { type App, type CreateServerOptions, createServer } from '../../src-server/app'
import { findAppRoot } from '../../src-server/platform/config'
import { applyMigrations, type Db, openDatabase, runSql, sqliteFileIn } from '../../src-server/platform/db'
import { TEST_ENGINE, testDatabaseUrl } from './engine'

export const ADMIN_PASSWORD = 'admin-password-for-tests'
/**
 * scrypt at a 32nd of the real cost (about 2 ms of CPU a hash instead of 90): a test server hashes three passwords as
 * it starts and one for each user a test signs in. Tests about hashing (sign-in limits) pass `PASSWORD_COST`.
 */
export const TEST_PASSWORD_COST = { N: 2 ** 10, r: 8, p: 1 }
/** The key every test server on PostgreSQL shares, as the instances of a team server must. */
const TEST_SECRET_KEY = 'a3f1c2e4b5d6978867564534231201f0e1d2c3b4a5968778695a4b3c2d1e0f12'

export interface TestServer {
  app: App
  dataDir: string
  /** Every log line the server wrote, for asserting that secrets never appear in logs. */
  logs(): string
  /**
   * Rows of a raw query on the server's database (SQLite, or PostgreSQL in the `postgres` project): for asserting on
   * stored state. Write SQL both engines read (`"user"` quoted, `CAST(count(*) AS integer)`).
   */
  rows<T>(query: SQL): Promise<T[]>
  /** A raw write on that database in its own transaction: stored state a test places (an entry's date). */
  write(query: SQL): Promise<void>
  /** Bearer headers for a user, created with these roles on first use (password `password-<username>`). */
  headersFor(username: string, roles?: string[]): Promise<Record<string, string>>
  adminHeaders(): Promise<Record<string, string>>
  /** The SQLite connection, for a test about SQLite itself; throws on PostgreSQL. */
  sqlite(): Db
  /** Listen on loopback for tests where the protocol matters (SSE, WebSocket, multipart streams). */
  listen(): Promise<string>
  close(): Promise<void>
}

/** A server's SQLite connection, for a test or benchmark about SQLite itself; throws on PostgreSQL. */
export function sqliteOf(app: App): Db {
  if (!app.ctx.sqlite) throw new Error(`this reads SQLite itself; the server runs on ${TEST_ENGINE}`)
  return app.ctx.sqlite
}

let migratedDatabase: string | undefined

/**
 * The reading processes' and worker threads' entries of the server bundle Vitest built for the run
 * (`server-bundle-setup.ts`): started through tsx from the sources, each cost about half a CPU second more and held
 * more memory.
 */
const bundled = (file: string) =>
  process.env.SWITCHBOARD_TEST_SERVER_BUNDLE
    ? pathToFileURL(path.join(path.dirname(process.env.SWITCHBOARD_TEST_SERVER_BUNDLE), file))
    : undefined
const bundledEntries = { readingProcessEntry: bundled('task-process.js'), workerEntry: bundled('worker.js') }

/**
 * Puts a database with every migration applied into a fresh data dir, copied from one this process migrated once:
 * applying the migrations was three quarters of a test server's start. They still run as in production wherever a
 * test brings its own data dir, in the migration replay tests and in every e2e and reliability server process.
 */
function copyMigratedDatabase(dataDir: string) {
  if (!migratedDatabase) {
    const dir = mkdtempSync(path.join(tmpdir(), 'switchboard-migrated-'))
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }))
    const db = openDatabase(sqliteFileIn(dir))
    applyMigrations(db, findAppRoot())
    // Closing the only connection checkpoints the WAL into the file and removes it.
    db.$client.close()
    migratedDatabase = sqliteFileIn(dir)
  }
  copyFileSync(migratedDatabase, sqliteFileIn(dataDir))
}

/**
 * A real server on a fresh temp data dir; `inject` for plain JSON routes, `listen()` for real HTTP. In the
 * `postgres` project it runs on a fresh PostgreSQL database (or the `databaseUrl` given, which several servers may
 * share as instances do).
 */
export async function startTestServer(options: CreateServerOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'switchboard-test-'))
  const databaseUrl = options.databaseUrl ?? (await testDatabaseUrl())
  if (!options.dataDir && !databaseUrl) copyMigratedDatabase(dataDir)
  const logStream = new PassThrough()
  const chunks: Buffer[] = []
  logStream.on('data', (chunk: Buffer) => chunks.push(chunk))
  const app = await createServer({
    adminPassword: ADMIN_PASSWORD,
    logLevel: 'info',
    passwordCost: TEST_PASSWORD_COST,
    ...bundledEntries,
    ...(databaseUrl ? { secretKey: TEST_SECRET_KEY } : {}),
    ...options,
    ...(databaseUrl ? { databaseUrl } : {}),
    dataDir,
    logStream,
  })
  const tokens = new Map<string, string>()

  async function login(username: string, password: string): Promise<string> {
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username, password },
    })
    if (response.statusCode !== 200) throw new Error(`login ${username} failed: ${response.body}`)
    return response.json().token as string
  }

  async function headersFor(username: string, roles: string[] = ['user']) {
    let token = tokens.get(username)
    if (!token) {
      if (username !== 'admin') {
        const created = await app.inject({
          method: 'POST',
          url: '/api/admin/users',
          headers: await headersFor('admin'),
          payload: { username, password: `password-${username}`, roles },
        })
        if (created.statusCode !== 201) throw new Error(`create ${username} failed: ${created.body}`)
      }
      token = await login(username, username === 'admin' ? ADMIN_PASSWORD : `password-${username}`)
      tokens.set(username, token)
    }
    return { authorization: `Bearer ${token}` }
  }

  let closing: Promise<void> | undefined
  return {
    app,
    dataDir,
    logs: () => Buffer.concat(chunks).toString('utf8'),
    rows: (query) => runSql(app.ctx.database.reader, query),
    write: async (query) => {
      await app.ctx.database.transact((tx) => runSql(tx, query))
    },
    headersFor,
    adminHeaders: () => headersFor('admin'),
    sqlite: () => sqliteOf(app),
    async listen() {
      await app.listen({ host: '127.0.0.1', port: 0 })
      const address = app.server.address()
      if (!address || typeof address === 'string') throw new Error('no address')
      return `http://127.0.0.1:${address.port}`
    },
    // Once: a file's `afterEach` closes its last server again after tests that start none.
    close() {
      closing ??= (async () => {
        await app.close()
        if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true })
      })()
      return closing
    },
  }
}
