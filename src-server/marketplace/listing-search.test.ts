import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { TEST_ENGINE } from '../../test/helpers/engine'
import { callAs, createListing, publish, publishedListing, userIdOf } from '../../test/helpers/marketplace'
import { rewindMigrations } from '../../test/helpers/migrations'
import { startTestServer, type TestServer } from '../../test/helpers/server'
import { type ListingFilter, searchListings } from './listings.repository'

let server: TestServer
const ids: Record<string, string> = {}

beforeAll(async () => {
  server = await startTestServer()
  ids.samPublished = await publishedListing(server, 'sam', { title: 'Invoice reader', tags: ['finance'] })
  ids.samPending = await createListing(server, 'sam', { title: 'Invoice splitter', description: 'draft' })
  ids.bobPublished = await publishedListing(server, 'bob', { title: 'Receipt reader', tags: ['invoices'] })
  ids.bobPending = await createListing(server, 'bob', {
    title: 'Contract reader',
    description: 'for invoices',
  })
})
afterAll(() => server.close())

/** The ids a search finds, in its order (newest first). */
async function found(filter: Omit<ListingFilter, 'limit' | 'offset'>) {
  const { rows, total } = await searchListings(server.app.ctx.database.reader, {
    ...filter,
    limit: 20,
    offset: 0,
  })
  expect(total).toBe(rows.length)
  return rows.map((row) => row.id)
}

describe('a keyword search', () => {
  it('honours the status and seller filters like a search without a keyword', async () => {
    const sam = await userIdOf(server, 'sam')
    expect(await found({ keyword: 'invoice', status: 'published' })).toEqual([
      ids.bobPublished,
      ids.samPublished,
    ])
    expect(await found({ keyword: 'invoice', status: 'published', sellerId: sam })).toEqual([
      ids.samPublished,
    ])
    expect(await found({ keyword: 'invoice', status: 'pending_review' })).toEqual([
      ids.bobPending,
      ids.samPending,
    ])
    expect(await found({ keyword: 'invoice', status: 'pending_review', sellerId: sam })).toEqual([
      ids.samPending,
    ])
    // A seller's own view: every status, only theirs.
    expect(await found({ keyword: 'invoice', sellerId: sam })).toEqual([ids.samPending, ids.samPublished])
    expect(await found({ keyword: 'invoice splitter', sellerId: sam })).toEqual([ids.samPending])
    expect(await found({ keyword: 'reader', status: 'pending_review', sellerId: sam })).toEqual([])
  })

  it('matches a keyword of other statuses over title, description and tags, every word, any case', async () => {
    expect(await found({ keyword: 'CONTRACT invoices', status: 'pending_review' })).toEqual([ids.bobPending])
    expect(await found({ keyword: 'draft', status: 'pending_review' })).toEqual([ids.samPending])
    expect(await found({ keyword: 'finance' })).toEqual([ids.samPublished])
    // No word in it: no keyword at all.
    expect(await found({ keyword: '"*', status: 'pending_review' })).toEqual([ids.bobPending, ids.samPending])
  })
})

describe('a page of a search', () => {
  /** The ids of one page of `filter` at `limit` rows from `offset`, and the total. */
  const page = async (filter: Omit<ListingFilter, 'limit' | 'offset'>, limit: number, offset: number) => {
    const { rows, total } = await searchListings(server.app.ctx.database.reader, { ...filter, limit, offset })
    return { ids: rows.map((row) => row.id), total }
  }

  it('holds as many rows as its size asks for, whichever size came before', async () => {
    const newestFirst = [ids.bobPublished, ids.samPublished]
    // With and without a keyword (the keyword index pages through its own rows).
    for (const filter of [
      { status: 'published' as const },
      { status: 'published' as const, keyword: 'reader' },
    ]) {
      expect(await page(filter, 2, 0)).toEqual({ ids: newestFirst, total: 2 })
      expect(await page(filter, 1, 0)).toEqual({ ids: newestFirst.slice(0, 1), total: 2 })
      expect(await page(filter, 1, 1)).toEqual({ ids: newestFirst.slice(1), total: 2 })
      expect(await page(filter, 2, 0)).toEqual({ ids: newestFirst, total: 2 })
    }
  })
})

