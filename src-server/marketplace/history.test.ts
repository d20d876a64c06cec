import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { describe, expect, it, onTestFinished } from 'vitest'
import { TEST_ENGINE } from '../../test/helpers/engine'
import {
  createListing,
  marketplaceTestFrame,
  publishedListing,
  topUp,
  userIdOf,
} from '../../test/helpers/marketplace'
import { rewindMigrations } from '../../test/helpers/migrations'
import { startTestServer, type TestServer } from '../../test/helpers/server'
import { listTransactionHistory } from './history.repository'
import { ledgerViolations } from './ledger-audit'

let server: TestServer
const { call, buy } = marketplaceTestFrame(() => server)

/** A listing's stored rating, as numbers on both engines (PostgreSQL reads bigint as text). */
async function storedRating(listingId: string) {
  const [row] = await server.rows<{ rating_sum: number | string; rating_count: number | string }>(
    sql`SELECT rating_sum, rating_count FROM listing WHERE id = ${listingId}`,
  )
  return { rating_sum: Number(row?.rating_sum), rating_count: Number(row?.rating_count) }
}

describe('a refunded order and its review', () => {
  it('takes the refunded buyer’s review out of rating_avg and rating_count, stored and returned', async () => {
    server = await startTestServer()
    const listingId = await publishedListing(server, 'sam', { base_price: 10 })
    const orders: Record<string, string> = {}
    for (const [name, rating] of [
      ['bob', 5],
      ['carl', 2],
    ] as const) {
      await topUp(server, name, 10)
      orders[name] = (await buy(name, listingId)).json().id
      const posted = await call('POST', `/api/marketplace/listings/${listingId}/reviews`, name, { rating })
      expect(posted.statusCode).toBe(201)
    }
    const refunded = await call('POST', `/api/marketplace/orders/${orders.carl}/refund`, 'carl', {
      reason: 'not what I needed',
    })
    expect(refunded.statusCode).toBe(200)

    expect(await storedRating(listingId)).toEqual({ rating_sum: 5, rating_count: 1 })
    const detail = (await call('GET', `/api/marketplace/listings/${listingId}`, 'eve')).json()
    expect(detail).toMatchObject({ rating_avg: 5, rating_count: 1 })
    // The review stays readable, marked as no longer counted.
    const reviews = (await call('GET', `/api/marketplace/listings/${listingId}/reviews`, 'eve')).json()
    const byAuthor = Object.fromEntries(
      reviews.items.map((r: { author: { username: string }; counted: boolean }) => [
        r.author.username,
        r.counted,
      ]),
    )
    expect(byAuthor).toEqual({ bob: true, carl: false })
  })

  it('leaves the rating alone when a buyer without a review is refunded', async () => {
    server = await startTestServer()
    const listingId = await publishedListing(server, 'sam', { base_price: 10 })
    await topUp(server, 'bob', 10)
    await topUp(server, 'carl', 10)
    await buy('bob', listingId)
    await call('POST', `/api/marketplace/listings/${listingId}/reviews`, 'bob', { rating: 4 })
    const order = (await buy('carl', listingId)).json()
    await call('POST', `/api/marketplace/orders/${order.id}/refund`, 'carl', { reason: 'x' })
    expect(await storedRating(listingId)).toEqual({ rating_sum: 4, rating_count: 1 })
  })
})

