import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { type SQL, sql } from 'drizzle-orm'
import { describe, expect, it, onTestFinished } from 'vitest'
import { TEST_ENGINE } from '../../test/helpers/engine'
import {
  balances,
  createListing,
  marketplaceTestFrame,
  moneyFootprint,
  numbers,
  platformBalance,
  publishedListing,
  servicesOf,
  topUp,
  userIdOf,
} from '../../test/helpers/marketplace'
import { rewindMigrations } from '../../test/helpers/migrations'
import { startTestServer, type TestServer } from '../../test/helpers/server'
import { platformFee } from './commission'

let server: TestServer
const { call, buy, setConfig } = marketplaceTestFrame(() => server)

async function assetOf(listingId: string) {
  const [row] = await server.rows<{ asset_id: string }>(
    sql`SELECT asset_id FROM listing WHERE id = ${listingId}`,
  )
  if (!row) throw new Error(`no listing ${listingId}`)
  return row
}

/** Whether the user holds an unrevoked grant of the agent, as stored. */
async function holdsGrant(userId: string, assetId: string) {
  const rows = await server.rows(
    sql`SELECT id FROM asset_grant WHERE user_id = ${userId} AND asset_type = 'agent' AND asset_id = ${assetId}
        AND revoked_at IS NULL`,
  )
  return rows.length > 0
}

/** Rows of a raw query with every column but `type` read as a number (PostgreSQL gives bigints as text). */
async function amounts(query: SQL) {
  const rows = await server.rows<Record<string, unknown>>(query)
  return rows.map(({ type, ...rest }) => ({ ...(type === undefined ? {} : { type }), ...numbers(rest) }))
}

describe('commission', () => {
  it('rounds half up exactly', () => {
    expect(platformFee(15, 0.1)).toBe(2)
    expect(platformFee(14, 0.1)).toBe(1)
    expect(platformFee(10, 0.15)).toBe(2)
    expect(platformFee(50, 0.07)).toBe(4)
    expect(platformFee(1, 0.5)).toBe(1)
    expect(platformFee(3, 0)).toBe(0)
    expect(platformFee(1_000_000_000, 0.999999)).toBe(999_999_000)
    expect(platformFee(100, 1e-7)).toBe(0)
  })
})