describe('the total of a page without a keyword', () => {
  /** Each status, asset type and pricing model's number of listings, as kept and as counted from the listings. */
  async function keptAndCounted(api: TestServer) {
    const groups = async (table: string, n: string) =>
      (
        await api.rows<{ n: number | string }>(
          sql`SELECT status, asset_type, pricing_model, ${sql.raw(n)} AS n FROM ${sql.identifier(table)}
           GROUP BY status, asset_type, pricing_model HAVING ${sql.raw(n)} > 0 ORDER BY 1, 2, 3`,
        )
      ).map((row) => ({ ...row, n: Number(row.n) }))
    return { kept: await groups('listing_count', 'sum(n)'), counted: await groups('listing', 'count(*)') }
  }

  it('stays the number of listings through creation, publication, edits, suspension and removal', async () => {
    const own = await startTestServer()
    try {
      const total = async (query: string) =>
        (await callAs(own, 'GET', `/api/marketplace/listings?${query}`, 'ann')).json().total
      const free = await createListing(own, 'sam', { pricing_model: 'free', base_price: 0 })
      const paid = await publishedListing(own, 'sam')
      await publishedListing(own, 'bob')
      await publish(own, free)
      expect([
        await total(''),
        await total('pricing_model=free'),
        await total('pricing_model=one_time'),
      ]).toEqual([3, 1, 2])
      // An edit of the pricing model moves the listing between the counts (back in review until published again);
      // the admin's suspension out of them.
      const edited = await callAs(own, 'PUT', `/api/marketplace/listings/${free}`, 'sam', {
        pricing_model: 'one_time',
        base_price: 50,
      })
      expect([edited.statusCode, edited.json().status]).toEqual([200, 'pending_review'])
      await publish(own, free)
      const suspended = await callAs(own, 'PUT', `/api/admin/listings/${paid}/status`, 'admin', {
        status: 'suspended',
        reason: 'checking',
      })
      expect(suspended.statusCode).toBe(200)
      expect([await total(''), await total('pricing_model=free'), await total('asset_type=agent')]).toEqual([
        2, 0, 2,
      ])
      expect((await callAs(own, 'DELETE', `/api/marketplace/listings/${free}`, 'sam')).statusCode).toBe(204)
      expect(await total('')).toBe(1)
      // Moderation's page of every status sums them all.
      expect((await callAs(own, 'GET', '/api/admin/listings', 'admin')).json().total).toBe(2)
      const { kept, counted } = await keptAndCounted(own)
      expect(kept).toEqual(counted)
      expect(counted).toEqual([
        { status: 'published', asset_type: 'agent', pricing_model: 'one_time', n: 1 },
        { status: 'suspended', asset_type: 'agent', pricing_model: 'one_time', n: 1 },
      ])
    } finally {
      await own.close()
    }
  })

  // SQLite's migration 0008 over an older file; PostgreSQL's schema starts with the counts.
  it.skipIf(TEST_ENGINE === 'postgres')(
    'is counted from the listings when the migration comes to a database that already has some',
    async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-listing-counts-'))
      onTestFinished(() => rmSync(dataDir, { recursive: true, force: true }))
      let own = await startTestServer({ dataDir })
      await publishedListing(own, 'sam')
      await publishedListing(own, 'sam', { pricing_model: 'free', base_price: 0 })
      await createListing(own, 'bob')
      // As a release before 0008 left it: listings, no counts, 0008 not applied.
      rewindMigrations(own.sqlite().$client, 8)
      own.sqlite().$client.exec(`DROP TABLE listing_count; DROP TRIGGER listing_count_after_insert;
      DROP TRIGGER listing_count_after_update; DROP TRIGGER listing_count_after_delete;`)
      await own.close()
      own = await startTestServer({ dataDir })
      try {
        const { kept, counted } = await keptAndCounted(own)
        expect(kept).toEqual(counted)
        expect(counted).toHaveLength(3)
        expect((await callAs(own, 'GET', '/api/marketplace/listings', 'ann')).json().total).toBe(2)
      } finally {
        await own.close()
      }
    },
  )
})
