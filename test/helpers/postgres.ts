import { execFile, execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { chmod, chown, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import pg from 'pg'
import { freePort } from './server-process'

const run = promisify(execFile)

/** Debian's PostgreSQL 15 binaries (`apt-get install postgresql`); `SWITCHBOARD_PG_BIN` points elsewhere. */
export const POSTGRES_BIN = process.env.SWITCHBOARD_PG_BIN ?? '/usr/lib/postgresql/15/bin'

/** `initdb` and `postgres` refuse to run as root: as root, the cluster belongs to this system user. */
const CLUSTER_OWNER = 'postgres'

export interface PostgresCluster {
  /** `postgres://postgres@127.0.0.1:<port>/<database>` of the database made at start. */
  url: string
  port: number
  /** The temp folder holding the cluster's files, its socket and its log; removed by `stop`. */
  directory: string
  /** Another empty database on the same cluster (one per test file or per server instance). */
  createDatabase(name: string): Promise<string>
  /** Stops the cluster at once and removes its folder. */
  stop(): Promise<void>
}

/**
 * Why PostgreSQL tests cannot run here, or null when they can: the binaries are missing, or the process is root and
 * there is no `postgres` user to own the cluster. A test names this reason in its title when it skips.
 */
export function postgresUnavailable(): string | null {
  if (!existsSync(path.join(POSTGRES_BIN, 'initdb')) || !existsSync(path.join(POSTGRES_BIN, 'pg_ctl')))
    return `PostgreSQL 15 is not installed (no initdb/pg_ctl in ${POSTGRES_BIN}; apt-get install postgresql)`
  if (isRoot() && ownerIds() === null) return `running as root and there is no "${CLUSTER_OWNER}" user`
  return null
}

/** Whether the cluster has pgvector to offer (`CREATE EXTENSION vector`). */
export function pgvectorInstalled(): boolean {
  try {
    const share = execFileSync(path.join(POSTGRES_BIN, 'pg_config'), ['--sharedir'], {
      encoding: 'utf8',
    }).trim()
    return existsSync(path.join(share, 'extension', 'vector.control'))
  } catch {
    return false
  }
}

/**
 * A throwaway cluster: `initdb` into a temp folder (trust auth, superuser `postgres`), started by `pg_ctl` on a free
 * loopback port with its socket in that folder, and one database created. Durability is switched off: nothing in
 * it outlives the test run.
 */
export async function startPostgres(database = 'switchboard'): Promise<PostgresCluster> {
  const unavailable = postgresUnavailable()
  if (unavailable) throw new Error(unavailable)
  const root = await mkdtemp(path.join(tmpdir(), 'switchboard-pg-'))
  const owner = isRoot() ? ownerIds() : null
  if (owner) await chown(root, owner.uid, owner.gid)
  await chmod(root, 0o700)
  const dataDir = path.join(root, 'data')
  const asOwner = (binary: string, args: string[]) => {
    const file = path.join(POSTGRES_BIN, binary)
    return owner ? run('runuser', ['-u', CLUSTER_OWNER, '--', file, ...args]) : run(file, args)
  }
  const stopCluster = () => asOwner('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop'])

  try {
    await asOwner('initdb', ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync'])
    const port = await freePort()
    const settings = [
      `-p ${port}`,
      `-k ${root}`,
      '-c listen_addresses=127.0.0.1',
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
    ].join(' ')
    await asOwner('pg_ctl', [
      '-D',
      dataDir,
      '-o',
      settings,
      '-l',
      path.join(root, 'postgres.log'),
      '-w',
      'start',
    ])
    const serverUrl = (name: string) => `postgres://postgres@127.0.0.1:${port}/${name}`

    const createDatabase = (name: string) => createDatabaseBeside(serverUrl('postgres'), name)

    const url = await createDatabase(database)
    return {
      url,
      port,
      directory: root,
      createDatabase,
      stop: async () => {
        await stopCluster().catch(() => undefined)
        await rm(root, { recursive: true, force: true })
      },
    }
  } catch (error) {
    if (existsSync(path.join(dataDir, 'postmaster.pid'))) await stopCluster().catch(() => undefined)
    await rm(root, { recursive: true, force: true })
    throw error
  }
}

/** The URL of database `name` on the cluster of `url`. */
function databaseUrl(url: string, name: string): string {
  const other = new URL(url)
  other.pathname = `/${name}`
  return other.toString()
}

/**
 * Creates database `name` on the cluster of `url` (as a copy of `template`, a database nobody is connected to, when
 * given) and returns its URL. Connected to the `postgres` database meanwhile: PostgreSQL refuses to copy a
 * template another session is connected to.
 */
export async function createDatabaseBeside(url: string, name: string, template?: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl(url, 'postgres') })
  await client.connect()
  try {
    const copy = template ? ` TEMPLATE ${pg.escapeIdentifier(template)}` : ''
    await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}${copy}`)
  } finally {
    await client.end()
  }
  return databaseUrl(url, name)
}

const isRoot = () => process.getuid?.() === 0

function ownerIds(): { uid: number; gid: number } | null {
  try {
    const id = (flag: string) =>
      Number(execFileSync('id', [flag, CLUSTER_OWNER], { encoding: 'utf8' }).trim())
    return { uid: id('-u'), gid: id('-g') }
  } catch {
    return null
  }
}
