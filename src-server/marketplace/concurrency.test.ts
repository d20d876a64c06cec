import { describe, expect, it } from 'vitest'
import {
  balances,
  loopbackClient,
  marketplaceTestFrame,
  moneyFootprint,
  publishedListing,
  type Sent,
  servicesOf,
  topUp,
  userIdOf,
} from '../../test/helpers/marketplace'
import { startTestServer, type TestServer } from '../../test/helpers/server'
import { IDEMPOTENCY_TTL_MS, idempotentWork, requestHash, runIdempotent } from './idempotency'
import { MarketplaceErrors } from './marketplace.errors'

let server: TestServer
marketplaceTestFrame(() => server)

/** Real loopback HTTP, so requests genuinely overlap inside the server. */
const client = (base: string) => loopbackClient(server, base).post

const codes = (results: Sent[]) => results.map((r) => r.body.error?.code ?? r.status).sort()

describe('concurrent money movements over HTTP', () => {
  it('lets exactly the affordable purchases succeed when several buyers race for more than they can pay', async () => {
    server = await startTestServer()
    const listings: string[] = []
    for (let i = 0; i < 8; i += 1)
      listings.push(await publishedListing(server, 'sam', { base_price: 100, title: `L${i}` }))
    const buyers = ['buyer1', 'buyer2', 'buyer3', 'buyer4']
    for (const buyer of buyers) await topUp(server, buyer, 350)
    const post = client(await server.listen())

    const results = await Promise.all(
      buyers.flatMap((buyer) =>
        listings.map(async (id) => ({
          buyer,
          result: await post(buyer, '/api/marketplace/orders', { listing_id: id }),
        })),
      ),
    )
    for (const buyer of buyers) {
      const mine = results.filter((r) => r.buyer === buyer).map((r) => r.result)
      expect(mine.filter((r) => r.status === 201)).toHaveLength(3)
      expect(mine.filter((r) => r.body.error?.code === 'INSUFFICIENT_BALANCE')).toHaveLength(5)
      expect(await balances(server, buyer)).toMatchObject({ balance: 50, frozen_balance: 0 })
    }
    const paid = server
      .sqlite()
      .$client.prepare("SELECT count(*) AS n FROM marketplace_order WHERE status = 'paid'")
      .get()
    expect(paid).toEqual({ n: 12 })
    expect((await balances(server, 'sam'))?.frozen_balance).toBe(12 * 90)
  })

  it('lets exactly the affordable transfers succeed and refunds one order once under racing refunds', async () => {
    server = await startTestServer()
    await topUp(server, 'ann', 500)
    await topUp(server, 'carl', 300)
    await server.headersFor('ben')
    const benId = await userIdOf(server, 'ben')
    const listingId = await publishedListing(server, 'sam', { base_price: 100 })
    await topUp(server, 'dora', 100)
    const post = client(await server.listen())
    const order = (await post('dora', '/api/marketplace/orders', { listing_id: listingId })).body

    const [fromAnn, fromCarl, refunds] = await Promise.all([
      Promise.all(
        Array.from({ length: 20 }, () =>
          post('ann', '/api/wallet/transfer', { to_user_id: benId, amount: 40 }),
        ),
      ),
      Promise.all(
        Array.from({ length: 10 }, () =>
          post('carl', '/api/wallet/transfer', { to_user_id: benId, amount: 50 }),
        ),
      ),
      Promise.all(
        Array.from({ length: 6 }, () =>
          post('dora', `/api/marketplace/orders/${order.id}/refund`, { reason: 'race' }),
        ),
      ),
    ])
    expect(fromAnn.filter((r) => r.status === 200)).toHaveLength(12)
    expect(fromCarl.filter((r) => r.status === 200)).toHaveLength(6)
    expect(codes(refunds)).toEqual([200, ...Array(5).fill('ORDER_ALREADY_REFUNDED')])
    expect((await balances(server, 'ann'))?.balance).toBe(20)
    expect((await balances(server, 'carl'))?.balance).toBe(0)
    expect((await balances(server, 'ben'))?.balance).toBe(12 * 40 + 6 * 50)
    expect((await balances(server, 'dora'))?.balance).toBe(100)
  })
})

