/**
 * Money a buyer can trust, attacked over real loopback HTTP: the seller changing the price under the buyer, the
 * seller emptying their wallet before a refund, transfers to disabled accounts, minting by top-up. Each case checks
 * the stored ledger and balances; the frame checks conservation after every test.
 */
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import {
  agentOf,
  balances,
  loopbackClient,
  marketplaceTestFrame,
  moneyFootprint,
  numbers,
  publish,
  publishedListing,
  servicesOf,
  topUp,
  userIdOf,
} from '../../test/helpers/marketplace'
import { startTestServer, type TestServer } from '../../test/helpers/server'

let server: TestServer
const { setConfig } = marketplaceTestFrame(() => server)
const DAY_MS = 24 * 3600 * 1000

async function start() {
  server = await startTestServer()
  return loopbackClient(server, await server.listen())
}

/** The ledger entries of one order, in the order they were written. */
async function orderEntries(orderId: string) {
  const rows = await server.rows<Record<string, unknown>>(
    sql`SELECT u.username, t.type, t.amount, t.balance_after, t.frozen_after FROM wallet_transaction t
        JOIN wallet w ON w.id = t.wallet_id JOIN "user" u ON u.id = w.user_id
        WHERE t.reference_type = 'order' AND t.reference_id = ${orderId} ORDER BY t.id`,
  )
  return rows.map(({ username, type, ...amounts }) => ({ username, type, ...numbers(amounts) }))
}

async function listingStatus(id: string) {
  const [row] = await server.rows<{ status: string; base_price: unknown }>(
    sql`SELECT status, base_price FROM listing WHERE id = ${id}`,
  )
  return row && { status: row.status, base_price: Number(row.base_price) }
}

describe('the price the buyer was shown', () => {
  it('refuses a purchase whose price was raised after the buyer saw it: 409 PRICE_CHANGED, nothing charged', async () => {
    const http = await start()
    const listingId = await publishedListing(server, 'sam', { base_price: 10 })
    await topUp(server, 'bob', 1000)
    const shown = (await http.send('GET', 'bob', `/api/marketplace/listings/${listingId}`)).body
    expect(shown.base_price).toBe(10)
    // The seller raises the price and an admin approves the new one before the buyer clicks.
    const raised = await http.send('PUT', 'sam', `/api/marketplace/listings/${listingId}`, {
      base_price: 900,
    })
    expect(raised.status).toBe(200)
    await publish(server, listingId)

    const before = await moneyFootprint(server)
    const walletBefore = await balances(server, 'bob')
    const bought = await http.post('bob', '/api/marketplace/orders', {
      listing_id: listingId,
      expected_price: shown.base_price,
    })
    expect([bought.status, bought.body.error?.code]).toEqual([409, 'PRICE_CHANGED'])
    expect(bought.body.error?.details).toMatchObject({ expected_price: 10, price: 900 })
    expect(await moneyFootprint(server)).toEqual(before)
    expect(await balances(server, 'bob')).toEqual(walletBefore)

    // At the price now shown, the purchase goes through and the order carries it.
    const agreed = await http.post('bob', '/api/marketplace/orders', {
      listing_id: listingId,
      expected_price: 900,
    })
    expect([agreed.status, agreed.body.total_price]).toEqual([201, 900])
  })

  it('sends a published listing back to review when its price, pricing model or asset changes', async () => {
    const http = await start()
    const priced = await publishedListing(server, 'sam', { base_price: 10 })
    const modelled = await publishedListing(server, 'sam', { title: 'Free later' })
    const reassigned = await publishedListing(server, 'sam', { title: 'Another asset' })
    const retitled = await publishedListing(server, 'sam', { title: 'Retitled' })
    await topUp(server, 'bob', 1000)

    const edits: [string, Record<string, unknown>][] = [
      [priced, { base_price: 900 }],
      [modelled, { pricing_model: 'free', base_price: 0 }],
      [reassigned, { asset_id: await agentOf(server, 'sam') }],
      [retitled, { title: 'Only the title', base_price: 100 }],
    ]
    for (const [id, body] of edits)
      expect((await http.send('PUT', 'sam', `/api/marketplace/listings/${id}`, body)).status).toBe(200)
    expect(await listingStatus(priced)).toEqual({ status: 'pending_review', base_price: 900 })
    expect(await listingStatus(modelled)).toMatchObject({ status: 'pending_review' })
    expect(await listingStatus(reassigned)).toMatchObject({ status: 'pending_review' })
    expect(await listingStatus(retitled)).toMatchObject({ status: 'published' })

    // Out of the market until an admin publishes it again: not listed, not for sale at the new price.
    const market = await http.send('GET', 'bob', '/api/marketplace/listings?size=100')
    expect((market.body.items as { id: string }[]).map((item) => item.id)).toEqual([retitled])
    const before = await moneyFootprint(server)
    const bought = await http.post('bob', '/api/marketplace/orders', { listing_id: priced })
    expect([bought.status, bought.body.error?.code]).toEqual([404, 'LISTING_NOT_FOUND'])
    expect(await moneyFootprint(server)).toEqual(before)
  })
})

