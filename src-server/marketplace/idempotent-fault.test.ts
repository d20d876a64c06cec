import { describe, expect, it, vi } from 'vitest'
import {
  balances,
  loopbackClient,
  marketplaceTestFrame,
  moneyFootprint,
  publishedListing,
  topUp,
} from '../../test/helpers/marketplace'
import { startTestServer, type TestServer } from '../../test/helpers/server'
import { CommonErrors } from '../platform/errors'

/** A price that makes the purchase fail as a server fault, deep inside its keyed transaction. */
const FAULTY_PRICE = 4242
const INTERNAL_WORDS = 'SQLITE_CORRUPT reading /srv/switchboard/private/ledger.db page 7731'

// The commission step is the fault injection point: a 5xx AppError whose own message names internals.
vi.mock('./commission', async (importOriginal) => {
  const original = await importOriginal<typeof import('./commission')>()
  return {
    ...original,
    platformFee(price: number, rate: number) {
      if (price === FAULTY_PRICE) throw CommonErrors.INTERNAL_ERROR({}, INTERNAL_WORDS)
      return original.platformFee(price, rate)
    },
  }
})

let server: TestServer
marketplaceTestFrame(() => server)

describe('a server fault under an Idempotency-Key', () => {
  it('is answered, stored and replayed masked like any HTTP error, and its cause is logged once', async () => {
    server = await startTestServer()
    const listingId = await publishedListing(server, 'sam', { base_price: FAULTY_PRICE })
    await topUp(server, 'bob', FAULTY_PRICE)
    const before = moneyFootprint(server)
    const { post } = loopbackClient(server, await server.listen())

    const first = await post('bob', '/api/marketplace/orders', { listing_id: listingId }, 'fault-key')
    const replay = await post('bob', '/api/marketplace/orders', { listing_id: listingId }, 'fault-key')

    const masked = {
      error: { code: 'INTERNAL_ERROR', message: 'Something went wrong on the server.', details: {} },
    }
    expect([first.status, first.replayed, first.body]).toEqual([500, false, masked])
    expect([replay.status, replay.replayed, replay.body]).toEqual([500, true, masked])
    // What is kept for replays holds no internal words either, and the purchase left no money moved.
    const stored = server.app.ctx.db.$client
      .prepare('SELECT status_code, response_json FROM idempotency_key WHERE key = ?')
      .all('fault-key') as { status_code: number; response_json: string }[]
    expect(stored.map((row) => [row.status_code, JSON.parse(row.response_json)])).toEqual([[500, masked]])
    expect(moneyFootprint(server)).toEqual(before)
    expect(balances(server, 'bob')).toMatchObject({ balance: FAULTY_PRICE, frozen_balance: 0 })

    // The operator still learns the cause, with the request it came from: logged when it happened, not per replay.
    const faults = server
      .logs()
      .split('\n')
      .filter((line) => line.includes(INTERNAL_WORDS))
      .map((line) => JSON.parse(line))
    expect(faults).toHaveLength(1)
    expect(faults[0]).toMatchObject({ level: 50, code: 'INTERNAL_ERROR', url: '/api/marketplace/orders' })
  })
})