describe('purchases in one group commit', () => {
  /** Sam's listing at 100 points, the buyers topped up, and a purchase of it through the group commit. */
  async function groupBuyer(topUps: Record<string, number>) {
    server = await startTestServer()
    const listingId = await publishedListing(server, 'sam', { base_price: 100 })
    for (const [buyer, amount] of Object.entries(topUps)) await topUp(server, buyer, amount)
    const { orders } = servicesOf(server).services
    return async (username: string, hooks = {}) => {
      const buyer = { id: await userIdOf(server, username), permissions: [] }
      return orders.inPurchaseGroup((tx) => orders.purchase(tx, buyer, listingId, new Date(), hooks))
    }
  }

  /** Bob and Dora bought (Sam earned 90 of each), Carl's points are as he topped them up. */
  async function expectOnlyBobAndDoraPaid(carlTopUp: number) {
    const stored = server
      .sqlite()
      .$client.prepare(
        `SELECT u.username, o.status FROM marketplace_order o JOIN user u ON u.id = o.buyer_id
         ORDER BY u.username`,
      )
      .all()
    expect(stored).toEqual([
      { username: 'bob', status: 'paid' },
      { username: 'dora', status: 'paid' },
    ])
    expect(await balances(server, 'bob')).toMatchObject({ balance: 0, frozen_balance: 0, total_spent: 100 })
    expect(await balances(server, 'carl')).toMatchObject({
      balance: carlTopUp,
      frozen_balance: 0,
      total_spent: 0,
    })
    expect((await balances(server, 'sam'))?.frozen_balance).toBe(2 * 90)
  }

  it('rolls back only the purchase that fails after its debit; the others in the group are paid', async () => {
    const buy = await groupBuyer({ bob: 100, carl: 100, dora: 100 })
    const settled = await Promise.allSettled([
      buy('bob'),
      buy('carl', {
        afterDeduct: () => {
          throw new Error('power cut')
        },
      }),
      buy('dora'),
    ])
    expect(settled.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect(String((settled[1] as PromiseRejectedResult).reason)).toContain('power cut')
    await expectOnlyBobAndDoraPaid(100)
  })

  it('keeps the paid purchases of a group exact beside the ones refused by their checks', async () => {
    const buy = await groupBuyer({ bob: 100, carl: 99, dora: 100 })
    // One group: Carl cannot pay, Bob's second purchase finds his first, Sam cannot buy his own listing.
    const settled = await Promise.allSettled([buy('bob'), buy('carl'), buy('bob'), buy('sam'), buy('dora')])
    expect(settled.map((outcome) => (outcome.status === 'fulfilled' ? 'paid' : outcome.reason.code))).toEqual(
      ['paid', 'INSUFFICIENT_BALANCE', 'ALREADY_OWNED', 'CANNOT_BUY_OWN_LISTING', 'paid'],
    )
    await expectOnlyBobAndDoraPaid(99)
  })

  it('refuses a buyer who never had a wallet before writing anything: the group runs each purchase once', async () => {
    server = await startTestServer()
    const listingId = await publishedListing(server, 'sam', { base_price: 100 })
    await topUp(server, 'bob', 100)
    await server.headersFor('eve')
    const { orders } = servicesOf(server).services
    const runs: string[] = []
    const ids = { eve: await userIdOf(server, 'eve'), bob: await userIdOf(server, 'bob') }
    const buy = (username: 'eve' | 'bob') =>
      orders.inPurchaseGroup((tx) => {
        runs.push(username)
        return orders.purchase(tx, { id: ids[username], permissions: [] }, listingId, new Date())
      })
    const settled = await Promise.allSettled([buy('eve'), buy('bob')])
    expect(
      settled.map((outcome) => (outcome.status === 'fulfilled' ? 'paid' : outcome.reason.details)),
    ).toEqual([{ required: 100, available: 0 }, 'paid'])
    expect(runs).toEqual(['eve', 'bob'])
    expect(await balances(server, 'eve')).toBeUndefined()
  })

  it('keeps a refused keyed purchase to its stored refusal and replays a key sent twice in one group', async () => {
    server = await startTestServer()
    const listingId = await publishedListing(server, 'sam', { base_price: 100 })
    await topUp(server, 'bob', 100)
    await topUp(server, 'carl', 100)
    const db = server.sqlite()
    const { orders } = servicesOf(server).services
    const ids = { bob: await userIdOf(server, 'bob'), carl: await userIdOf(server, 'carl') }
    const keyed = (username: 'bob' | 'carl', key: string, hooks = {}) => {
      const buyer = { id: ids[username], permissions: [] }
      const claim = { userId: buyer.id, key, requestHash: 'same', at: new Date() }
      const { work, recover } = idempotentWork(claim, 201, (tx) =>
        orders.purchase(tx, buyer, listingId, claim.at, hooks),
      )
      return orders.inPurchaseGroup(work, recover)
    }
    const [refused, first, again] = await Promise.all([
      keyed('bob', 'b', {
        afterDeduct: () => {
          throw MarketplaceErrors.LISTING_NOT_AVAILABLE({ listing_id: listingId })
        },
      }),
      keyed('carl', 'c'),
      keyed('carl', 'c'),
    ])
    expect([refused?.statusCode, first?.statusCode, again?.statusCode]).toEqual([409, 201, 201])
    expect([again?.replayed, again?.body]).toEqual([true, first?.body])
    // Bob's debit and pending order are gone, his refusal is stored; Carl bought once.
    expect(await balances(server, 'bob')).toMatchObject({ balance: 100, frozen_balance: 0 })
    expect(await balances(server, 'carl')).toMatchObject({ balance: 0, frozen_balance: 0 })
    expect(db.$client.prepare('SELECT count(*) AS n FROM marketplace_order').get()).toEqual({ n: 1 })
    const keys = db.$client.prepare('SELECT key, status_code FROM idempotency_key ORDER BY key').all()
    expect(keys).toEqual([
      { key: 'b', status_code: 409 },
      { key: 'c', status_code: 201 },
    ])
  })
})

describe('Idempotency-Key', () => {
  it('gives one effect for the same key sent concurrently, replaying the first response to the rest', async () => {
    server = await startTestServer()
    const listingId = await publishedListing(server, 'sam', { base_price: 100 })
    await topUp(server, 'bob', 100)
    const post = client(await server.listen())
    const orders = await Promise.all(
      Array.from({ length: 8 }, () =>
        post('bob', '/api/marketplace/orders', { listing_id: listingId }, 'order-1'),
      ),
    )
    expect(orders.every((r) => r.status === 201)).toBe(true)
    expect(new Set(orders.map((r) => r.body.id)).size).toBe(1)
    expect(orders.filter((r) => r.replayed)).toHaveLength(7)
    expect(server.sqlite().$client.prepare('SELECT count(*) AS n FROM marketplace_order').get()).toEqual({
      n: 1,
    })

    await server.headersFor('carl')
    const topups = await Promise.all(
      Array.from({ length: 8 }, () =>
        post('carl', '/api/wallet/topup', { amount: 70, payment_method: 'simulated' }, 'top-1'),
      ),
    )
    expect(topups.filter((r) => r.replayed)).toHaveLength(7)
    expect((await balances(server, 'carl'))?.balance).toBe(70)
  })

  it('replays errors, refuses a reused key with a different body, and keeps keys per user', async () => {
    server = await startTestServer()
    const listingId = await publishedListing(server, 'sam', { base_price: 100 })
    await server.headersFor('bob')
    const post = client(await server.listen())
    const first = await post('bob', '/api/marketplace/orders', { listing_id: listingId }, 'k')
    expect(first.body.error?.code).toBe('INSUFFICIENT_BALANCE')
    await topUp(server, 'bob', 100)
    const replay = await post('bob', '/api/marketplace/orders', { listing_id: listingId }, 'k')
    expect([replay.status, replay.body, replay.replayed]).toEqual([400, first.body, true])
    expect((await balances(server, 'bob'))?.balance).toBe(100)

    const before = await moneyFootprint(server)
    const reused = await post('bob', '/api/wallet/topup', { amount: 5, payment_method: 'simulated' }, 'k')
    expect([reused.status, reused.body.error?.code]).toEqual([409, 'IDEMPOTENCY_KEY_REUSED'])
    expect(await moneyFootprint(server)).toEqual(before)

    // The same key from another user is that user's own.
    const other = await post('carl', '/api/wallet/topup', { amount: 5, payment_method: 'simulated' }, 'k')
    expect([other.status, other.replayed]).toEqual([200, false])
    // Key order in the body does not make a different request.
    const a = await post('bob', '/api/wallet/withdraw', { amount: 100, method: 'bank' }, 'w')
    const b = await post('bob', '/api/wallet/withdraw', { method: 'bank', amount: 100 }, 'w')
    expect([a.status, b.status, b.replayed, b.body]).toEqual([200, 200, true, a.body])
    expect((await balances(server, 'bob'))?.balance).toBe(0)
    const tooLong = await post(
      'bob',
      '/api/wallet/topup',
      { amount: 5, payment_method: 'simulated' },
      'x'.repeat(256),
    )
    expect(tooLong.status).toBe(422)
  })

  it('replays transfer and refund responses without a second effect', async () => {
    server = await startTestServer()
    const listingId = await publishedListing(server, 'sam', { base_price: 100 })
    await topUp(server, 'bob', 300)
    await server.headersFor('carl')
    const post = client(await server.listen())
    const body = { to_user_id: await userIdOf(server, 'carl'), amount: 50 }
    const t1 = await post('bob', '/api/wallet/transfer', body, 't')
    const t2 = await post('bob', '/api/wallet/transfer', body, 't')
    expect([t2.replayed, t2.body]).toEqual([true, t1.body])
    expect((await balances(server, 'carl'))?.balance).toBe(50)

    const order = (await post('bob', '/api/marketplace/orders', { listing_id: listingId })).body
    const r1 = await post('bob', `/api/marketplace/orders/${order.id}/refund`, { reason: 'x' }, 'r')
    const r2 = await post('bob', `/api/marketplace/orders/${order.id}/refund`, { reason: 'x' }, 'r')
    expect([r1.status, r2.status, r2.replayed, r2.body]).toEqual([200, 200, true, r1.body])
    expect((await balances(server, 'bob'))?.balance).toBe(250)
  })

  it('runs a keyed purchase in the claim transaction: a refusal after the debit undoes it and is replayed', async () => {
    server = await startTestServer()
    const listingId = await publishedListing(server, 'sam', { base_price: 100 })
    await topUp(server, 'bob', 100)
    const db = server.sqlite()
    const { orders } = servicesOf(server).services
    const buyer = { id: await userIdOf(server, 'bob'), permissions: [] }
    const claim = { userId: buyer.id, key: 'late-refusal', requestHash: 'same', at: new Date() }
    const before = await moneyFootprint(server)
    let inClaimTransaction = false
    const refused = await runIdempotent(server.app.ctx.database, claim, 201, (tx) =>
      orders.purchase(tx, buyer, listingId, claim.at, {
        afterDeduct: () => {
          inClaimTransaction = db.$client.inTransaction
          throw MarketplaceErrors.LISTING_NOT_AVAILABLE({ listing_id: listingId })
        },
      }),
    )
    expect(inClaimTransaction).toBe(true)
    expect([refused.statusCode, refused.replayed]).toEqual([409, false])
    // The debit, the pending order and the key's first claim are gone; only the refusal is stored.
    expect(await moneyFootprint(server)).toEqual(before)
    expect(await balances(server, 'bob')).toMatchObject({ balance: 100, frozen_balance: 0 })
    expect(db.$client.prepare('SELECT count(*) AS n FROM marketplace_order').get()).toEqual({ n: 0 })
    const stored = db.$client
      .prepare('SELECT status_code, response_json FROM idempotency_key WHERE key = ?')
      .all('late-refusal') as { status_code: number; response_json: string }[]
    expect(stored.map((row) => [row.status_code, JSON.parse(row.response_json)])).toEqual([
      [409, refused.body],
    ])
    const replay = await runIdempotent(server.app.ctx.database, claim, 201, (tx) =>
      orders.purchase(tx, buyer, listingId, claim.at),
    )
    expect([replay.statusCode, replay.body, replay.replayed]).toEqual([409, refused.body, true])
  })

  it('forgets a key after 24 hours', async () => {
    server = await startTestServer()
    await server.headersFor('bob')
    const { wallet } = servicesOf(server).services
    const userId = await userIdOf(server, 'bob')
    const hash = requestHash('POST /api/wallet/topup', { amount: 10 })
    const at = new Date()
    const run = (when: Date) =>
      runIdempotent(server.app.ctx.database, { userId, key: 'day', requestHash: hash, at: when }, 200, (tx) =>
        wallet.topUp(tx, userId, { amount: 10, payment_method: 'simulated' }, when),
      )
    expect((await run(at)).replayed).toBe(false)
    expect((await run(new Date(at.getTime() + IDEMPOTENCY_TTL_MS - 1000))).replayed).toBe(true)
    expect((await run(new Date(at.getTime() + IDEMPOTENCY_TTL_MS + 1000))).replayed).toBe(false)
    expect((await balances(server, 'bob'))?.balance).toBe(20)
  })
})
