/**
 * Instances of one team server must share one secret key: one started with another key would read none of what
 * the others sealed (provider keys, tool credentials) and seal its own with a key they cannot open.
 */
import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { closeInstances, startInstances } from '../../test/helpers/instances'
import { ConfigError } from '../platform/config'

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
})
