/**
 * Fixtures and the ledger invariant checker shared by the marketplace tests. Stored state is read through
 * `server.rows`, on the engine the marketplace runs on (SQLite, or PostgreSQL in the `postgres` project).
 */
import { sql } from 'drizzle-orm'
import { afterEach, expect } from 'vitest'
import { insertAgent } from '../../src-server/conversation/agents.repository'
import { ledgerViolations } from '../../src-server/marketplace/ledger-audit'
import { createMarketplaceServices } from '../../src-server/marketplace/marketplace.plugin'
import type { TestServer } from './server'

export async function expectLedgerConsistent(server: TestServer): Promise<void> {
  expect(await ledgerViolations(server.app.ctx.database.reader)).toEqual([])
}

export async function userIdOf(server: TestServer, username: string): Promise<string> {
  const [row] = await server.rows<{ id: string }>(sql`SELECT id FROM "user" WHERE username = ${username}`)
  if (!row) throw new Error(`no user ${username}`)
  return row.id
}

/** An agent owned by the user: the asset a listing sells. */
export async function agentOf(server: TestServer, username: string): Promise<string> {
  await server.headersFor(username)
  const ownerId = await userIdOf(server, username)
  const created = await server.app.ctx.database.transact((tx) =>
    insertAgent(tx, { ownerId, name: `agent of ${username}` }),
  )
  return created.id
}

export async function createListing(
  server: TestServer,
  seller: string,
  fields: Record<string, unknown> = {},
): Promise<string> {
  const response = await server.app.inject({
    method: 'POST',
    url: '/api/marketplace/listings',
    headers: await server.headersFor(seller),
    payload: {
      asset_type: 'agent',
      asset_id: await agentOf(server, seller),
      title: 'Contract reviewer',
      description: 'Reads contracts and flags risky clauses',
      pricing_model: 'one_time',
      base_price: 100,
      tags: ['legal', 'contracts'],
      ...fields,
    },
  })
  if (response.statusCode !== 201) throw new Error(`create listing failed: ${response.body}`)
  return response.json().id
}

export async function publish(server: TestServer, listingId: string): Promise<void> {
  const response = await server.app.inject({
    method: 'PUT',
    url: `/api/admin/listings/${listingId}/status`,
    headers: await server.adminHeaders(),
    payload: { status: 'published' },
  })
  if (response.statusCode !== 200) throw new Error(`publish failed: ${response.body}`)
}

export async function publishedListing(
  server: TestServer,
  seller: string,
  fields: Record<string, unknown> = {},
): Promise<string> {
  const id = await createListing(server, seller, fields)
  await publish(server, id)
  return id
}

export async function topUp(server: TestServer, username: string, amount: number): Promise<void> {
  const response = await server.app.inject({
    method: 'POST',
    url: '/api/wallet/topup',
    headers: await server.headersFor(username),
    payload: { amount, payment_method: 'simulated' },
  })
  if (response.statusCode !== 200) throw new Error(`topup failed: ${response.body}`)
}

/** The buyer tops up the price and buys the listing (priced at `price`); returns the paid order's id. */
export async function purchase(server: TestServer, buyer: string, listingId: string, price = 100) {
  await topUp(server, buyer, price)
  const order = await callAs(server, 'POST', '/api/marketplace/orders', buyer, { listing_id: listingId })
  if (order.statusCode !== 201) throw new Error(`order failed: ${order.body}`)
  return order.json().id as string
}

/** The buyer refunds the order, which revokes its grant. */
export async function refund(server: TestServer, buyer: string, orderId: string): Promise<void> {
  const response = await callAs(server, 'POST', `/api/marketplace/orders/${orderId}/refund`, buyer, {
    reason: 'Changed my mind',
  })
  if (response.statusCode !== 200) throw new Error(`refund failed: ${response.body}`)
}

/** Each value of a row as a number (PostgreSQL gives bigints, counts and sums as text). */
export function numbers<K extends string>(row: Record<K, unknown>): Record<K, number> {
  return Object.fromEntries(Object.entries(row).map(([key, value]) => [key, Number(value)])) as Record<
    K,
    number
  >
}