describe('histories carry names, not ids', () => {
  it('lists orders with the listing title and the seller, sales with the buyer', async () => {
    server = await startTestServer()
    const listingId = await publishedListing(server, 'sam', { title: 'Invoice reader', base_price: 10 })
    await topUp(server, 'bob', 10)
    expect((await buy('bob', listingId)).statusCode).toBe(201)

    const orders = (await call('GET', '/api/marketplace/orders', 'bob')).json()
    expect(orders.items).toEqual([
      expect.objectContaining({
        listing_id: listingId,
        listing_title: 'Invoice reader',
        counterparty: { id: await userIdOf(server, 'sam'), username: 'sam' },
      }),
    ])
    const sales = (await call('GET', '/api/marketplace/orders?role=seller', 'sam')).json()
    expect(sales.items).toEqual([
      expect.objectContaining({
        listing_title: 'Invoice reader',
        counterparty: expect.objectContaining({ username: 'bob' }),
      }),
    ])
  })

  it('narrows the orders to one listing with listing_id, with status alongside, and refuses a non-uuid one', async () => {
    server = await startTestServer()
    const reader = await publishedListing(server, 'sam', { title: 'Invoice reader', base_price: 10 })
    const sorter = await publishedListing(server, 'sam', { title: 'Mail sorter', base_price: 10 })
    await topUp(server, 'bob', 30)
    const readerOrder = (await buy('bob', reader)).json().id
    const sorterOrder = (await buy('bob', sorter)).json().id
    await call('POST', `/api/marketplace/orders/${sorterOrder}/refund`, 'bob', { reason: 'not needed' })

    const ids = async (query: string, as = 'bob') =>
      (await call('GET', `/api/marketplace/orders?${query}`, as))
        .json()
        .items.map((o: { id: string }) => o.id)
    expect(await ids(`listing_id=${reader}`)).toEqual([readerOrder])
    expect(await ids(`listing_id=${sorter}`)).toEqual([sorterOrder])
    expect(await ids(`listing_id=${sorter}&status=paid`)).toEqual([])
    expect(await ids(`listing_id=${reader}&role=seller`, 'sam')).toEqual([readerOrder])
    expect(await ids(`listing_id=${reader}`, 'carl')).toEqual([])
    const bad = await call('GET', '/api/marketplace/orders?listing_id=reader', 'bob')
    expect([bad.statusCode, bad.json().error.code]).toEqual([422, 'VALIDATION_ERROR'])
  })

  it('names the listing and the other party of order and transfer entries in the ledger', async () => {
    server = await startTestServer()
    const listingId = await publishedListing(server, 'sam', { title: 'Invoice reader', base_price: 10 })
    await topUp(server, 'bob', 30)
    await buy('bob', listingId)
    await server.headersFor('carl')
    const sent = await call('POST', '/api/wallet/transfer', 'bob', {
      to_user_id: await userIdOf(server, 'carl'),
      amount: 5,
    })
    expect(sent.statusCode).toBe(200)

    const bob = (await call('GET', '/api/wallet/transactions', 'bob')).json().items
    const summary = (
      items: { type: string; listing_title: string | null; counterparty: { username: string } | null }[],
    ) => items.map((t) => [t.type, t.listing_title, t.counterparty?.username ?? null])
    expect(summary(bob)).toEqual([
      ['transfer_out', null, 'carl'],
      ['spend', 'Invoice reader', 'sam'],
      ['topup', null, null],
    ])
    expect(summary((await call('GET', '/api/wallet/transactions', 'sam')).json().items)).toEqual([
      ['income', 'Invoice reader', 'bob'],
    ])
    expect(summary((await call('GET', '/api/wallet/transactions', 'carl')).json().items)).toEqual([
      ['transfer_in', null, 'bob'],
    ])
  })

  it('pages orders and ledger entries by whatever page size each request asks for', async () => {
    server = await startTestServer()
    const listings = [
      await publishedListing(server, 'sam', { title: 'Invoice reader', base_price: 10 }),
      await publishedListing(server, 'sam', { title: 'Mail sorter', base_price: 10 }),
      await publishedListing(server, 'sam', { title: 'Receipt reader', base_price: 10 }),
    ]
    await topUp(server, 'bob', 30)
    const orders: string[] = []
    for (const listingId of listings) orders.unshift((await buy('bob', listingId)).json().id)
    const page = async (path: string) => (await call('GET', path, 'bob')).json()
    const ids = async (query: string) =>
      (await page(`/api/marketplace/orders?${query}`)).items.map((o: { id: string }) => o.id)

    // Each page size is a statement of its own: one size's page never answers for another's.
    expect(await ids('size=1')).toEqual(orders.slice(0, 1))
    expect(await ids('size=2&page=2')).toEqual(orders.slice(2))
    expect(await ids('size=1&page=2')).toEqual(orders.slice(1, 2))
    expect(await page('/api/marketplace/orders?size=2')).toMatchObject({ total: 3, page: 1, size: 2 })
    const types = async (query: string) =>
      (await page(`/api/wallet/transactions?${query}`)).items.map((t: { type: string }) => t.type)
    expect(await types('size=1')).toEqual(['spend'])
    expect(await types('size=2&page=2')).toEqual(['spend', 'topup'])
    expect(await types('size=1&type=topup')).toEqual(['topup'])
    expect(await page('/api/wallet/transactions?size=4&type=spend')).toMatchObject({ total: 3, size: 4 })
    // Without a type the total is the wallet's entry count, read off its last seq: the top-up and three purchases.
    const bob = await userIdOf(server, 'bob')
    const stored = await server.rows(
      sql`SELECT CAST(count(*) AS integer) AS n FROM wallet_transaction t JOIN wallet w ON w.id = t.wallet_id
        WHERE w.user_id = ${bob}`,
    )
    expect(stored).toEqual([{ n: 4 }])
    expect(await page('/api/wallet/transactions?size=2')).toMatchObject({ total: 4, size: 2 })
    // The audit (run after each test here) refuses a wallet whose entries do not run 1..last_seq, which that
    // total relies on.
    await server.write(sql`UPDATE wallet SET last_seq = last_seq + 1 WHERE user_id = ${bob}`)
    expect(await ledgerViolations(server.app.ctx.database.reader)).toEqual([
      expect.stringContaining('4 entries up to seq 4, last_seq 5'),
    ])
    await server.write(sql`UPDATE wallet SET last_seq = last_seq - 1 WHERE user_id = ${bob}`)
  })
})

