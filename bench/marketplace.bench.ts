/**
 * Marketplace budgets (contract 10-marketplace): purchases over loopback HTTP reach at least 30% of the same
 * server's throughput on a trivial authenticated route (GET /api/auth/me), and keyword search over 100,000
 * listings has p95 under 20 ms. The ledger invariant is checked exactly after the run. Beside them, without a budget:
 * the purchase's database work alone (the order service's group commits, no HTTP): the part of a purchase's cost
 * that no change to the HTTP path can remove, to hold beside the http bench's CPU per `GET /api/auth/me`.
 */
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PassThrough } from 'node:stream'
import { createServer } from '../src-server/app'
import { ledgerViolations } from '../src-server/marketplace'
import { createMarketplaceServices } from '../src-server/marketplace/marketplace.plugin'
import { sqliteOf } from '../test/helpers/server'
import type { BenchResult } from './run'

const ADMIN_PASSWORD = 'bench-admin-password'
const BUYERS = 8
const PURCHASES_PER_BUYER = 150
const IN_FLIGHT = 16
const ROUNDS = 4
/** Buyers of the purchases measured without HTTP: as many as the http bench's clients, each in its own pair. */
const GROUP_BUYERS = 32
const LISTINGS_PER_GROUP_SIZE = 100
/** 16: the groups 32 clients form over HTTP here (two halves taking turns); 32: all of them in one group. */
const GROUP_SIZES = [16, 32]
const SEARCH_LISTINGS = 100_000
const SEARCHES = 300
const SEARCH_WARMUP = 30

const WORDS = Array.from({ length: 600 }, (_, i) => `w${i.toString(36)}${'abcdefghij'[i % 10]}`)
const pick = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(Math.random() * WORDS.length)])

/** Runs `tasks` with at most `limit` in flight; returns the elapsed milliseconds. */
async function drive(tasks: (() => Promise<void>)[], limit: number): Promise<number> {
  const started = performance.now()
  let next = 0
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < tasks.length) {
        const task = tasks[next]
        next += 1
        await task?.()
      }
    }),
  )
  return performance.now() - started
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0
}