export async function balances(server: TestServer, username: string) {
  const [row] = await server.rows<
    Record<'balance' | 'frozen_balance' | 'total_earned' | 'total_spent', unknown>
  >(
    sql`SELECT balance, frozen_balance, total_earned, total_spent FROM wallet
        WHERE user_id = ${await userIdOf(server, username)}`,
  )
  return row ? numbers(row) : undefined
}

export async function platformBalance(server: TestServer): Promise<number> {
  const row = await balances(server, 'platform')
  return row?.balance ?? 0
}

/** Counts of the rows a money operation may write: equal before and after a refused request. */
export async function moneyFootprint(server: TestServer) {
  const [row] = await server.rows<
    Record<'transactions' | 'orders' | 'grants' | 'balances' | 'frozen', unknown>
  >(
    sql`SELECT (SELECT count(*) FROM wallet_transaction) AS transactions,
              (SELECT count(*) FROM marketplace_order) AS orders,
              (SELECT count(*) FROM asset_grant) AS grants,
              (SELECT coalesce(sum(balance), 0) FROM wallet) AS balances,
              (SELECT coalesce(sum(frozen_balance), 0) FROM wallet) AS frozen`,
  )
  return row ? numbers(row) : undefined
}

/** The marketplace's services over a test server's database, for driving them with a chosen clock or hook. */
export function servicesOf(server: TestServer) {
  return createMarketplaceServices(server.app.ctx, {})
}

/** A request as one of the test users, over the app's own router. */
export async function callAs(
  server: TestServer,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  username: string,
  payload?: unknown,
) {
  return server.app.inject({
    method,
    url,
    headers: await server.headersFor(username),
    ...(payload !== undefined && { payload: payload as Record<string, unknown> }),
  })
}

/**
 * The shared frame of a marketplace test file, over the server its tests start: after each test the ledger is
 * checked and the server closed. Returns requests as a named user.
 */
export function marketplaceTestFrame(current: () => TestServer | undefined) {
  afterEach(async () => {
    const server = current()
    // Closed even when the ledger check fails: its worker threads and database must not outlive the test.
    try {
      if (server) await expectLedgerConsistent(server)
    } finally {
      await server?.close()
    }
  })
  const server = () => current() as TestServer
  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    username: string,
    payload?: unknown,
  ) => callAs(server(), method, url, username, payload)
  return {
    call,
    buy: (username: string, listingId: string) =>
      call('POST', '/api/marketplace/orders', username, { listing_id: listingId }),
    /** Sets a platform setting as the admin. */
    async setConfig(key: string, value: unknown): Promise<void> {
      const response = await server().app.inject({
        method: 'PUT',
        url: `/api/admin/config/${key}`,
        headers: await server().adminHeaders(),
        payload: { value },
      })
      expect(response.statusCode).toBe(200)
    },
  }
}

/** An answer over real HTTP: status, parsed body and whether it was an Idempotency-Key replay. */
export interface Sent {
  status: number
  body: { error?: { code: string; details?: Record<string, unknown> } } & Record<string, unknown>
  replayed: boolean
}

/** Requests as a named user over real loopback HTTP (`server.listen()`), so requests genuinely overlap. */
export function loopbackClient(server: TestServer, base: string) {
  async function send(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    username: string,
    path: string,
    payload?: unknown,
    key?: string,
  ): Promise<Sent> {
    const headers: Record<string, string> = await server.headersFor(username)
    if (payload !== undefined) headers['content-type'] = 'application/json'
    if (key) headers['idempotency-key'] = key
    const response = await fetch(`${base}${path}`, {
      method,
      headers,
      ...(payload !== undefined && { body: JSON.stringify(payload) }),
    })
    const text = await response.text()
    return {
      status: response.status,
      body: (text ? JSON.parse(text) : {}) as Sent['body'],
      replayed: response.headers.get('idempotent-replayed') === 'true',
    }
  }
  return {
    send,
    post: (username: string, path: string, payload: unknown, key?: string) =>
      send('POST', username, path, payload, key),
  }
}