describe('purchase', () => {
  it('runs the six steps: debits the buyer, pays commission and income, marks paid and grants the asset', async () => {
    server = await startTestServer()
    const listingId = await publishedListing(server, 'sam', { base_price: 155 })
    await topUp(server, 'bob', 200)
    const response = await buy('bob', listingId)
    expect(response.statusCode).toBe(201)
    const order = response.json()
    expect(order).toMatchObject({
      listing_id: listingId,
      total_price: 155,
      platform_fee: 16,
      seller_income: 139,
      status: 'paid',
      completed_at: expect.any(String),
    })
    expect(await balances(server, 'bob')).toMatchObject({ balance: 45, frozen_balance: 0, total_spent: 155 })
    // The seller's income is held for the refund window.
    expect(await balances(server, 'sam')).toMatchObject({
      balance: 0,
      frozen_balance: 139,
      total_earned: 139,
    })
    expect(await platformBalance(server)).toBe(16)
    const entries = await amounts(
      sql`SELECT type, amount FROM wallet_transaction WHERE reference_type = 'order' AND reference_id = ${order.id}
          ORDER BY type`,
    )
    expect(entries).toEqual([
      { type: 'commission', amount: 16 },
      { type: 'income', amount: 139 },
      { type: 'spend', amount: -155 },
    ])
    const bobId = await userIdOf(server, 'bob')
    await server.headersFor('carl')
    const { asset_id } = await assetOf(listingId)
    expect(await holdsGrant(bobId, asset_id)).toBe(true)
    expect(await holdsGrant(await userIdOf(server, 'carl'), asset_id)).toBe(false)
    expect((await call('GET', `/api/marketplace/listings/${listingId}`, 'bob')).json().download_count).toBe(1)

    const mine = await call('GET', '/api/marketplace/orders', 'bob')
    expect(mine.json()).toMatchObject({ total: 1, items: [{ id: order.id }] })
    const sales = await call('GET', '/api/marketplace/orders?role=seller&status=paid', 'sam')
    expect(sales.json()).toMatchObject({ total: 1, items: [{ id: order.id }] })
    expect((await call('GET', '/api/marketplace/orders?role=seller', 'bob')).json().total).toBe(0)
    expect((await call('GET', `/api/marketplace/orders/${order.id}`, 'bob')).json().id).toBe(order.id)
    const stranger = await call('GET', `/api/marketplace/orders/${order.id}`, 'carl')
    expect([stranger.statusCode, stranger.json().error.code]).toEqual([404, 'ORDER_NOT_FOUND'])
  })

  it('refuses each failing purchase with its code and changes nothing', async () => {
    server = await startTestServer()
    const listingId = await publishedListing(server, 'sam', { base_price: 100 })
    const draft = await createListing(server, 'sam', { title: 'Draft' })
    await topUp(server, 'bob', 150)
    await topUp(server, 'poor', 99)
    expect((await buy('bob', listingId)).statusCode).toBe(201)
    const before = await moneyFootprint(server)

    const poor = await buy('poor', listingId)
    expect(poor.statusCode).toBe(400)
    expect(poor.json().error).toMatchObject({
      code: 'INSUFFICIENT_BALANCE',
      details: { required: 100, available: 99 },
    })
    const cases: [string, string, number, string][] = [
      ['bob', '00000000-0000-4000-8000-000000000000', 404, 'LISTING_NOT_FOUND'],
      // A draft is not visible to a buyer: absent, exactly as when reading it.
      ['bob', draft, 404, 'LISTING_NOT_FOUND'],
      ['sam', listingId, 400, 'CANNOT_BUY_OWN_LISTING'],
      ['bob', listingId, 409, 'ALREADY_OWNED'],
    ]
    for (const [username, id, status, code] of cases) {
      const response = await buy(username, id)
      expect([response.statusCode, response.json().error.code]).toEqual([status, code])
    }
    const badBody = await call('POST', '/api/marketplace/orders', 'bob', { listing_id: 'not-a-uuid' })
    expect(badBody.statusCode).toBe(422)
    expect(await moneyFootprint(server)).toEqual(before)
  })

  it('leaves nothing behind when the purchase fails inside its transaction after the deduction', async () => {
    server = await startTestServer()
    const listingId = await publishedListing(server, 'sam', { base_price: 100 })
    await topUp(server, 'bob', 100)
    const before = await moneyFootprint(server)
    const { orders } = servicesOf(server).services
    const buyer = { id: await userIdOf(server, 'bob'), permissions: [] }
    // In the purchase group, as the route runs it (on PostgreSQL it makes the new seller's wallet first).
    await expect(
      orders.inPurchaseGroup((tx) =>
        orders.purchase(tx, buyer, listingId, new Date(), {
          afterDeduct: () => {
            throw new Error('power cut')
          },
        }),
      ),
    ).rejects.toThrow('power cut')
    expect(await moneyFootprint(server)).toEqual(before)
    expect(await balances(server, 'bob')).toMatchObject({ balance: 100, frozen_balance: 0 })
    expect((await buy('bob', listingId)).statusCode).toBe(201)
  })

  it('applies a commission change to the next order only', async () => {
    server = await startTestServer()
    const first = await publishedListing(server, 'sam', { base_price: 100 })
    const second = await publishedListing(server, 'sam', { base_price: 100, title: 'Second' })
    await topUp(server, 'bob', 200)
    expect((await buy('bob', first)).json()).toMatchObject({ platform_fee: 10, seller_income: 90 })
    await setConfig('commission_rate', 0.25)
    expect((await buy('bob', second)).json()).toMatchObject({ platform_fee: 25, seller_income: 75 })
    expect(await platformBalance(server)).toBe(35)
    expect((await balances(server, 'sam'))?.frozen_balance).toBe(165)
  })

  it('sells a free listing with no money movement but still grants the asset', async () => {
    server = await startTestServer()
    const listingId = await publishedListing(server, 'sam', { pricing_model: 'free', base_price: 0 })
    const response = await buy('bob', listingId)
    expect(response.statusCode).toBe(201)
    expect(response.json()).toMatchObject({
      total_price: 0,
      platform_fee: 0,
      seller_income: 0,
      status: 'paid',
    })
    expect(await amounts(sql`SELECT count(*) AS n FROM wallet_transaction`)).toEqual([{ n: 0 }])
    // A buyer who never topped up needs no wallet for it, and none is made.
    expect(await balances(server, 'bob')).toBeUndefined()
    expect(await holdsGrant(await userIdOf(server, 'bob'), (await assetOf(listingId)).asset_id)).toBe(true)
    const again = await buy('bob', listingId)
    expect([again.statusCode, again.json().error.code]).toEqual([409, 'ALREADY_OWNED'])
  })
})

