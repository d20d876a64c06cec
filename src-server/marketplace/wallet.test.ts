import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import {
  balances,
  expectLedgerConsistent,
  marketplaceTestFrame,
  moneyFootprint,
  numbers,
  publishedListing,
  servicesOf,
  topUp,
  userIdOf,
} from '../../test/helpers/marketplace'
import { startTestServer, type TestServer } from '../../test/helpers/server'
import { runSql } from '../platform/db'

let server: TestServer
const { setConfig } = marketplaceTestFrame(() => server)

async function post(url: string, username: string, payload: unknown, headers: Record<string, string> = {}) {
  return server.app.inject({
    method: 'POST',
    url,
    headers: { ...(await server.headersFor(username)), ...headers },
    payload: payload as Record<string, unknown>,
  })
}

describe('wallet', () => {
  it('creates an empty wallet on first read', async () => {
    server = await startTestServer()
    const response = await server.app.inject({
      method: 'GET',
      url: '/api/wallet',
      headers: await server.headersFor('ann'),
    })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toMatchObject({ balance: 0, frozen_balance: 0, total_earned: 0, total_spent: 0 })
    expect(await balances(server, 'ann')).toEqual({
      balance: 0,
      frozen_balance: 0,
      total_earned: 0,
      total_spent: 0,
    })
  })

  it('tops up with the simulated method and records a topup entry with balance_after', async () => {
    server = await startTestServer()
    const first = await post('/api/wallet/topup', 'ann', { amount: 500, payment_method: 'simulated' })
    expect(first.statusCode).toBe(200)
    expect(first.json().transaction).toMatchObject({
      type: 'topup',
      amount: 500,
      balance_after: 500,
      reference_type: 'topup',
    })
    expect(first.json().wallet.balance).toBe(500)
    await post('/api/wallet/topup', 'ann', { amount: 250, payment_method: 'simulated' })
    expect((await balances(server, 'ann'))?.balance).toBe(750)

    const page = await server.app.inject({
      method: 'GET',
      url: '/api/wallet/transactions?type=topup&size=1',
      headers: await server.headersFor('ann'),
    })
    expect(page.json()).toMatchObject({
      total: 2,
      page: 1,
      size: 1,
      items: [{ amount: 250, balance_after: 750 }],
    })
  })

  it('refuses bad top-ups with their codes and changes nothing', async () => {
    server = await startTestServer()
    await topUp(server, 'ann', 10)
    const before = await moneyFootprint(server)
    const cases: [unknown, number, string][] = [
      [{ amount: 10, payment_method: 'card' }, 400, 'UNSUPPORTED_PAYMENT_METHOD'],
      [{ amount: 0, payment_method: 'simulated' }, 422, 'VALIDATION_ERROR'],
      [{ amount: -5, payment_method: 'simulated' }, 422, 'VALIDATION_ERROR'],
      [{ amount: 1.5, payment_method: 'simulated' }, 422, 'VALIDATION_ERROR'],
      [{ amount: '10', payment_method: 'simulated' }, 422, 'VALIDATION_ERROR'],
      [{ amount: 1_000_001, payment_method: 'simulated' }, 422, 'VALIDATION_ERROR'],
      [{ amount: 1e300, payment_method: 'simulated' }, 422, 'VALIDATION_ERROR'],
      [{ payment_method: 'simulated' }, 422, 'VALIDATION_ERROR'],
    ]
    for (const [payload, status, code] of cases) {
      const response = await post('/api/wallet/topup', 'ann', payload)
      expect([response.statusCode, response.json().error.code]).toEqual([status, code])
    }
    expect(await moneyFootprint(server)).toEqual(before)
  })

  it('withdraws above min_withdrawal and refuses below it or beyond the balance', async () => {
    server = await startTestServer()
    await topUp(server, 'ann', 300)
    const below = await post('/api/wallet/withdraw', 'ann', { amount: 99, method: 'bank' })
    expect(below.statusCode).toBe(400)
    expect(below.json().error).toMatchObject({ code: 'BELOW_MIN_WITHDRAWAL', details: { min: 100 } })
    const beyond = await post('/api/wallet/withdraw', 'ann', { amount: 301, method: 'bank' })
    expect(beyond.statusCode).toBe(400)
    expect(beyond.json().error).toMatchObject({
      code: 'INSUFFICIENT_BALANCE',
      details: { required: 301, available: 300 },
    })
    expect((await balances(server, 'ann'))?.balance).toBe(300)

    const ok = await post('/api/wallet/withdraw', 'ann', { amount: 120, method: 'bank' })
    expect(ok.statusCode).toBe(200)
    expect(ok.json().transaction).toMatchObject({
      type: 'withdraw',
      amount: -120,
      balance_after: 180,
      reference_type: 'withdrawal',
    })
    expect((await balances(server, 'ann'))?.balance).toBe(180)
  })

  it('transfers between users and refuses unknown users, self-transfers and overdrafts', async () => {
    server = await startTestServer()
    await topUp(server, 'ann', 200)
    await server.headersFor('ben')
    const benId = await userIdOf(server, 'ben')
    const ok = await post('/api/wallet/transfer', 'ann', { to_user_id: benId, amount: 80, message: 'lunch' })
    expect(ok.statusCode).toBe(200)
    expect(ok.json().transaction).toMatchObject({ type: 'transfer_out', amount: -80, balance_after: 120 })
    expect(await balances(server, 'ben')).toMatchObject({ balance: 80, total_earned: 80 })
    expect(await balances(server, 'ann')).toMatchObject({ balance: 120, total_spent: 80 })

    const before = await moneyFootprint(server)
    const unknown = await post('/api/wallet/transfer', 'ann', {
      to_user_id: '00000000-0000-4000-8000-000000000000',
      amount: 1,
    })
    expect([unknown.statusCode, unknown.json().error.code]).toEqual([404, 'USER_NOT_FOUND'])
    const platform = await post('/api/wallet/transfer', 'ann', {
      to_user_id: await userIdOf(server, 'platform'),
      amount: 1,
    })
    expect([platform.statusCode, platform.json().error.code]).toEqual([404, 'USER_NOT_FOUND'])
    const self = await post('/api/wallet/transfer', 'ann', {
      to_user_id: await userIdOf(server, 'ann'),
      amount: 1,
    })
    expect([self.statusCode, self.json().error.code]).toEqual([400, 'INVALID_TRANSFER'])
    const overdraft = await post('/api/wallet/transfer', 'ann', { to_user_id: benId, amount: 121 })
    expect(overdraft.statusCode).toBe(400)
    expect(overdraft.json().error).toMatchObject({
      code: 'INSUFFICIENT_BALANCE',
      details: { required: 121, available: 120 },
    })
    const badId = await post('/api/wallet/transfer', 'ann', { to_user_id: 'nobody', amount: 1 })
    expect(badId.statusCode).toBe(422)
    expect(await moneyFootprint(server)).toEqual(before)
  })

  it('refuses to post to a wallet changed behind the state it was opened with, and writes nothing', async () => {
    server = await startTestServer()
    await topUp(server, 'ann', 100)
    const { ledger } = servicesOf(server)
    const { database } = server.app.ctx
    const footprint = await moneyFootprint(server)
    const entry = {
      type: 'withdraw',
      balanceDelta: -10,
      referenceType: 'withdrawal',
      referenceId: 'w1',
      description: 'Withdrawal',
    } as const
    const ann = await userIdOf(server, 'ann')
    await expect(
      database.transact(async (tx) => {
        const own = await ledger.openWallet(tx, ann, new Date())
        // A write the ledger did not make: the state it holds no longer describes the stored wallet.
        await runSql(tx, sql`UPDATE wallet SET balance = balance - 1 WHERE id = ${own.id}`)
        await ledger.postEntry(tx, own, entry, new Date())
      }),
    ).rejects.toThrow(/changed behind its ledger state/)
    await expect(
      database.transact(async (tx) => {
        const own = await ledger.openWallet(tx, ann, new Date())
        await runSql(tx, sql`UPDATE wallet SET frozen_balance = frozen_balance + 1 WHERE id = ${own.id}`)
        await ledger.freeze(tx, own, 10, new Date())
      }),
    ).rejects.toThrow(/changed behind its ledger state/)
    expect(await moneyFootprint(server)).toEqual(footprint)
    expect(await balances(server, 'ann')).toMatchObject({ balance: 100, frozen_balance: 0 })
  })

  it('rejects wallet calls without a token', async () => {
    server = await startTestServer()
    const response = await server.app.inject({ method: 'GET', url: '/api/wallet' })
    expect([response.statusCode, response.json().error.code]).toEqual([401, 'UNAUTHORIZED'])
  })
})