// SQLite's migration and its query plan; PostgreSQL's schema starts from its own first migration.
describe.skipIf(TEST_ENGINE === 'postgres')('ledger indexes (migration 0006)', () => {
  it("replaces a previous release's reference and type indexes, and still finds a transfer's other party", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-ledger-indexes-'))
    // After afterEach has closed the last server on it.
    onTestFinished(() => rmSync(dataDir, { recursive: true, force: true }))
    server = await startTestServer({ dataDir })
    await topUp(server, 'bob', 30)
    await server.headersFor('carl')
    const carlId = await userIdOf(server, 'carl')
    await call('POST', '/api/wallet/transfer', 'bob', { to_user_id: carlId, amount: 5 })
    // The database as the previous release left it: its two indexes, not the transfer index, 0006 not applied.
    rewindMigrations(server.sqlite().$client, 6)
    server.sqlite().$client.exec(`DROP INDEX wallet_transaction_by_transfer_idx;
      CREATE INDEX wallet_transaction_by_wallet_type_time_idx ON wallet_transaction (wallet_id, type, created_at);
      CREATE INDEX wallet_transaction_by_reference_idx ON wallet_transaction (reference_type, reference_id);`)
    await server.close()
    server = await startTestServer({ dataDir })

    const indexes = server
      .sqlite()
      .$client.prepare(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'wallet_transaction' ORDER BY name",
      )
      .pluck()
      .all()
    expect(indexes).toEqual([
      'sqlite_autoindex_wallet_transaction_1',
      'wallet_transaction_by_transfer_idx',
      'wallet_transaction_by_wallet_seq_idx',
    ])
    // Users persist but the restarted test server signs in only its admin: Carl's history is read from the store.
    const carl = server
      .sqlite()
      .$client.prepare('SELECT id, user_id, last_seq AS lastSeq FROM wallet WHERE user_id = ?')
      .get(carlId) as { id: string; user_id: string; lastSeq: number }
    const received = (
      await listTransactionHistory(server.app.ctx.database.reader, carl, carl.user_id, {
        page: 1,
        size: 20,
        type: 'transfer_in',
      })
    ).items
    expect(received).toMatchObject([{ type: 'transfer_in', amount: 5, counterparty: { username: 'bob' } }])
    // The other party is found through the transfer index, not by scanning the ledger.
    const plan = server
      .sqlite()
      .$client.prepare(
        `EXPLAIN QUERY PLAN SELECT wallet_id FROM wallet_transaction
         WHERE reference_type = 'transfer' AND reference_id = ? AND wallet_id != ?`,
      )
      .all('x', 'y') as { detail: string }[]
    expect(plan.map((step) => step.detail).join('; ')).toContain('wallet_transaction_by_transfer_idx')
  })
})

describe('my listings', () => {
  it('shows the seller every own listing with its status and moderation reason, and no one else’s', async () => {
    server = await startTestServer()
    const pending = await createListing(server, 'sam', { title: 'Waiting' })
    const rejected = await createListing(server, 'sam', { title: 'Too vague' })
    await createListing(server, 'bob', { title: 'Not mine' })
    const moderated = await server.app.inject({
      method: 'PUT',
      url: `/api/admin/listings/${rejected}/status`,
      headers: await server.adminHeaders(),
      payload: { status: 'rejected', reason: 'Describe what it does' },
    })
    expect(moderated.statusCode).toBe(200)

    const mine = (await call('GET', '/api/marketplace/my-listings', 'sam')).json()
    expect(mine.total).toBe(2)
    const byId = Object.fromEntries(
      mine.items.map((l: { id: string; status: string; status_reason: string | null }) => [
        l.id,
        [l.status, l.status_reason],
      ]),
    )
    expect(byId).toEqual({
      [pending]: ['pending_review', null],
      [rejected]: ['rejected', 'Describe what it does'],
    })
  })
})

describe('user lookup', () => {
  it('finds an active person by exact username and not a missing one', async () => {
    server = await startTestServer()
    await server.headersFor('carl')
    const found = await call('GET', '/api/users/lookup?username=carl', 'bob')
    expect(found.json()).toEqual({ id: await userIdOf(server, 'carl'), username: 'carl' })
    const missing = await call('GET', '/api/users/lookup?username=nobody', 'bob')
    expect([missing.statusCode, missing.json().error.code]).toEqual([404, 'USER_NOT_FOUND'])
    const empty = await call('GET', '/api/users/lookup?username=', 'bob')
    expect(empty.statusCode).toBe(422)
  })
})
