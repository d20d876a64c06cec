import { sql } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../test/helpers/server'
import { SECRET_KEY_CHECK } from './secret-key-check'

let server: TestServer
afterEach(() => server?.close())

const setConfig = async (key: string, value: unknown, headers?: Record<string, string>) =>
  server.app.inject({
    method: 'PUT',
    url: `/api/admin/config/${key}`,
    headers: headers ?? (await server.adminHeaders()),
    payload: { value },
  })
/** The stored settings (on PostgreSQL the table also holds the secret key's check, which is no setting). */
const storedConfig = () =>
  server.rows<{ key: string; updated_by: string }>(
    sql`SELECT key, updated_by FROM platform_config WHERE key <> ${SECRET_KEY_CHECK} ORDER BY key`,
  )

/** A registration of `username` is refused as closed, and no account of that name is stored. */
async function expectRegistrationClosed(username: string) {
  const registered = await server.app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { username, password: `${username}-password` },
  })
  expect(registered.statusCode).toBe(403)
  expect(registered.json().error.code).toBe('REGISTRATION_CLOSED')
  expect(await server.rows(sql`SELECT id FROM "user" WHERE username = ${username}`)).toEqual([])
}

describe('platform settings', () => {
  it('start with registration closed behind a trusted balancer, though the server listens on loopback only', async () => {
    // The balancer brings the network in: a server only it reaches is as exposed as one listening on the LAN.
    server = await startTestServer({ trustedProxies: ['127.0.0.1'] })
    const admin = await server.adminHeaders()
    const config = await server.app.inject({ method: 'GET', url: '/api/admin/config', headers: admin })
    expect(config.json()).toMatchObject({ registration_open: false })
    await expectRegistrationClosed('walk-in')
  })

  it('answers the defaults, stores a change typed, and reads it back', async () => {
    server = await startTestServer()
    const admin = await server.adminHeaders()
    const read = () => server.app.inject({ method: 'GET', url: '/api/admin/config', headers: admin })
    expect((await read()).json()).toMatchObject({ commission_rate: 0.1, registration_open: true })
    const changed = await setConfig('commission_rate', '0.25')
    expect(changed.statusCode).toBe(200)
    expect(changed.json()).toMatchObject({ key: 'commission_rate', value: 0.25 })
    expect((await setConfig('registration_open', false)).statusCode).toBe(200)
    expect((await read()).json()).toMatchObject({ commission_rate: 0.25, registration_open: false })
    expect((await storedConfig()).map((row) => row.key)).toEqual(['commission_rate', 'registration_open'])
    // The stored setting decides: registration is closed now.
    await expectRegistrationClosed('nora')
  })

  it('refuses an unknown key, a value out of range and a caller who is not an admin, storing nothing', async () => {
    server = await startTestServer()
    const unknown = await setConfig('no_such_key', 1)
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json().error.code).toBe('CONFIG_KEY_NOT_FOUND')
    const outOfRange = await setConfig('commission_rate', 1.5)
    expect(outOfRange.statusCode).toBe(400)
    expect(outOfRange.json().error).toMatchObject({
      code: 'INVALID_CONFIG_VALUE',
      details: { key: 'commission_rate', expected: 'a number in [0, 1)' },
    })
    const notAdmin = await setConfig('commission_rate', 0.2, await server.headersFor('ulrich'))
    expect(notAdmin.statusCode).toBe(403)
    expect(await storedConfig()).toEqual([])
    expect(await server.rows(sql`SELECT id FROM admin_audit_log WHERE action = 'config.update'`)).toEqual([])
  })
})