describe('refund', () => {
  it('reverses every entry, revokes the grant and allows buying again', async () => {
    server = await startTestServer()
    const listingId = await publishedListing(server, 'sam', { base_price: 155 })
    await topUp(server, 'bob', 155)
    const order = (await buy('bob', listingId)).json()
    const refund = await call('POST', `/api/marketplace/orders/${order.id}/refund`, 'bob', {
      reason: 'Not useful',
    })
    expect(refund.statusCode).toBe(200)
    expect(refund.json()).toMatchObject({
      status: 'refunded',
      refund_reason: 'Not useful',
      refunded_at: expect.any(String),
    })
    expect(await balances(server, 'bob')).toMatchObject({ balance: 155, total_spent: 0 })
    expect(await balances(server, 'sam')).toMatchObject({ balance: 0, total_earned: 0 })
    expect(await platformBalance(server)).toBe(0)
    const entries = await amounts(
      sql`SELECT type, amount FROM wallet_transaction WHERE reference_id = ${order.id} AND type LIKE 'refund%'
          ORDER BY amount`,
    )
    expect(entries).toEqual([
      { type: 'refund_reversal', amount: -139 },
      { type: 'refund_reversal', amount: -16 },
      { type: 'refund', amount: 155 },
    ])
    const asset = (await assetOf(listingId)).asset_id
    expect(await holdsGrant(await userIdOf(server, 'bob'), asset)).toBe(false)
    expect(await server.rows(sql`SELECT revoked_at FROM asset_grant`)).toEqual([
      { revoked_at: expect.any(String) },
    ])
    const twice = await call('POST', `/api/marketplace/orders/${order.id}/refund`, 'bob', { reason: 'again' })
    expect([twice.statusCode, twice.json().error.code]).toEqual([409, 'ORDER_ALREADY_REFUNDED'])
    expect((await buy('bob', listingId)).statusCode).toBe(201)
  })

  it("refuses a refund past the order's window or of someone else, changing nothing", async () => {
    server = await startTestServer()
    const listingId = await publishedListing(server, 'sam', { base_price: 200 })
    const other = await publishedListing(server, 'sam', { base_price: 10, title: 'Other' })
    await topUp(server, 'bob', 210)
    const order = (await buy('bob', listingId)).json()
    const before = await moneyFootprint(server)
    const stranger = await call('POST', `/api/marketplace/orders/${order.id}/refund`, 'carl', { reason: 'x' })
    expect([stranger.statusCode, stranger.json().error.code]).toEqual([404, 'ORDER_NOT_FOUND'])
    const seller = await call('POST', `/api/marketplace/orders/${order.id}/refund`, 'sam', { reason: 'x' })
    expect([seller.statusCode, seller.json().error.code]).toEqual([404, 'ORDER_NOT_FOUND'])

    const { orders } = servicesOf(server).services
    const eightDaysLater = new Date(Date.parse(order.completed_at) + 8 * 24 * 3600 * 1000)
    expect(order.refundable_until).toBe(
      new Date(Date.parse(order.completed_at) + 7 * 24 * 3600 * 1000).toISOString(),
    )
    const bob = await userIdOf(server, 'bob')
    const refundAt = (orderId: string, at: Date) =>
      server.app.ctx.database.transact((tx) => orders.refund(tx, bob, orderId, 'late', at))
    await expect(refundAt(order.id, eightDaysLater)).rejects.toThrowError(
      expect.objectContaining({ code: 'REFUND_WINDOW_EXPIRED', statusCode: 409 }),
    )
    // A window change applies to orders made after it: this one closes as it is paid.
    await setConfig('refund_window_days', 0)
    const old = (await buy('bob', other)).json()
    expect(old.refundable_until).toBe(old.completed_at)
    const afterOld = await moneyFootprint(server)
    await expect(refundAt(old.id, new Date(Date.parse(old.completed_at) + 1))).rejects.toThrowError(
      expect.objectContaining({ code: 'REFUND_WINDOW_EXPIRED' }),
    )
    expect(await moneyFootprint(server)).toEqual(afterOld)
    expect(afterOld).not.toEqual(before)
    expect(await amounts(sql`SELECT count(*) AS n FROM marketplace_order WHERE status = 'paid'`)).toEqual([
      { n: 2 },
    ])
    // The first order's window is still its own seven days.
    expect(
      (await call('POST', `/api/marketplace/orders/${order.id}/refund`, 'bob', { reason: 'ok' })).statusCode,
    ).toBe(200)
  })
})

