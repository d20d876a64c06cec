/**
 * Two server instances on one PostgreSQL database, as a team runs them behind a load balancer: each with its own
 * data directory and its own pool, money moved through both at once over real HTTP. Afterwards every ledger
 * invariant holds and the points are exactly those topped up: no purchase, key or transfer was applied twice or
 * half, whichever instance answered.
 */
import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { afterEach, describe, expect, it, onTestFinished } from 'vitest'
import { closeInstances, twoInstances } from '../../test/helpers/instances'
import {
  createListing,
  loopbackClient,
  numbers,
  publish,
  type Sent,
  topUp,
  userIdOf,
} from '../../test/helpers/marketplace'
import { ledgerViolations } from './ledger-audit'

afterEach(closeInstances)

/** Instances A and B on one fresh PostgreSQL database: users made and signed in on A call B with the same tokens. */
async function clientsOfTwoInstances() {
  const { a, b } = await twoInstances()
  return {
    a: a.server,
    b: b.server,
    onA: loopbackClient(a.server, a.base),
    onB: loopbackClient(a.server, b.base),
  }
}

const BUYERS = ['bob', 'carl', 'dora', 'erin', 'finn', 'gail', 'hugo', 'ivy']
const SELLERS = ['sam', 'sue']
const LISTINGS = 25
const TOP_UP = 600

