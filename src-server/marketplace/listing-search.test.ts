import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createListing, publishedListing, userIdOf } from '../../test/helpers/marketplace'
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
function found(filter: Omit<ListingFilter, 'limit' | 'offset'>) {
  const { rows, total } = searchListings(server.app.ctx.db, { ...filter, limit: 20, offset: 0 })
  expect(total).toBe(rows.length)
  return rows.map((row) => row.id)
}

describe('a keyword search', () => {
  it('honours the status and seller filters like a search without a keyword', () => {
    const sam = userIdOf(server, 'sam')
    expect(found({ keyword: 'invoice', status: 'published' })).toEqual([ids.bobPublished, ids.samPublished])
    expect(found({ keyword: 'invoice', status: 'published', sellerId: sam })).toEqual([ids.samPublished])
    expect(found({ keyword: 'invoice', status: 'pending_review' })).toEqual([ids.bobPending, ids.samPending])
    expect(found({ keyword: 'invoice', status: 'pending_review', sellerId: sam })).toEqual([ids.samPending])
    // A seller's own view: every status, only theirs.
    expect(found({ keyword: 'invoice', sellerId: sam })).toEqual([ids.samPending, ids.samPublished])
    expect(found({ keyword: 'invoice splitter', sellerId: sam })).toEqual([ids.samPending])
    expect(found({ keyword: 'reader', status: 'pending_review', sellerId: sam })).toEqual([])
  })

  it('matches a keyword of other statuses over title, description and tags, every word, any case', () => {
    expect(found({ keyword: 'CONTRACT invoices', status: 'pending_review' })).toEqual([ids.bobPending])
    expect(found({ keyword: 'draft', status: 'pending_review' })).toEqual([ids.samPending])
    expect(found({ keyword: 'finance' })).toEqual([ids.samPublished])
    // No word in it: no keyword at all.
    expect(found({ keyword: '"*', status: 'pending_review' })).toEqual([ids.bobPending, ids.samPending])
  })
})

describe('a page of a search', () => {
  /** The ids of one page of `filter` at `limit` rows from `offset`, and the total. */
  const page = (filter: Omit<ListingFilter, 'limit' | 'offset'>, limit: number, offset: number) => {
    const { rows, total } = searchListings(server.app.ctx.db, { ...filter, limit, offset })
    return { ids: rows.map((row) => row.id), total }
  }

  it('holds as many rows as its size asks for, whichever size came before', () => {
    const newestFirst = [ids.bobPublished, ids.samPublished]
    // With and without a keyword (the keyword index pages through its own rows).
    for (const filter of [
      { status: 'published' as const },
      { status: 'published' as const, keyword: 'reader' },
    ]) {
      expect(page(filter, 2, 0)).toEqual({ ids: newestFirst, total: 2 })
      expect(page(filter, 1, 0)).toEqual({ ids: newestFirst.slice(0, 1), total: 2 })
      expect(page(filter, 1, 1)).toEqual({ ids: newestFirst.slice(1), total: 2 })
      expect(page(filter, 2, 0)).toEqual({ ids: newestFirst, total: 2 })
    }
  })
})