describe('reviews', () => {
  it('lets a buyer review once and keeps rating_avg and rating_count exact', async () => {
    server = await startTestServer()
    const listingId = await publishedListing(server, 'sam', { base_price: 10 })
    for (const name of ['bob', 'carl', 'dora']) {
      await topUp(server, name, 10)
      expect((await buy(name, listingId)).statusCode).toBe(201)
    }
    const ratings: [string, number][] = [
      ['bob', 5],
      ['carl', 4],
      ['dora', 4],
    ]
    for (const [name, rating] of ratings) {
      const response = await call('POST', `/api/marketplace/listings/${listingId}/reviews`, name, {
        rating,
        comment: `from ${name}`,
      })
      expect(response.statusCode).toBe(201)
      expect(response.json()).toMatchObject({
        rating,
        comment: `from ${name}`,
        author: { username: name },
        listing_id: listingId,
      })
    }
    const detail = (await call('GET', `/api/marketplace/listings/${listingId}`, 'eve')).json()
    expect(detail).toMatchObject({ rating_avg: 13 / 3, rating_count: 3 })
    const reviews = await call('GET', `/api/marketplace/listings/${listingId}/reviews?size=2`, 'eve')
    expect(reviews.json()).toMatchObject({ total: 3, size: 2 })
    expect(reviews.json().items).toHaveLength(2)

    const twice = await call('POST', `/api/marketplace/listings/${listingId}/reviews`, 'bob', { rating: 1 })
    expect([twice.statusCode, twice.json().error.code]).toEqual([400, 'ALREADY_REVIEWED'])
    const notBuyer = await call('POST', `/api/marketplace/listings/${listingId}/reviews`, 'eve', {
      rating: 1,
    })
    expect([notBuyer.statusCode, notBuyer.json().error.code]).toEqual([403, 'REVIEW_NOT_ALLOWED'])
    for (const rating of [0, 6, 3.5, '4']) {
      const bad = await call('POST', `/api/marketplace/listings/${listingId}/reviews`, 'eve', { rating })
      expect(bad.statusCode).toBe(422)
    }
    const unknown = await call(
      'POST',
      '/api/marketplace/listings/00000000-0000-4000-8000-000000000000/reviews',
      'bob',
      { rating: 3 },
    )
    expect([unknown.statusCode, unknown.json().error.code]).toEqual([404, 'LISTING_NOT_FOUND'])
    expect(await amounts(sql`SELECT rating_sum, rating_count FROM listing`)).toEqual([
      { rating_sum: 13, rating_count: 3 },
    ])
  })

  it('refuses a review after the order was refunded', async () => {
    server = await startTestServer()
    const listingId = await publishedListing(server, 'sam', { base_price: 10 })
    await topUp(server, 'bob', 10)
    const order = (await buy('bob', listingId)).json()
    await call('POST', `/api/marketplace/orders/${order.id}/refund`, 'bob', { reason: 'x' })
    const response = await call('POST', `/api/marketplace/listings/${listingId}/reviews`, 'bob', {
      rating: 2,
    })
    expect([response.statusCode, response.json().error.code]).toEqual([403, 'REVIEW_NOT_ALLOWED'])
  })
})