describe('two instances on one PostgreSQL database', () => {
  it('conserve money exactly across 200 parallel purchases, duplicate keys and crossing transfers', async () => {
    const { a, onA, onB } = await clientsOfTwoInstances()
    const listings: { id: string; price: number }[] = []
    for (let i = 0; i < LISTINGS; i++) {
      const price = 7 + i * 3
      const id = await createListing(a, SELLERS[i % SELLERS.length] as string, {
        base_price: price,
        title: `Listing ${i}`,
      })
      await publish(a, id)
      listings.push({ id, price })
    }
    for (const buyer of BUYERS) await topUp(a, buyer, TOP_UP)
    await topUp(a, 'ann', 300)
    await topUp(a, 'ben', 300)
    const toppedUp = BUYERS.length * TOP_UP + 600

    // Every buyer buys every listing (200 purchases), alternately through A and B, all at once. Each purchase
    // carries a key; every fifth is sent to both instances in parallel with the same key, and every seventh
    // again without a key to the other instance (the second must find the first's order: ALREADY_OWNED).
    const purchases: { buyer: string; listing: string; price: number; sent: Promise<Sent>[] }[] = []
    let n = 0
    for (const buyer of BUYERS)
      for (const { id, price } of listings) {
        const key = randomUUID()
        const order = () => ({ listing_id: id })
        const first = (n % 2 === 0 ? onA : onB).post(buyer, '/api/marketplace/orders', order(), key)
        const sent = [first]
        if (n % 5 === 0)
          sent.push((n % 2 === 0 ? onB : onA).post(buyer, '/api/marketplace/orders', order(), key))
        else if (n % 7 === 3)
          sent.push((n % 2 === 0 ? onB : onA).post(buyer, '/api/marketplace/orders', order()))
        purchases.push({ buyer, listing: id, price, sent })
        n++
      }
    // Ann and Ben send each other points through both instances at the same time: A->B and B->A cross.
    const annId = await userIdOf(a, 'ann')
    const benId = await userIdOf(a, 'ben')
    const transfers: Promise<Sent>[] = []
    for (let i = 0; i < 30; i++) {
      transfers.push(
        (i % 2 === 0 ? onA : onB).post('ann', '/api/wallet/transfer', {
          to_user_id: benId,
          amount: 1 + (i % 4),
        }),
        (i % 2 === 0 ? onB : onA).post('ben', '/api/wallet/transfer', {
          to_user_id: annId,
          amount: 2 + (i % 3),
        }),
      )
    }
    const answered = await Promise.all(
      purchases.map(async (p) => ({ ...p, answers: await Promise.all(p.sent) })),
    )
    const transferred = await Promise.all(transfers)

    // Every answer is a paid order or a refusal the buyer can act on; never a server fault.
    const codes = new Set<string>()
    for (const { answers } of answered)
      for (const answer of answers) if (answer.status !== 201) codes.add(String(answer.body.error?.code))
    expect([...codes].filter((code) => code !== 'INSUFFICIENT_BALANCE' && code !== 'ALREADY_OWNED')).toEqual(
      [],
    )
    expect(transferred.map((t) => t.status)).toEqual(transferred.map(() => 200))

    // A key sent to both instances charged once: both answers name the same order, one of them a replay.
    for (const { answers } of answered.filter((p, i) => p.answers.length === 2 && i % 5 === 0)) {
      const [first, second] = answers as [Sent, Sent]
      expect(second.status).toBe(first.status)
      expect(second.body).toEqual(first.body)
      expect([first.replayed, second.replayed].sort()).toEqual([false, true])
    }

    // The stored orders are exactly the paid answers, one per buyer and listing at most.
    const paidIds = new Set(
      answered.flatMap((p) => p.answers.filter((r) => r.status === 201).map((r) => r.body.id as string)),
    )
    const orders = await a.rows<{
      id: string
      buyer_id: string
      listing_id: string
      platform_fee: unknown
    }>(sql`SELECT id, buyer_id, listing_id, platform_fee FROM marketplace_order WHERE status = 'paid'`)
    expect(new Set(orders.map((o) => o.id))).toEqual(paidIds)
    expect(new Set(orders.map((o) => `${o.buyer_id} ${o.listing_id}`)).size).toBe(orders.length)

    // Each buyer paid exactly the prices of what they bought, and was refused only what their balance could not
    // pay even at the end (balances only fall while buying): no purchase was lost to a race.
    for (const buyer of BUYERS) {
      const bought = answered.filter((p) => p.buyer === buyer && p.answers.some((r) => r.status === 201))
      const [wallet] = await a.rows<Record<'balance' | 'frozen_balance' | 'total_spent', unknown>>(
        sql`SELECT balance, frozen_balance, total_spent FROM wallet WHERE user_id = ${await userIdOf(a, buyer)}`,
      )
      const spent = bought.reduce((total, p) => total + p.price, 0)
      expect(wallet && numbers(wallet)).toEqual({
        balance: TOP_UP - spent,
        frozen_balance: 0,
        total_spent: spent,
      })
      const refused = answered.filter((p) => p.buyer === buyer && !bought.includes(p))
      for (const { price } of refused) expect(price).toBeGreaterThan(TOP_UP - spent)
    }

    // Ten orders refunded through both instances at once: each refunded once, the other refund refused.
    const refunds = await Promise.all(
      orders.slice(0, 10).map(async (o) => {
        const buyer = BUYERS.find((name) =>
          answered.some(
            (p) =>
              p.buyer === name && p.listing === o.listing_id && p.answers.some((r) => r.body.id === o.id),
          ),
        ) as string
        const path = `/api/marketplace/orders/${o.id}/refund`
        return Promise.all([onA.post(buyer, path, { reason: 'a' }), onB.post(buyer, path, { reason: 'b' })])
      }),
    )
    for (const pair of refunds) expect(pair.map((r) => r.status ?? 0).sort()).toEqual([200, 409])
    const stillPaid = orders.slice(10)
    const [refundedOrders] = await a.rows<{ n: unknown }>(
      sql`SELECT count(*) AS n FROM marketplace_order WHERE status = 'refunded'`,
    )
    expect(Number(refundedOrders?.n)).toBe(10)

    // Conservation: all wallets together (sellers' held income and the platform's commission included) hold
    // exactly what was topped up, and the platform holds exactly the fees of the paid orders.
    const [holdings] = await a.rows<{ n: unknown }>(
      sql`SELECT sum(balance + frozen_balance) AS n FROM wallet`,
    )
    expect(Number(holdings?.n)).toBe(toppedUp)
    const fees = stillPaid.reduce((total, o) => total + Number(o.platform_fee), 0)
    const [platform] = await a.rows<{ balance: unknown }>(
      sql`SELECT w.balance FROM wallet w JOIN "user" u ON u.id = w.user_id WHERE u.is_system`,
    )
    expect(Number(platform?.balance)).toBe(fees)
    const [negative] = await a.rows<{ n: unknown }>(
      sql`SELECT count(*) AS n FROM wallet WHERE balance < 0 OR frozen_balance < 0`,
    )
    expect(Number(negative?.n)).toBe(0)
    expect(await ledgerViolations(a.app.ctx.database.reader)).toEqual([])
  }, 120_000)
})

