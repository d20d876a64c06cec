/**
 * Instances of one team server must share one secret key: one started with another key would read none of what
 * the others sealed (provider keys, tool credentials) and seal its own with a key they cannot open.
 */
import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { closeInstances, startInstances } from '../../test/helpers/instances'
import type { TestServer } from '../../test/helpers/server'
import { ConfigError } from '../platform/config'
import { SECRET_KEY_CHECK } from './secret-key-check'

afterEach(closeInstances)

describe('the secret key of instances on one PostgreSQL database', () => {
  it('refuses to start an instance with another key than the first one had, which stores nothing', async () => {
    const team = await startInstances({})
    const [first] = team.servers
    const stored = async () => first?.rows(sql`SELECT key, value_json FROM platform_config ORDER BY key`)
    const before = await stored()

    const otherKey = randomBytes(32).toString('hex')
    const refused = team.another({ secretKey: otherKey })
    await expect(refused).rejects.toBeInstanceOf(ConfigError)
    await expect(refused).rejects.toThrow(
      /SWITCHBOARD_SECRET_KEY is not the key this database's secrets are sealed with/,
    )
    expect(await stored()).toEqual(before)

    // The key the first one had starts a second instance.
    const second = await team.another({})
    expect((await second.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200)
  })

  it('refuses another key on a database whose secrets were sealed before it had a check, and seals none', async () => {
    const team = await startInstances({})
    const [first] = team.servers as [TestServer]
    const saved = await first.app.inject({
      method: 'PUT',
      url: '/api/admin/model-providers',
      headers: await first.adminHeaders(),
      payload: {
        providers: [
          { id: 'team', base_url: 'http://127.0.0.1:9/v1', models: ['m1'], api_key: 'sk-sealed-earlier' },
        ],
        skip_check: true,
      },
    })
    expect(saved.statusCode, saved.body).toBe(200)
    // A database from before the check: a sealed provider key, no check row.
    await first.write(sql`DELETE FROM platform_config WHERE key = ${SECRET_KEY_CHECK}`)

    await expect(team.another({ secretKey: randomBytes(32).toString('hex') })).rejects.toBeInstanceOf(
      ConfigError,
    )
    expect(await first.rows(sql`SELECT key FROM platform_config WHERE key = ${SECRET_KEY_CHECK}`)).toEqual([])

    // The key the provider's was sealed with starts an instance, which seals the check with it.
    await team.another({})
    expect(await first.rows(sql`SELECT key FROM platform_config WHERE key = ${SECRET_KEY_CHECK}`)).toEqual([
      { key: SECRET_KEY_CHECK },
    ])
  })

  it('lets exactly one of two first instances started at once with different keys seal the check', async () => {
    const team = await startInstances()
    const keys = [randomBytes(32).toString('hex'), randomBytes(32).toString('hex')]
    const started = await Promise.allSettled(keys.map((secretKey) => team.another({ secretKey })))
    const running = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []))
    const refused = started.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []))
    expect(running).toHaveLength(1)
    expect(refused).toHaveLength(1)
    expect(refused[0]).toBeInstanceOf(ConfigError)
    const [winner] = running as [TestServer]
    const [check] = await winner.rows<{ value_json: string }>(
      sql`SELECT value_json FROM platform_config WHERE key = ${SECRET_KEY_CHECK}`,
    )
    expect(winner.app.ctx.secrets.unseal(String(check?.value_json))).toBe('switchboard secret key check')
  })
})
