import { createHash } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../test/helpers/server'
import { storedCounters } from './stored-rate-limit'

/**
 * The counters the instances of a team server share, over the test engine's database (the server runs them on
 * PostgreSQL; they are plain SQL, so SQLite runs this too). Two factories stand for two instances.
 */
let server: TestServer
afterEach(async () => server?.close())

const LIMIT = { name: 'test limit', maxFailures: 5, windowMs: 60_000 }

async function storedRows() {
  return server.rows<{ key: string; count: number | string }>(sql`SELECT key, count FROM rate_limit_window`)
}

describe('counters stored in the database', () => {
  it('admit exactly the limit of attempts reserved at once through two instances, and hold no raw key', async () => {
    server = await startTestServer()
    const onA = storedCounters(server.app.ctx.database)(LIMIT)
    const onB = storedCounters(server.app.ctx.database)(LIMIT)
    const waits = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? onA : onB).reserve('lee\n127.0.0.41')),
    )
    expect(waits.filter((wait) => wait === 0)).toHaveLength(LIMIT.maxFailures)
    // Refused until the window ends: at least a second, about its length at most (each attempt reads its own
    // clock, and the first counted may have read a later one).
    for (const wait of waits.filter((wait) => wait > 0)) expect(wait).toBeGreaterThanOrEqual(1)
    expect(Math.max(...waits)).toBeLessThanOrEqual(LIMIT.windowMs / 1000 + 1)
    const rows = await storedRows()
    expect(rows.map((row) => Number(row.count))).toEqual([LIMIT.maxFailures])
    expect(rows[0]?.key).toMatch(/^[0-9a-f]{64}$/)
    expect(await onB.failures('lee\n127.0.0.41')).toBe(LIMIT.maxFailures)
  })

  it('give a succeeded attempt its place back, count failures not reserved, and forget a reset key', async () => {
    server = await startTestServer()
    const onA = storedCounters(server.app.ctx.database)(LIMIT)
    const onB = storedCounters(server.app.ctx.database)(LIMIT)
    for (let i = 0; i < LIMIT.maxFailures; i++) expect(await onA.reserve('ann')).toBe(0)
    expect(await onB.reserve('ann')).toBeGreaterThan(0)
    await onA.settle('ann', false)
    expect(await onB.reserve('ann')).toBe(0)
    await onB.settle('ann', true)
    expect(await onA.failures('ann')).toBe(LIMIT.maxFailures)

    await onA.recordFailure('bob')
    await onB.recordFailure('bob')
    expect(await onA.failures('bob')).toBe(2)
    // Another limit's key of the same name is counted apart.
    expect(await storedCounters(server.app.ctx.database)({ ...LIMIT, name: 'other' }).failures('bob')).toBe(0)

    await onB.reset('ann')
    expect(await onA.failures('ann')).toBe(0)
    expect(await onA.reserve('ann')).toBe(0)
  })

  it('start a new window where one ended, and delete the ended ones', async () => {
    server = await startTestServer()
    const counters = storedCounters(server.app.ctx.database)
    const counter = counters(LIMIT)
    // Its first attempt deletes what had ended; the next deletion is a minute away.
    expect(await counter.reserve('first')).toBe(0)
    const stored = (key: string) => createHash('sha256').update(`${LIMIT.name}\n${key}`).digest('hex')
    for (const key of ['ended', 'stale'])
      await server.write(
        sql`INSERT INTO rate_limit_window (key, count, window_ends_at) VALUES (${stored(key)}, ${LIMIT.maxFailures}, 1)`,
      )
    expect(await counter.failures('ended')).toBe(0)
    expect(await counter.reserve('ended')).toBe(0)
    expect(await counter.failures('ended')).toBe(1)

    expect(await storedCounters(server.app.ctx.database)(LIMIT).reserve('second')).toBe(0)
    const keys = (await storedRows()).map((row) => row.key)
    expect(keys).toHaveLength(3)
    expect(keys).not.toContain(stored('stale'))
    expect(keys).toContain(stored('ended'))
  })
})