/**
 * Counts the deadlocks PostgreSQL reports to this process's connections (both instances run in it): the engine runs
 * a deadlock's victim again, so the answers alone would not show one.
 */
function countDeadlocks(): () => number {
  const query = pg.Client.prototype.query
  let deadlocks = 0
  pg.Client.prototype.query = function (this: pg.Client, ...args: Parameters<typeof query>) {
    const result: unknown = query.apply(this, args)
    if (result instanceof Promise)
      result.catch((error: { code?: string }) => {
        if (error?.code === '40P01') deadlocks++
      })
    return result
  } as typeof query
  onTestFinished(() => {
    pg.Client.prototype.query = query
  })
  return () => deadlocks
}

describe('purchases that cross on two instances', () => {
  it('let users buy from each other at once without a deadlock, every entry and the platform exact', async () => {
    const { a, onA, onB } = await clientsOfTwoInstances()
    // Four users who sell to each other, and a seller who has no wallet before her first sale.
    const traders = ['tia', 'uma', 'vic', 'wes']
    const sellers = [...traders, 'newcomer']
    const listings: { seller: string; id: string; price: number }[] = []
    for (const [i, seller] of sellers.entries())
      for (let j = 0; j < 3; j++) {
        const price = 20 + 10 * i + j
        const id = await createListing(a, seller, { base_price: price, title: `${seller} ${j}` })
        await publish(a, id)
        listings.push({ seller, id, price })
      }
    for (const trader of traders) await topUp(a, trader, 1000)
    const deadlocks = countDeadlocks()

    // Every trader buys every listing but their own, all at once through both instances: while A buys from B,
    // B buys from A, each purchase locking both wallets and the platform's.
    const purchases = traders.flatMap((buyer, b) =>
      listings
        .filter((listing) => listing.seller !== buyer)
        .map((listing, l) =>
          ((b + l) % 2 === 0 ? onA : onB).post(buyer, '/api/marketplace/orders', { listing_id: listing.id }),
        ),
    )
    const answers = await Promise.all(purchases)
    expect(answers.map((answer) => answer.body.error?.code ?? answer.status)).toEqual(answers.map(() => 201))
    // One lock order for every transaction: the wallets of users by id, the platform's last.
    expect(deadlocks()).toBe(0)

    // Every entry of every wallet agrees with the entries before it: its balances after are the running sum.
    const entries = await a.rows<
      Record<'wallet_id' | 'seq' | 'amount' | 'balance_after' | 'frozen_after', unknown>
    >(
      sql`SELECT wallet_id, seq, amount, balance_after, frozen_after FROM wallet_transaction ORDER BY wallet_id, seq`,
    )
    const running = new Map<string, { seq: number; holdings: number }>()
    for (const entry of entries) {
      const { wallet_id, ...figures } = entry
      const { seq, amount, balance_after, frozen_after } = numbers(figures)
      const before = running.get(String(wallet_id)) ?? { seq: 0, holdings: 0 }
      expect([seq, balance_after + frozen_after]).toEqual([before.seq + 1, before.holdings + amount])
      running.set(String(wallet_id), { seq, holdings: before.holdings + amount })
    }
    // The platform holds exactly the fees of the orders, one commission entry each; all wallets hold the top-ups.
    const [fees] = await a.rows<{ n: unknown; sum: unknown }>(
      sql`SELECT count(*) AS n, sum(platform_fee) AS sum FROM marketplace_order WHERE status = 'paid'`,
    )
    expect(Number(fees?.n)).toBe(answers.length)
    const [platform] = await a.rows<Record<'balance' | 'last_seq', unknown>>(
      sql`SELECT w.balance, w.last_seq FROM wallet w JOIN "user" u ON u.id = w.user_id WHERE u.is_system`,
    )
    expect(platform && numbers(platform)).toEqual({ balance: Number(fees?.sum), last_seq: answers.length })
    const [holdings] = await a.rows<{ n: unknown }>(
      sql`SELECT sum(balance + frozen_balance) AS n FROM wallet`,
    )
    expect(Number(holdings?.n)).toBe(traders.length * 1000)
    expect(await ledgerViolations(a.app.ctx.database.reader)).toEqual([])
  }, 120_000)
})