describe('daily earn cap', () => {
  it('holds income beyond the cap in frozen_balance and releases it once the UTC day is over', async () => {
    server = await startTestServer()
    await setConfig('daily_earn_cap', 150)
    await setConfig('commission_rate', 0)
    const { database } = server.app.ctx
    const { services } = servicesOf(server)
    const transfer = (
      sender: { id: string; username: string },
      input: { to_user_id: string; amount: number },
      at: Date,
    ) => database.transact((tx) => services.wallet.transfer(tx, sender, input, at))
    const readWallet = (userId: string, at: Date) => services.wallet.read(userId, at)
    await topUp(server, 'ann', 1000)
    await server.headersFor('ben')
    const [ann, ben] = [await userIdOf(server, 'ann'), await userIdOf(server, 'ben')]
    const day = new Date('2026-03-01T10:00:00.000Z')

    await transfer({ id: ann, username: 'ann' }, { to_user_id: ben, amount: 100 }, day)
    await transfer({ id: ann, username: 'ann' }, { to_user_id: ben, amount: 100 }, day)
    expect(await balances(server, 'ben')).toMatchObject({
      balance: 150,
      frozen_balance: 50,
      total_earned: 200,
    })
    const listingId = await publishedListing(server, 'ben', { base_price: 30 })
    await topUp(server, 'carl', 30)
    const carl = await userIdOf(server, 'carl')
    await database.transact((tx) =>
      services.orders.purchase(tx, { id: carl, permissions: [] }, listingId, day),
    )
    expect(await balances(server, 'ben')).toMatchObject({ balance: 150, frozen_balance: 80 })
    const types = await server.rows<{ type: string; amount: unknown }>(
      sql`SELECT type, amount FROM wallet_transaction t JOIN wallet w ON w.id = t.wallet_id
          WHERE w.user_id = ${ben} ORDER BY seq`,
    )
    expect(types.map(({ type, amount }) => ({ type, amount: Number(amount) }))).toEqual([
      { type: 'transfer_in', amount: 100 },
      { type: 'transfer_in', amount: 50 },
      { type: 'hold', amount: 50 },
      { type: 'hold', amount: 30 },
    ])
    await expectLedgerConsistent(server)

    // Later the same day nothing is released; the next day a read releases the transfers held, while the sale's
    // income stays held until its refund window is over.
    expect((await readWallet(ben, new Date('2026-03-01T23:59:59.000Z'))).frozen_balance).toBe(80)
    const nextDay = await readWallet(ben, new Date('2026-03-02T00:00:01.000Z'))
    expect(nextDay).toMatchObject({ balance: 200, frozen_balance: 30, total_earned: 230 })
    const release = await server.rows<Record<string, unknown>>(
      sql`SELECT amount, balance_after, frozen_after FROM wallet_transaction t JOIN wallet w ON w.id = t.wallet_id
          WHERE w.user_id = ${ben} AND type = 'release'`,
    )
    expect(release.map(numbers)).toEqual([{ amount: 0, balance_after: 200, frozen_after: 30 }])
    // Reading again does not release twice; after the sale's window (7 days, through 2026-03-08) the rest.
    await readWallet(ben, new Date('2026-03-08T23:59:59.000Z'))
    expect(await balances(server, 'ben')).toMatchObject({ balance: 200, frozen_balance: 30 })
    await readWallet(ben, new Date('2026-03-09T00:00:00.000Z'))
    expect(await balances(server, 'ben')).toMatchObject({ balance: 230, frozen_balance: 0 })
  })

  it("stamps the wallet's updated_at whenever the day's earnings are recorded", async () => {
    server = await startTestServer()
    const { ledger, services } = servicesOf(server)
    await topUp(server, 'ann', 100)
    await server.headersFor('ben')
    const ben = await userIdOf(server, 'ben')
    const stored = async () => {
      const [row] = await server.rows<{ earnings_day: string; earned_on_day: unknown; updated_at: string }>(
        sql`SELECT earnings_day, earned_on_day, updated_at FROM wallet WHERE user_id = ${ben}`,
      )
      return row && { ...row, earned_on_day: Number(row.earned_on_day) }
    }
    const ann = { id: await userIdOf(server, 'ann'), username: 'ann' }
    const { database } = server.app.ctx
    await database.transact((tx) =>
      services.wallet.transfer(tx, ann, { to_user_id: ben, amount: 5 }, new Date('2026-03-01T12:00:00Z')),
    )
    expect(await stored()).toEqual({
      earnings_day: '2026-03-01',
      earned_on_day: 5,
      updated_at: '2026-03-01T12:00:00.000Z',
    })
    // Nothing credited, so no entry touches the wallet: the new day's counters alone still stamp it.
    const reference = { referenceType: 'transfer', referenceId: 'none', description: 'Nothing' } as const
    await database.transact((tx) =>
      ledger.creditEarnings(
        tx,
        ben,
        0,
        { type: 'transfer_in', ...reference },
        new Date('2026-03-02T08:00:00Z'),
      ),
    )
    expect(await stored()).toEqual({
      earnings_day: '2026-03-02',
      earned_on_day: 0,
      updated_at: '2026-03-02T08:00:00.000Z',
    })
  })

  it('the periodic sweep releases holds of wallets nobody touches', async () => {
    server = await startTestServer()
    await setConfig('daily_earn_cap', 10)
    const { ledger, services } = servicesOf(server)
    await topUp(server, 'ann', 100)
    await server.headersFor('ben')
    const [ann, ben] = [await userIdOf(server, 'ann'), await userIdOf(server, 'ben')]
    await server.app.ctx.database.transact((tx) =>
      services.wallet.transfer(
        tx,
        { id: ann, username: 'ann' },
        { to_user_id: ben, amount: 60 },
        new Date('2026-03-01T12:00:00Z'),
      ),
    )
    expect(await balances(server, 'ben')).toMatchObject({ balance: 10, frozen_balance: 50 })
    expect(await ledger.releaseDueHolds(new Date('2026-03-01T20:00:00Z'))).toBe(0)
    expect(await ledger.releaseDueHolds(new Date('2026-03-02T00:00:00Z'))).toBe(1)
    expect(await balances(server, 'ben')).toMatchObject({ balance: 60, frozen_balance: 0 })
  })
})