describe("a sale's income is held for the refund window", () => {
  it('keeps the income out of reach of a withdrawal, so the refund inside the window succeeds', async () => {
    const http = await start()
    const listingId = await publishedListing(server, 'sam', { base_price: 200 })
    await topUp(server, 'bob', 200)
    await topUp(server, 'sam', 150)
    const order = (
      await http.post('bob', '/api/marketplace/orders', { listing_id: listingId, expected_price: 200 })
    ).body
    expect(await balances(server, 'sam')).toMatchObject({ balance: 150, frozen_balance: 180 })

    // The seller tries to take the income out right after the sale: only the available balance can go.
    const greedy = await http.post('sam', '/api/wallet/withdraw', { amount: 330, method: 'bank' })
    expect([greedy.status, greedy.body.error?.code]).toEqual([400, 'INSUFFICIENT_BALANCE'])
    expect(greedy.body.error?.details).toMatchObject({ available: 150 })
    expect((await http.post('sam', '/api/wallet/withdraw', { amount: 150, method: 'bank' })).status).toBe(200)
    expect(await balances(server, 'sam')).toMatchObject({ balance: 0, frozen_balance: 180 })

    const refund = await http.post('bob', `/api/marketplace/orders/${order.id}/refund`, {
      reason: 'changed mind',
    })
    expect([refund.status, refund.body.status]).toEqual([200, 'refunded'])
    expect(await balances(server, 'bob')).toMatchObject({ balance: 200, frozen_balance: 0 })
    expect(await balances(server, 'sam')).toMatchObject({ balance: 0, frozen_balance: 0, total_earned: 0 })
    expect(await orderEntries(order.id as string)).toEqual([
      // The platform's commission is the purchase's last entry: its wallet is locked only from there to the commit.
      { username: 'bob', type: 'spend', amount: -200, balance_after: 0, frozen_after: 0 },
      { username: 'sam', type: 'income', amount: 180, balance_after: 150, frozen_after: 180 },
      { username: 'platform', type: 'commission', amount: 20, balance_after: 20, frozen_after: 0 },
      { username: 'sam', type: 'refund_reversal', amount: -180, balance_after: 0, frozen_after: 0 },
      { username: 'platform', type: 'refund_reversal', amount: -20, balance_after: 0, frozen_after: 0 },
      { username: 'bob', type: 'refund', amount: 200, balance_after: 200, frozen_after: 0 },
    ])
  })

  it("counts the daily earn cap's hold as held income the refund draws on", async () => {
    const http = await start()
    await setConfig('daily_earn_cap', 50)
    const listingId = await publishedListing(server, 'sam', { base_price: 200 })
    await topUp(server, 'bob', 200)
    const order = (await http.post('bob', '/api/marketplace/orders', { listing_id: listingId })).body
    expect(await orderEntries(order.id as string)).toContainEqual(
      expect.objectContaining({ username: 'sam', type: 'hold', amount: 130, frozen_after: 180 }),
    )
    const refund = await http.post('bob', `/api/marketplace/orders/${order.id}/refund`, { reason: 'no' })
    expect(refund.status).toBe(200)
    expect(await balances(server, 'sam')).toMatchObject({ balance: 0, frozen_balance: 0 })
    expect(await balances(server, 'bob')).toMatchObject({ balance: 200 })
  })

  it('releases the income to the balance once the window is over, and only then', async () => {
    const http = await start()
    const listingId = await publishedListing(server, 'sam', { base_price: 100 })
    await topUp(server, 'bob', 100)
    const order = (await http.post('bob', '/api/marketplace/orders', { listing_id: listingId })).body
    const until = Date.parse(order.refundable_until as string)
    expect(until - Date.parse(order.completed_at as string)).toBe(7 * DAY_MS)
    const { services } = servicesOf(server)
    const sam = await userIdOf(server, 'sam')
    // Held through the whole UTC day the window ends on; released by the first read after it.
    const lastDay = new Date(`${new Date(until).toISOString().slice(0, 10)}T23:59:59.999Z`)
    expect(await services.wallet.read(sam, lastDay)).toMatchObject({ balance: 0, frozen_balance: 90 })
    expect(await services.wallet.read(sam, new Date(lastDay.getTime() + 1))).toMatchObject({
      balance: 90,
      frozen_balance: 0,
    })
    const released = await server.rows<Record<string, unknown>>(
      sql`SELECT amount, balance_after, frozen_after FROM wallet_transaction
          WHERE type = 'release' AND wallet_id = (SELECT id FROM wallet WHERE user_id = ${sam})`,
    )
    expect(released.map(numbers)).toEqual([{ amount: 0, balance_after: 90, frozen_after: 0 }])
  })
})

