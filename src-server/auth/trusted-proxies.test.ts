import { afterEach, describe, expect, it } from 'vitest'
import { postFrom } from '../../test/helpers/http-from'
import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../../test/helpers/server'
import { ConfigError, resolveConfig } from '../platform/config'
import { FAILURES_PER_USER_AT_ADDRESS } from './login-limits'

// Real HTTP from distinct loopback addresses: 127.0.0.50 stands in for a team server's load balancer.
const BALANCER = '127.0.0.50'
let server: TestServer
afterEach(async () => server?.close())

const loginAs = (base: string, from: string, client: string | null, password: string) =>
  postFrom(
    base,
    from,
    '/api/auth/login',
    { username: 'admin', password },
    client ? { 'x-forwarded-for': client } : {},
  )

/** Enough parallel wrong passwords to lock the admin out at one address. */
const lockOut = (base: string, from: string, client: () => string | null) =>
  Promise.all(
    Array.from({ length: FAILURES_PER_USER_AT_ADDRESS + 2 }, () =>
      loginAs(base, from, client(), 'wrong-password'),
    ),
  )

describe('clients behind a trusted load balancer', () => {
  it('counts sign-in failures per forwarded client: one locked out does not lock out the next', async () => {
    server = await startTestServer({ trustedProxies: [BALANCER] })
    const base = await server.listen()
    const failed = await lockOut(base, BALANCER, () => '198.51.100.7')
    expect(failed.some((answer) => answer.status === 429)).toBe(true)
    expect((await loginAs(base, BALANCER, '198.51.100.7', ADMIN_PASSWORD)).status).toBe(429)
    expect((await loginAs(base, BALANCER, '198.51.100.8', ADMIN_PASSWORD)).status).toBe(200)
  })

  it('counts the address the balancer saw, not one a client put in front of it in X-Forwarded-For', async () => {
    server = await startTestServer({ trustedProxies: [BALANCER] })
    const base = await server.listen()
    let next = 0
    // The client writes a fresh address of its own each time; the balancer appends the one it saw.
    const failed = await lockOut(base, BALANCER, () => `203.0.113.${++next}, 198.51.100.7`)
    expect(failed.some((answer) => answer.status === 429)).toBe(true)
    expect((await loginAs(base, BALANCER, '203.0.113.250, 198.51.100.7', ADMIN_PASSWORD)).status).toBe(429)
  })

  it('ignores X-Forwarded-For from anyone else: an attacker cannot take a fresh address per attempt', async () => {
    server = await startTestServer({ trustedProxies: [BALANCER] })
    const base = await server.listen()
    let next = 0
    const failed = await lockOut(base, '127.0.0.41', () => `203.0.113.${++next}`)
    expect(failed.some((answer) => answer.status === 429)).toBe(true)
    expect((await loginAs(base, '127.0.0.41', '203.0.113.200', ADMIN_PASSWORD)).status).toBe(429)
  })

  it('refuses a trusted-proxy entry that is not an address or CIDR range', () => {
    const read = (value: string) => resolveConfig({}, { SWITCHBOARD_TRUSTED_PROXIES: value }).trustedProxies
    expect(read('10.0.0.5, 10.0.0.0/24,fd00::/8')).toEqual(['10.0.0.5', '10.0.0.0/24', 'fd00::/8'])
    for (const bad of ['*', 'true', '10.0.0.0/33', '10.0.0.5/0', '::/0', 'balancer.internal', '10.0.0.1/8/2'])
      expect(() => read(bad)).toThrow(ConfigError)
  })
})
