import { sql } from 'drizzle-orm'
import { describe, expect, it, vi } from 'vitest'
import {
  balances,
  loopbackClient,
  marketplaceTestFrame,
  moneyFootprint,
  publishedListing,
  purchase,
} from '../../test/helpers/marketplace'
import { startTestServer, type TestServer } from '../../test/helpers/server'
import { CommonErrors } from '../platform/errors'

const INTERNAL_WORDS = 'SQLITE_CORRUPT reading /srv/switchboard/private/accounts.db page 7731'

let server: TestServer
marketplaceTestFrame(() => server)

describe('a server fault under an Idempotency-Key', () => {
  it('is answered, stored and replayed masked like any HTTP error, and its cause is logged once', async () => {
    server = await startTestServer()
    const listingId = await publishedListing(server, 'sam', { base_price: 100 })
    const orderId = await purchase(server, 'bob', listingId)
    const before = await moneyFootprint(server)
    const { post } = loopbackClient(server, await server.listen())
    // The refund asks for the platform's account inside its keyed transaction: that lookup fails as a server
    // fault whose own message names internals.
    const lookup = vi.spyOn(server.app.ctx.auth, 'platformUserId').mockImplementation(() => {
      throw CommonErrors.INTERNAL_ERROR({}, INTERNAL_WORDS)
    })
    const refund = () =>
      post('bob', `/api/marketplace/orders/${orderId}/refund`, { reason: 'x' }, 'fault-key')
    const first = await refund()
    const replay = await refund()
    lookup.mockRestore()

    const masked = {
      error: { code: 'INTERNAL_ERROR', message: 'Something went wrong on the server.', details: {} },
    }
    expect([first.status, first.replayed, first.body]).toEqual([500, false, masked])
    expect([replay.status, replay.replayed, replay.body]).toEqual([500, true, masked])
    // What is kept for replays holds no internal words either, and the refund moved no money.
    const stored = await server.rows<{ status_code: unknown; response_json: unknown }>(
      sql`SELECT status_code, response_json FROM idempotency_key WHERE key = 'fault-key'`,
    )
    // JSON text on SQLite, jsonb (parsed by the driver) on PostgreSQL.
    const parsed = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value)
    expect(stored.map((row) => [Number(row.status_code), parsed(row.response_json)])).toEqual([[500, masked]])
    expect(await moneyFootprint(server)).toEqual(before)
    expect(await balances(server, 'bob')).toMatchObject({ balance: 0, total_spent: 100 })

    // The operator still learns the cause, with the request it came from: logged when it happened, not per replay.
    const faults = server
      .logs()
      .split('\n')
      .filter((line) => line.includes(INTERNAL_WORDS))
      .map((line) => JSON.parse(line))
    expect(faults).toHaveLength(1)
    expect(faults[0]).toMatchObject({
      level: 50,
      code: 'INTERNAL_ERROR',
      url: `/api/marketplace/orders/${orderId}/refund`,
    })
  })
})