describe('platform statistics', () => {
  it('counts each figure as the contract defines it', async () => {
    server = await startTestServer()
    const a = await publishedListing(server, 'sam', { base_price: 100 })
    const b = await publishedListing(server, 'sam', { base_price: 50, title: 'B' })
    await createListing(server, 'sam', { title: 'Draft' })
    await topUp(server, 'bob', 150)
    await buy('bob', a)
    const refunded = (await buy('bob', b)).json()
    await call('POST', `/api/marketplace/orders/${refunded.id}/refund`, 'bob', { reason: 'x' })
    const stats = await call('GET', '/api/admin/stats', 'admin')
    expect(stats.statusCode).toBe(200)
    expect(stats.json()).toEqual({
      total_listings: 3,
      total_orders: 2,
      total_users: 3,
      total_transaction_volume: 100,
      platform_commission_total: 10,
    })
    expect((await call('GET', '/api/admin/stats', 'bob')).statusCode).toBe(403)
  })

  it('gives the same figures per day, zero-filled, summing to the totals of the window', async () => {
    server = await startTestServer()
    const a = await publishedListing(server, 'sam', { base_price: 100 })
    const b = await publishedListing(server, 'sam', { base_price: 50, title: 'B' })
    await topUp(server, 'bob', 150)
    await buy('bob', a)
    const refunded = (await buy('bob', b)).json()
    await call('POST', `/api/marketplace/orders/${refunded.id}/refund`, 'bob', { reason: 'x' })
    // One order made yesterday, moved there in storage: it counts on its own day.
    const yesterday = new Date(Date.now() - 86_400_000).toISOString()
    await topUp(server, 'cat', 100)
    const old = (await buy('cat', a)).json()
    expect(old.status).toBe('paid')
    await server.write(sql`UPDATE marketplace_order SET created_at = ${yesterday} WHERE id = ${old.id}`)
    await server.write(
      sql`UPDATE wallet_transaction SET created_at = ${yesterday} WHERE reference_id = ${old.id} AND type = 'commission'`,
    )

    const daily = await call('GET', '/api/admin/stats/daily?days=7', 'admin')
    expect(daily.statusCode).toBe(200)
    const days = daily.json().days as { date: string; orders: number; volume: number; commission: number }[]
    expect(days.map((day) => day.date)).toEqual(
      Array.from({ length: 7 }, (_, i) =>
        new Date(Date.now() - (6 - i) * 86_400_000).toISOString().slice(0, 10),
      ),
    )
    expect(days.at(-1)).toMatchObject({ orders: 2, volume: 100, commission: 10 })
    expect(days.at(-2)).toMatchObject({ orders: 1, volume: 100, commission: 10 })
    expect(
      days.slice(0, -2).every((day) => day.orders === 0 && day.volume === 0 && day.commission === 0),
    ).toBe(true)
    const totals = (await call('GET', '/api/admin/stats', 'admin')).json()
    expect(days.reduce((sum, day) => sum + day.volume, 0)).toBe(totals.total_transaction_volume)
    expect(days.reduce((sum, day) => sum + day.commission, 0)).toBe(totals.platform_commission_total)
    expect((await call('GET', '/api/admin/stats/daily?days=0', 'admin')).statusCode).toBe(422)
    expect((await call('GET', '/api/admin/stats/daily', 'bob')).statusCode).toBe(403)
  })
})