describe('transfers', () => {
  it('refuses a transfer to a disabled account and moves nothing', async () => {
    const http = await start()
    await topUp(server, 'ann', 100)
    await server.headersFor('dan')
    const dan = await userIdOf(server, 'dan')
    expect((await http.send('PATCH', 'admin', `/api/admin/users/${dan}`, { disabled: true })).status).toBe(
      200,
    )
    const before = await moneyFootprint(server)
    const sent = await http.post('ann', '/api/wallet/transfer', { to_user_id: dan, amount: 40 })
    expect([sent.status, sent.body.error?.code]).toEqual([404, 'USER_NOT_FOUND'])
    expect(await moneyFootprint(server)).toEqual(before)
    expect(await balances(server, 'ann')).toMatchObject({ balance: 100 })
    expect(await balances(server, 'dan')).toBeUndefined()
  })
})

describe('top-ups', () => {
  it('refuses the simulated top-up when an admin turns it off, and writes nothing', async () => {
    const http = await start()
    expect((await http.send('GET', 'admin', '/api/admin/config')).body).toMatchObject({
      simulated_topup_enabled: true,
      topup_daily_limit: 1_000_000,
    })
    await setConfig('simulated_topup_enabled', false)
    await server.headersFor('ann')
    const before = await moneyFootprint(server)
    const minted = await http.post('ann', '/api/wallet/topup', { amount: 500, payment_method: 'simulated' })
    expect([minted.status, minted.body.error?.code]).toEqual([403, 'TOPUP_DISABLED'])
    expect(await moneyFootprint(server)).toEqual(before)
    await setConfig('simulated_topup_enabled', true)
    expect(
      (await http.post('ann', '/api/wallet/topup', { amount: 500, payment_method: 'simulated' })).status,
    ).toBe(200)
  })

  it('holds each user to the daily top-up limit, also when the top-ups race', async () => {
    const http = await start()
    await setConfig('topup_daily_limit', 500)
    const topup = (username: string, amount: number) =>
      http.post(username, '/api/wallet/topup', { amount, payment_method: 'simulated' })
    expect((await topup('ann', 300)).status).toBe(200)
    const over = await topup('ann', 300)
    expect([over.status, over.body.error?.code]).toEqual([400, 'TOPUP_LIMIT_EXCEEDED'])
    expect(over.body.error?.details).toMatchObject({ limit: 500, topped_up_today: 300, amount: 300 })
    expect((await topup('ann', 200)).status).toBe(200)
    expect(await balances(server, 'ann')).toMatchObject({ balance: 500 })

    // Ten at once from another user: exactly five fit.
    await server.headersFor('ben')
    const raced = await Promise.all(Array.from({ length: 10 }, () => topup('ben', 100)))
    expect(raced.filter((sent) => sent.status === 200)).toHaveLength(5)
    expect(raced.filter((sent) => sent.body.error?.code === 'TOPUP_LIMIT_EXCEEDED')).toHaveLength(5)
    expect(await balances(server, 'ben')).toMatchObject({ balance: 500 })
    const [topups] = await server.rows<{ n: unknown }>(
      sql`SELECT count(*) AS n FROM wallet_transaction
          WHERE type = 'topup' AND wallet_id = (SELECT id FROM wallet WHERE user_id = ${await userIdOf(server, 'ben')})`,
    )
    expect(Number(topups?.n)).toBe(5)
  })
})

describe('cover images', () => {
  it('takes https covers only: script, plain http and inline data are refused with 422 and stored nowhere', async () => {
    const http = await start()
    const listingId = await publishedListing(server, 'sam', {
      cover_image_url: 'https://example.org/cover.png',
    })
    const stored = async () =>
      (
        await server.rows<{ url: string }>(
          sql`SELECT cover_image_url AS url FROM listing WHERE id = ${listingId}`,
        )
      )[0]?.url
    expect(await stored()).toBe('https://example.org/cover.png')
    const count = async () =>
      Number((await server.rows<{ n: unknown }>(sql`SELECT count(*) AS n FROM listing`))[0]?.n)
    const listings = await count()
    for (const bad of [
      'javascript:alert(document.cookie)',
      'http://example.org/cover.png',
      'data:image/png;base64,iVBORw0KGgo=',
      'JAVASCRIPT:alert(1)',
    ]) {
      const edited = await http.send('PUT', 'sam', `/api/marketplace/listings/${listingId}`, {
        cover_image_url: bad,
      })
      expect([edited.status, edited.body.error?.code], bad).toEqual([422, 'VALIDATION_ERROR'])
      const created = await http.post('sam', '/api/marketplace/listings', {
        asset_type: 'agent',
        asset_id: 'any',
        title: 'Cover test',
        pricing_model: 'free',
        base_price: 0,
        cover_image_url: bad,
      })
      expect([created.status, created.body.error?.code], bad).toEqual([422, 'VALIDATION_ERROR'])
    }
    expect(await stored()).toBe('https://example.org/cover.png')
    expect(await count()).toBe(listings)
  })
})
