import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { CreateServerOptions } from '../../src-server/app'
import { freshPostgresUrl } from './engine'
import { startTestServer, type TestServer } from './server'

/** Instances of one team server: one PostgreSQL database and one blob directory, each its own data directory. */
export interface Instances {
  /** The database's URL, for a test's own connection. */
  url: string
  servers: TestServer[]
  /** Starts one more instance of the same team server. */
  another(options?: CreateServerOptions): Promise<TestServer>
}

const opened: { servers: TestServer[]; blobDirs: string[] } = { servers: [], blobDirs: [] }

/**
 * Instances of the server on one fresh PostgreSQL database and one shared blob directory (as a team server runs
 * them), started one after the other (the second finds what the first made at start), each with its own options.
 * `closeInstances` in `afterEach` closes them all.
 */
export async function startInstances(...each: CreateServerOptions[]): Promise<Instances> {
  const databaseUrl = await freshPostgresUrl()
  const blobDir = mkdtempSync(path.join(tmpdir(), 'switchboard-shared-blobs-'))
  opened.blobDirs.push(blobDir)
  async function another(options: CreateServerOptions = {}) {
    const server = await startTestServer({ ...options, databaseUrl, blobDir })
    opened.servers.push(server)
    return server
  }
  const servers: TestServer[] = []
  for (const options of each) servers.push(await another(options))
  return { url: databaseUrl, servers, another }
}

export async function closeInstances(): Promise<void> {
  for (const server of opened.servers.splice(0)) await server.close()
  for (const dir of opened.blobDirs.splice(0)) rmSync(dir, { recursive: true, force: true })
}

/** A listening instance: its server and its loopback base URL. */
export interface ListeningInstance {
  server: TestServer
  base: string
}

/** Instances A and B of one team server, started one after the other and listening on loopback. */
export async function twoInstances(
  onA: CreateServerOptions = {},
  onB: CreateServerOptions = {},
): Promise<{ a: ListeningInstance; b: ListeningInstance }> {
  const { servers } = await startInstances(onA, onB)
  const [a, b] = servers as [TestServer, TestServer]
  return { a: { server: a, base: await a.listen() }, b: { server: b, base: await b.listen() } }
}
