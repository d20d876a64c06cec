import { chmodSync, readdirSync, rmSync, statSync } from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createSource, upload } from '../../../test/helpers/knowledge-files'
import { startTestServer, type TestServer } from '../../../test/helpers/server'

/** The data directory and everything in it is readable by the account that runs the server only. */
let server: TestServer | undefined
afterEach(async () => {
  await server?.close()
  if (server) rmSync(server.dataDir, { recursive: true, force: true })
})

const modeOf = (file: string) => (statSync(file).mode & 0o777).toString(8)

/** Every folder and file under the data directory, with its mode, by path relative to it. */
function modes(dataDir: string): Record<string, string> {
  const found: Record<string, string> = { '.': modeOf(dataDir) }
  for (const entry of readdirSync(dataDir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name)
    if (entry.isDirectory() || entry.isFile()) found[path.relative(dataDir, full)] = modeOf(full)
  }
  return found
}

function loosen(dataDir: string) {
  for (const entry of readdirSync(dataDir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name)
    if (entry.isDirectory()) chmodSync(full, 0o755)
    else if (entry.isFile()) chmodSync(full, 0o644)
  }
  chmodSync(dataDir, 0o755)
}

function expectPrivate(found: Record<string, string>, dataDir: string) {
  for (const [name, mode] of Object.entries(found)) {
    const isDir = statSync(path.join(dataDir, name)).isDirectory()
    expect(`${name} ${mode}`).toBe(`${name} ${isDir ? '700' : '600'}`)
  }
}

describe('data directory modes', () => {
  it('creates the database, its WAL and SHM, the secret key and blobs private, and tightens an old install on start', async () => {
    server = await startTestServer()
    const { dataDir } = server
    const headers = await server.headersFor('olga', ['operator'])
    const sourceId = await createSource(server, headers)
    expect(
      (await upload(server, headers, sourceId, [{ name: 'a.txt', data: Buffer.from('Private.') }]))
        .statusCode,
    ).toBe(201)
    const fresh = modes(dataDir)
    for (const name of ['switchboard.db', 'switchboard.db-wal', 'switchboard.db-shm', 'secret.key', 'blobs'])
      expect(fresh).toHaveProperty([name])
    expect(Object.keys(fresh).some((name) => /^blobs\/..\/..\/[0-9a-f]{64}$/.test(name))).toBe(true)
    expectPrivate(fresh, dataDir)

    // An install from before: 0755 folders, 0644 files. The next start tightens every one.
    await server.app.close()
    loosen(dataDir)
    server = await startTestServer({ dataDir })
    const tightened = modes(dataDir)
    expect(Object.keys(tightened)).toEqual(expect.arrayContaining(Object.keys(fresh)))
    expectPrivate(tightened, dataDir)
  })
})
