import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { testDatabaseUrl } from '../../test/helpers/engine'
import { startTestServer, type TestServer } from '../../test/helpers/server'

/** The desktop window's token: replaced at every start, expiring, and listed and revocable like an API token. */
let server: TestServer | undefined
/** The PostgreSQL database's URL in the `postgres` project, kept across the restart as the data directory is. */
let databaseUrl: string | undefined
const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-desktop-token-'))
afterEach(async () => {
  await server?.close()
  databaseUrl = undefined
  rmSync(dataDir, { recursive: true, force: true })
})

async function me(url: string, token: string) {
  return (await fetch(`${url}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } })).status
}

const desktopRows = () =>
  (server as TestServer).rows<{ id: string; created_at: string; expires_at: string | null }>(
    sql`SELECT id, created_at, expires_at FROM auth_token WHERE kind = 'desktop'`,
  )

describe('desktop tokens', () => {
  it('rotate at start, expire within a week, and are listed and revocable in the token list', async () => {
    databaseUrl = await testDatabaseUrl()
    server = await startTestServer({ dataDir, databaseUrl })
    let url = await server.listen()
    const first = await server.app.auth.issueDesktopToken()
    expect(await me(url, first)).toBe(200)
    await server.close()

    // The next start (the desktop shell issues a token each time) replaces the earlier one.
    server = await startTestServer({ dataDir, databaseUrl })
    url = await server.listen()
    const second = await server.app.auth.issueDesktopToken()
    expect(await me(url, first)).toBe(401)
    expect(await me(url, second)).toBe(200)
    const [row, ...others] = await desktopRows()
    expect(others).toEqual([])
    expect(row?.expires_at).not.toBeNull()
    const lifetime = Date.parse(row?.expires_at ?? '') - Date.parse(row?.created_at ?? '')
    expect(Math.round(lifetime / 3_600_000)).toBe(7 * 24)

    const headers = { authorization: `Bearer ${second}` }
    const list = (await (await fetch(`${url}/api/auth/tokens`, { headers })).json()) as { items: unknown[] }
    expect(list.items).toEqual([
      expect.objectContaining({
        id: row?.id,
        kind: 'desktop',
        name: 'desktop window',
        expires_at: row?.expires_at,
      }),
    ])
    const revoked = await fetch(`${url}/api/auth/tokens/${row?.id}`, { method: 'DELETE', headers })
    expect(revoked.status).toBe(204)
    expect(await me(url, second)).toBe(401)
    expect(await desktopRows()).toEqual([])
  })
})