// SQLite's own migration of a previous release's tables: nothing to migrate on PostgreSQL.
describe.skipIf(TEST_ENGINE === 'postgres')('purchase tables (migration 0007)', () => {
  it("rebuilds a previous release's order, grant and ledger tables with the same rows and the same checks", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-purchase-tables-'))
    // After afterEach has closed the last server on it.
    onTestFinished(() => rmSync(dataDir, { recursive: true, force: true }))
    server = await startTestServer({ dataDir })
    const kept = await publishedListing(server, 'sam', { base_price: 100, title: 'Kept' })
    const refunded = await publishedListing(server, 'sam', { base_price: 50, title: 'Refunded' })
    const later = await publishedListing(server, 'sam', { base_price: 30, title: 'Later' })
    await topUp(server, 'bob', 300)
    await buy('bob', kept)
    const order = (await buy('bob', refunded)).json()
    await call('POST', `/api/marketplace/orders/${order.id}/refund`, 'bob', { reason: 'not needed' })
    const sqlite = () => server.sqlite().$client
    const tables = ['marketplace_order', 'asset_grant', 'wallet_transaction']
    const rows = () => tables.map((table) => sqlite().prepare(`SELECT * FROM ${table} ORDER BY id`).all())
    rewindMigrations(sqlite(), 7)
    const before = rows()

    // The tables as the previous release made them (0000, with IN-list checks), the frozen-balance index, and
    // 0007 not applied. Outside a transaction, so foreign keys can be switched off while tables are swapped.
    const init = readFileSync(new URL('../platform/db/migrations/0000_init.sql', import.meta.url), 'utf8')
    sqlite().pragma('foreign_keys = OFF')
    for (const table of tables) {
      const previous = init
        .split('--> statement-breakpoint')
        .map((statement) => statement.trim())
        .find((statement) => statement.startsWith(`CREATE TABLE \`${table}\``)) as string
      expect(previous).toContain(' IN (')
      sqlite().exec(
        previous
          .replaceAll(`\`${table}\``, `\`previous_${table}\``)
          .replaceAll(`"${table}".`, `"previous_${table}".`),
      )
      sqlite().exec(`INSERT INTO previous_${table} SELECT * FROM ${table}; DROP TABLE ${table};
        ALTER TABLE previous_${table} RENAME TO ${table}`)
    }
    sqlite().exec('CREATE INDEX wallet_frozen_idx ON wallet (frozen_balance)')
    sqlite().pragma('foreign_keys = ON')
    const buyerId = await userIdOf(server, 'bob')
    await server.close()
    server = await startTestServer({ dataDir })

    // The same rows, with the columns later migrations added beside them.
    expect(rows()).toMatchObject(before)
    const definitions = sqlite()
      .prepare(
        `SELECT sql FROM sqlite_master WHERE name IN ('marketplace_order', 'asset_grant', 'wallet_transaction')`,
      )
      .pluck()
      .all() as string[]
    expect(definitions.filter((definition) => definition.includes(' IN ('))).toEqual([])
    expect(
      sqlite().prepare("SELECT name FROM sqlite_master WHERE name = 'wallet_frozen_idx'").get(),
    ).toBeUndefined()
    expect(sqlite().prepare('PRAGMA foreign_key_check').all()).toEqual([])
    expect(sqlite().prepare('PRAGMA foreign_key_list(asset_grant)').all()).toContainEqual(
      expect.objectContaining({ table: 'marketplace_order', from: 'order_id' }),
    )
    // A buyer's paid order of a listing is still found through the listing-and-buyer index.
    const plan = sqlite()
      .prepare(
        "EXPLAIN QUERY PLAN SELECT id FROM marketplace_order WHERE listing_id = ? AND buyer_id = ? AND status = 'paid'",
      )
      .all('x', 'y') as { detail: string }[]
    expect(plan.map((step) => step.detail).join('; ')).toContain('marketplace_order_by_listing_buyer_idx')
    // The same states and kinds are refused.
    expect(() => sqlite().prepare("UPDATE marketplace_order SET status = 'lost'").run()).toThrow(/CHECK/)
    expect(() => sqlite().prepare("UPDATE asset_grant SET asset_type = 'model'").run()).toThrow(/CHECK/)
    expect(() => sqlite().prepare("UPDATE wallet_transaction SET type = 'gift'").run()).toThrow(/CHECK/)
    expect(() => sqlite().prepare("UPDATE wallet_transaction SET reference_type = 'gift'").run()).toThrow(
      /CHECK/,
    )
    // And a purchase still writes through them.
    const { orders } = servicesOf(server).services
    const bought = await server.app.ctx.database.transact((tx) =>
      orders.purchase(tx, { id: buyerId, permissions: ['marketplace.use'] }, later, new Date()),
    )
    expect(bought).toMatchObject({ status: 'paid', total_price: 30 })
    expect(await balances(server, 'bob')).toMatchObject({ balance: 300 - 100 - 30, frozen_balance: 0 })
  })
})