export async function run(): Promise<BenchResult[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-bench-'))
  const app = await createServer({
    dataDir,
    adminPassword: ADMIN_PASSWORD,
    logLevel: 'error',
    logStream: new PassThrough().resume(),
    runJobs: false,
  })
  try {
    await app.listen({ host: '127.0.0.1', port: 0 })
    const address = app.server.address()
    if (!address || typeof address === 'string') throw new Error('no address')
    const base = `http://127.0.0.1:${address.port}`
    const sqlite = sqliteOf(app).$client

    async function tokenFor(username: string, adminToken?: string): Promise<string> {
      if (adminToken) {
        const created = await app.inject({
          method: 'POST',
          url: '/api/admin/users',
          headers: { authorization: `Bearer ${adminToken}` },
          payload: { username, password: `password-${username}`, roles: ['user'] },
        })
        if (created.statusCode !== 201) throw new Error(created.body)
      }
      const login = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username, password: adminToken ? `password-${username}` : ADMIN_PASSWORD },
      })
      return login.json().token as string
    }
    const adminToken = await tokenFor('admin')
    await tokenFor('seller', adminToken)
    const sellerId = (sqlite.prepare("SELECT id FROM user WHERE username = 'seller'").get() as { id: string })
      .id
    const buyers = await Promise.all(
      Array.from({ length: BUYERS }, (_, i) => tokenFor(`buyer${i}`, adminToken)),
    )

    // Published listings to buy, seeded directly: the benchmark measures purchases, not moderation.
    const insertListing = sqlite.prepare(
      `INSERT INTO listing (id, search_id, seller_id, asset_type, asset_id, title, description, pricing_model,
         base_price, tags_json, status, created_at, updated_at)
       VALUES (?, (SELECT coalesce(max(search_id), 0) + 1 FROM listing), ?, 'agent', ?, ?, ?, 'one_time', ?, ?,
         'published', ?, ?)`,
    )
    const seed = sqlite.transaction((count: number, price: () => number) => {
      const ids: string[] = []
      for (let i = 0; i < count; i += 1) {
        const id = randomUUID()
        const at = new Date(Date.now() + i).toISOString()
        insertListing.run(
          id,
          sellerId,
          randomUUID(),
          pick(3).join(' '),
          pick(12).join(' '),
          price(),
          JSON.stringify(pick(2)),
          at,
          at,
        )
        ids.push(id)
      }
      return ids
    })
    const forSale = seed(PURCHASES_PER_BUYER, () => 100)

    for (const token of buyers) {
      const topup = await fetch(`${base}/api/wallet/topup`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ amount: 100 * PURCHASES_PER_BUYER, payment_method: 'simulated' }),
      })
      if (topup.status !== 200) throw new Error(await topup.text())
    }

    const total = BUYERS * PURCHASES_PER_BUYER
    let failures = 0
    const meTasks = Array.from({ length: total }, (_, i) => async () => {
      const response = await fetch(`${base}/api/auth/me`, {
        headers: { authorization: `Bearer ${buyers[i % BUYERS]}` },
      })
      await response.arrayBuffer()
      if (response.status !== 200) failures += 1
    })
    const purchaseTasks = Array.from({ length: total }, (_, i) => async () => {
      const token = buyers[i % BUYERS]
      const listingId = forSale[Math.floor(i / BUYERS)]
      const response = await fetch(`${base}/api/marketplace/orders`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ listing_id: listingId }),
      })
      await response.arrayBuffer()
      if (response.status !== 201) failures += 1
    })
    // Alternating rounds, so a burst of load from elsewhere on the machine hits both figures alike.
    let meMs = 0
    let purchaseMs = 0
    const roundSize = total / ROUNDS
    for (let round = 0; round < ROUNDS; round += 1) {
      const window = [round * roundSize, (round + 1) * roundSize] as const
      meMs += await drive(meTasks.slice(...window), IN_FLIGHT)
      purchaseMs += await drive(purchaseTasks.slice(...window), IN_FLIGHT)
    }
    const meRate = Math.round((total / meMs) * 1000)
    const purchaseRate = Math.round((total / purchaseMs) * 1000)
    const ratio = purchaseRate / meRate
    const violations = await ledgerViolations(app.ctx.database.reader)
    const paid = (
      sqlite.prepare("SELECT count(*) AS n FROM marketplace_order WHERE status = 'paid'").get() as {
        n: number
      }
    ).n

    // The purchase's database work alone: through the order service in group commits, as the route queues them.
    const groupBuyers: string[] = []
    for (let i = 0; i < GROUP_BUYERS; i += 1) {
      await tokenFor(`group-buyer${i}`, adminToken)
      groupBuyers.push(
        (sqlite.prepare('SELECT id FROM user WHERE username = ?').get(`group-buyer${i}`) as { id: string })
          .id,
      )
    }
    const { services } = createMarketplaceServices(app.ctx, {})
    for (const id of groupBuyers)
      await app.ctx.database.transact((tx) =>
        services.wallet.topUp(
          tx,
          id,
          { amount: 100 * LISTINGS_PER_GROUP_SIZE * GROUP_SIZES.length, payment_method: 'simulated' },
          new Date(),
        ),
      )
    const databaseUs: number[] = []
    for (const size of GROUP_SIZES) {
      const listings = seed(LISTINGS_PER_GROUP_SIZE, () => 100)
      const purchases = listings.length * GROUP_BUYERS
      const cpu = process.cpuUsage()
      for (let first = 0; first < purchases; first += size) {
        const group: Promise<unknown>[] = []
        for (let pair = first; pair < first + size; pair += 1) {
          const buyer = { id: groupBuyers[pair % GROUP_BUYERS] as string, permissions: [] }
          const listingId = listings[Math.floor(pair / GROUP_BUYERS)] as string
          group.push(
            services.orders.inPurchaseGroup((tx) =>
              services.orders.purchase(tx, buyer, listingId, new Date()),
            ),
          )
        }
        await Promise.all(group)
      }
      const used = process.cpuUsage(cpu)
      databaseUs.push(Math.round(((used.user + used.system) / purchases) * 10) / 10)
    }
    const violationsAfterGroups = await ledgerViolations(app.ctx.database.reader)

    // Search over 100,000 listings (the ones above included).
    seed(SEARCH_LISTINGS - forSale.length, () => 1 + Math.floor(Math.random() * 1000))
    // The first searches warm the page cache and the JIT; only the steady state is measured.
    const searchMs: number[] = []
    for (let i = -SEARCH_WARMUP; i < SEARCHES; i += 1) {
      const keyword = pick(i % 3 === 0 ? 2 : 1).join(' ')
      const started = performance.now()
      const response = await fetch(
        `${base}/api/marketplace/listings?keyword=${encodeURIComponent(keyword)}`,
        {
          headers: { authorization: `Bearer ${buyers[0]}` },
        },
      )
      await response.arrayBuffer()
      if (i >= 0) searchMs.push(performance.now() - started)
      if (response.status !== 200) failures += 1
    }
    const p95 = Math.round(percentile(searchMs, 95) * 100) / 100
    const finalViolations = await ledgerViolations(app.ctx.database.reader)

    return [
      {
        name: 'purchases over HTTP',
        value: purchaseRate,
        unit: 'orders/s',
        baseline: { name: 'GET /api/auth/me', value: meRate },
        budget: '>= 30% of baseline',
        pass: ratio >= 0.3 && failures === 0,
        note: `${Math.round(ratio * 100)}% of baseline; ${paid}/${total} paid; ${IN_FLIGHT} in flight; ${failures} failed requests`,
      },
      {
        name: 'purchase database work without HTTP, groups of 16 (CPU per purchase)',
        value: databaseUs[0] as number,
        unit: 'µs',
        note: `groups of 32: ${databaseUs[1]} µs; ${GROUP_BUYERS} buyers, each group's purchases of distinct buyers, through the order service's group commit (statements and commit, this process's CPU, its checkpoint thread included)`,
      },
      {
        name: 'keyword search p95 over 100,000 listings',
        value: p95,
        unit: 'ms',
        budget: '< 20 ms',
        pass: p95 < 20,
        note: `${SEARCHES} searches over HTTP, median ${Math.round(percentile(searchMs, 50) * 100) / 100} ms`,
      },
      {
        name: 'ledger invariant violations after the run',
        value: violations.length + violationsAfterGroups.length + finalViolations.length,
        unit: 'violations',
        budget: '0 (conservation exact)',
        pass: violations.length + violationsAfterGroups.length + finalViolations.length === 0,
        note:
          [...violations, ...violationsAfterGroups, ...finalViolations].join('; ') ||
          'sum(balance + frozen) == top-ups - withdrawals',
      },
    ]
  } finally {
    await app.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
