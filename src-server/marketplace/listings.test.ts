import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { describe, expect, it, onTestFinished } from 'vitest'
import { TEST_ENGINE } from '../../test/helpers/engine'
import {
  agentOf,
  createListing,
  marketplaceTestFrame,
  publish,
  publishedListing,
  topUp,
  userIdOf,
} from '../../test/helpers/marketplace'
import { rewindMigrations } from '../../test/helpers/migrations'
import { startTestServer, type TestServer } from '../../test/helpers/server'
import { createListingService, type Viewer } from './listings.service'

let server: TestServer
const { call } = marketplaceTestFrame(() => server)

/** The stored listing, its integers as numbers on either engine (PostgreSQL gives bigints as text). */
async function listingRow(id: string) {
  const [row] = await server.rows<Record<string, unknown>>(sql`SELECT * FROM listing WHERE id = ${id}`)
  if (!row) return undefined
  for (const column of ['base_price', 'rating_sum', 'rating_count', 'download_count', 'search_id'])
    row[column] = Number(row[column])
  return row
}

describe('listings', () => {
  it('creates a listing in pending_review for an asset the seller owns', async () => {
    server = await startTestServer()
    const assetId = await agentOf(server, 'sam')
    const response = await call('POST', '/api/marketplace/listings', 'sam', {
      asset_type: 'agent',
      asset_id: assetId,
      title: 'Invoice bot',
      description: 'Extracts invoice totals',
      cover_image_url: 'https://example.com/cover.png',
      pricing_model: 'one_time',
      base_price: 250,
      tags: ['finance'],
    })
    expect(response.statusCode).toBe(201)
    expect(response.json()).toMatchObject({
      title: 'Invoice bot',
      asset_type: 'agent',
      asset_id: assetId,
      status: 'pending_review',
      base_price: 250,
      rating_avg: 0,
      rating_count: 0,
      download_count: 0,
      tags: ['finance'],
      cover_image_url: 'https://example.com/cover.png',
      seller: { id: await userIdOf(server, 'sam'), username: 'sam', avatar_url: null },
    })
    expect(await listingRow(response.json().id)).toMatchObject({
      status: 'pending_review',
      seller_id: await userIdOf(server, 'sam'),
    })
  })

  it('refuses invalid listings with their codes and stores nothing', async () => {
    server = await startTestServer()
    const assetId = await agentOf(server, 'sam')
    const othersAsset = await agentOf(server, 'zoe')
    const base = {
      asset_type: 'agent',
      asset_id: assetId,
      title: 'T',
      pricing_model: 'one_time',
      base_price: 10,
    }
    const cases: [Record<string, unknown>, number, string][] = [
      [{ pricing_model: 'subscription' }, 400, 'INVALID_PRICING_MODEL'],
      [{ asset_type: 'dataset' }, 400, 'INVALID_ASSET_TYPE'],
      [{ asset_id: othersAsset }, 404, 'ASSET_NOT_FOUND'],
      [{ asset_id: '00000000-0000-4000-8000-000000000000' }, 404, 'ASSET_NOT_FOUND'],
      [{ asset_type: 'knowledge_source', asset_id: assetId }, 404, 'ASSET_NOT_FOUND'],
      [{ base_price: 0 }, 400, 'INVALID_PRICE'],
      [{ pricing_model: 'free', base_price: 5 }, 400, 'INVALID_PRICE'],
      [{ base_price: -1 }, 422, 'VALIDATION_ERROR'],
      [{ base_price: '10' }, 422, 'VALIDATION_ERROR'],
      [{ title: '' }, 422, 'VALIDATION_ERROR'],
      [{ title: 'x'.repeat(201) }, 422, 'VALIDATION_ERROR'],
      [{ tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, 422, 'VALIDATION_ERROR'],
      [{ tags: ['x'.repeat(41)] }, 422, 'VALIDATION_ERROR'],
      [{ description: 'x'.repeat(10_001) }, 422, 'VALIDATION_ERROR'],
    ]
    for (const [override, status, code] of cases) {
      const response = await call('POST', '/api/marketplace/listings', 'sam', { ...base, ...override })
      expect([override, response.statusCode, response.json().error.code]).toEqual([override, status, code])
    }
    const missing = await call('POST', '/api/marketplace/listings', 'sam', { title: 'only a title' })
    expect(missing.statusCode).toBe(422)
    const [listings] = await server.rows<{ n: unknown }>(sql`SELECT count(*) AS n FROM listing`)
    expect(Number(listings?.n)).toBe(0)
  })

  it('checks ownership through the lookup of each asset type, and refuses a type without one', async () => {
    server = await startTestServer()
    await server.headersFor('sam')
    const seller: Viewer = { id: await userIdOf(server, 'sam'), permissions: ['marketplace.use'] }
    const owners = new Map([['source-1', seller.id]])
    const service = createListingService(server.app.ctx.database, {
      knowledge_source: (assetId) => owners.get(assetId) ?? null,
    })
    const input = {
      asset_type: 'knowledge_source',
      title: 'Case law',
      pricing_model: 'one_time',
      base_price: 5,
    }
    expect(await service.create(seller, { ...input, asset_id: 'source-1' })).toMatchObject({
      asset_type: 'knowledge_source',
      asset_id: 'source-1',
    })
    await expect(service.create(seller, { ...input, asset_id: 'source-2' })).rejects.toThrowError(
      expect.objectContaining({ code: 'ASSET_NOT_FOUND' }),
    )
    await expect(
      service.create(seller, { ...input, asset_type: 'document_agent', asset_id: 'source-1' }),
    ).rejects.toThrowError(expect.objectContaining({ code: 'ASSET_NOT_FOUND' }))
  })

  it('shows a listing that is not published only to its seller and admins', async () => {
    server = await startTestServer()
    const id = await createListing(server, 'sam')
    expect((await call('GET', `/api/marketplace/listings/${id}`, 'sam')).statusCode).toBe(200)
    expect((await call('GET', `/api/marketplace/listings/${id}`, 'admin')).statusCode).toBe(200)
    // Every other kind of user is told it does not exist, operators and reviewers included.
    for (const [username, roles] of [
      ['bob', ['user']],
      ['olga', ['operator']],
      ['rita', ['reviewer']],
    ] as const) {
      await server.headersFor(username, [...roles])
      const refused = await call('GET', `/api/marketplace/listings/${id}`, username)
      expect([refused.statusCode, refused.json().error.code]).toEqual([404, 'LISTING_NOT_FOUND'])
    }
    const search = await call('GET', '/api/marketplace/listings', 'bob')
    expect(search.json().total).toBe(0)
    await publish(server, id)
    expect((await call('GET', `/api/marketplace/listings/${id}`, 'bob')).json().status).toBe('published')
    expect((await call('GET', '/api/marketplace/listings', 'bob')).json().total).toBe(1)
  })

  it('lets only the seller edit; an edit of the text keeps a published listing published', async () => {
    server = await startTestServer()
    const id = await publishedListing(server, 'sam')
    const edit = await call('PUT', `/api/marketplace/listings/${id}`, 'sam', {
      title: 'Renamed',
      base_price: 100,
    })
    expect(edit.statusCode).toBe(200)
    expect(edit.json()).toMatchObject({ title: 'Renamed', base_price: 100, status: 'published' })
    expect(await listingRow(id)).toMatchObject({ title: 'Renamed', base_price: 100, status: 'published' })
    const other = await call('PUT', `/api/marketplace/listings/${id}`, 'bob', { title: 'Mine now' })
    expect([other.statusCode, other.json().error.code]).toEqual([403, 'FORBIDDEN'])
    const badModel = await call('PUT', `/api/marketplace/listings/${id}`, 'sam', { pricing_model: 'rent' })
    expect([badModel.statusCode, badModel.json().error.code]).toEqual([400, 'INVALID_PRICING_MODEL'])
    expect(await listingRow(id)).toMatchObject({ title: 'Renamed', pricing_model: 'one_time' })
  })

  it('deletes a listing without orders and only unlists one with orders', async () => {
    server = await startTestServer()
    const unsold = await publishedListing(server, 'sam')
    const sold = await publishedListing(server, 'sam', { title: 'Sold one' })
    await topUp(server, 'bob', 100)
    expect((await call('POST', '/api/marketplace/orders', 'bob', { listing_id: sold })).statusCode).toBe(201)

    expect((await call('DELETE', `/api/marketplace/listings/${unsold}`, 'bob')).statusCode).toBe(403)
    expect((await call('DELETE', `/api/marketplace/listings/${unsold}`, 'sam')).statusCode).toBe(204)
    expect(await listingRow(unsold)).toBeUndefined()
    expect((await call('DELETE', `/api/marketplace/listings/${sold}`, 'sam')).statusCode).toBe(204)
    expect(await listingRow(sold)).toMatchObject({ status: 'unlisted' })
    expect((await call('GET', `/api/marketplace/listings/${sold}`, 'bob')).statusCode).toBe(404)
    const buyAgain = await call('POST', '/api/marketplace/orders', 'carl', { listing_id: sold })
    expect([buyAgain.statusCode, buyAgain.json().error.code]).toEqual([404, 'LISTING_NOT_FOUND'])
    // The seller still sees their unlisted listing, so to them it is unavailable rather than absent.
    const ownUnlisted = await call('POST', '/api/marketplace/orders', 'sam', { listing_id: sold })
    expect([ownUnlisted.statusCode, ownUnlisted.json().error.code]).toEqual([409, 'LISTING_NOT_AVAILABLE'])
    const gone = await call('DELETE', `/api/marketplace/listings/${unsold}`, 'sam')
    expect([gone.statusCode, gone.json().error.code]).toEqual([404, 'LISTING_NOT_FOUND'])
  })

  it('searches by keyword over title, description and tags, filters and sorts', async () => {
    server = await startTestServer()
    const a = await publishedListing(server, 'sam', {
      title: 'Contract reviewer',
      description: 'legal',
      base_price: 300,
      tags: ['law'],
    })
    const b = await publishedListing(server, 'sam', {
      title: 'Invoice reader',
      description: 'Reads INVOICES fast',
      base_price: 100,
      tags: ['finance'],
    })
    const c = await publishedListing(server, 'sam', {
      title: 'Free helper',
      description: 'general',
      pricing_model: 'free',
      base_price: 0,
      tags: ['Onboarding'],
    })
    await createListing(server, 'sam', { title: 'Invoice draft', description: 'unpublished' })

    const ids = async (query: string) =>
      ((await call('GET', `/api/marketplace/listings?${query}`, 'bob')).json().items as { id: string }[]).map(
        (i) => i.id,
      )
    expect(await ids('keyword=invoice')).toEqual([b])
    expect(await ids('keyword=invoices')).toEqual([b])
    expect(await ids('keyword=ONBOARDING')).toEqual([c])
    expect(await ids('keyword=law')).toEqual([a])
    expect(await ids('keyword=legal%20contract')).toEqual([a])
    expect(await ids('keyword=%22%27*')).toEqual([c, b, a])
    expect(await ids('pricing_model=free')).toEqual([c])
    expect(await ids('sort_by=price&sort_order=asc')).toEqual([c, b, a])
    expect(await ids('sort_by=price&sort_order=desc')).toEqual([a, b, c])
    expect(await ids('')).toEqual([c, b, a])
    expect(await ids('size=2&page=2')).toEqual([a])
    const page = (await call('GET', '/api/marketplace/listings?size=2', 'bob')).json()
    expect(page).toMatchObject({ total: 3, page: 1, size: 2 })
    expect(Object.keys(page.items[0]).sort()).toEqual(
      [
        'asset_type',
        'base_price',
        'created_at',
        'description',
        'id',
        'pricing_model',
        'rating_avg',
        'rating_count',
        'seller',
        'title',
      ].sort(),
    )
    const badType = await call('GET', '/api/marketplace/listings?asset_type=robot', 'bob')
    expect([badType.statusCode, badType.json().error.code]).toEqual([400, 'INVALID_ASSET_TYPE'])
    const badModel = await call('GET', '/api/marketplace/listings?pricing_model=rent', 'bob')
    expect([badModel.statusCode, badModel.json().error.code]).toEqual([400, 'INVALID_PRICING_MODEL'])
    expect((await call('GET', '/api/marketplace/listings?sort_by=name', 'bob')).statusCode).toBe(422)
    expect(
      (await call('GET', '/api/marketplace/listings?page=100000000000000000000', 'bob')).statusCode,
    ).toBe(422)
    expect(
      (await call('GET', '/api/marketplace/listings?page=1000000&keyword=r', 'bob')).json().items,
    ).toEqual([])
    expect(await ids('keyword=helper&pricing_model=free')).toEqual([c])
    expect(await ids('keyword=reader&pricing_model=free')).toEqual([])
    expect(await ids('keyword=reader&asset_type=agent')).toEqual([b])
    expect(await ids('keyword=reader&asset_type=knowledge_source')).toEqual([])
    expect(await ids('keyword=r&sort_by=price&sort_order=asc')).toEqual([b, a])
    expect(await ids('keyword=r&sort_order=asc')).toEqual([a, b])
    expect(await ids('keyword=r&size=1&page=2')).toEqual([a])
    expect((await call('GET', '/api/marketplace/listings?keyword=r&size=1', 'bob')).json().total).toBe(2)
    // Leaving the published state leaves the search; coming back returns to it.
    await call('PUT', `/api/admin/listings/${b}/status`, 'admin', { status: 'suspended' })
    expect(await ids('keyword=invoice')).toEqual([])
    await publish(server, b)
    expect(await ids('keyword=invoice')).toEqual([b])
    // An edit is searchable at once.
    await call('PUT', `/api/marketplace/listings/${a}`, 'sam', { tags: ['compliance'] })
    expect(await ids('keyword=compliance')).toEqual([a])
    expect(await ids('keyword=law')).toEqual([])
  })
})

// SQLite's own FTS5 index and its migration: PostgreSQL's search table is kept by its trigger (its migration 0002).
describe.skipIf(TEST_ENGINE === 'postgres')('listing search index (migration 0005)', () => {
  it('fills itself once where it is missing and keeps the index an earlier release made', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-listing-search-'))
    // After afterEach has closed the last server on it.
    onTestFinished(() => rmSync(dataDir, { recursive: true, force: true }))
    server = await startTestServer({ dataDir })
    const a = await publishedListing(server, 'sam', { title: 'Harbour pilot' })
    const b = await publishedListing(server, 'sam', { title: 'Harbour clerk' })
    await createListing(server, 'sam', { title: 'Harbour draft' })
    const indexed = () =>
      server
        .sqlite()
        .$client.prepare('SELECT rowid FROM published_listing_search ORDER BY rowid')
        .pluck()
        .all()
    const searchIds = async () =>
      (
        (await call('GET', '/api/marketplace/listings?keyword=harbour', 'admin')).json().items as {
          id: string
        }[]
      )
        .map((item) => item.id)
        .sort()
    const before = indexed()
    expect(before).toHaveLength(2)
    /** Restarts as if migration 0005 (and the ones after it) had never run, after `prepare` changes the database (users persist, so only admin searches). */
    const restartUnmigrated = async (prepare: string) => {
      rewindMigrations(server.sqlite().$client, 5)
      server.sqlite().$client.exec(prepare)
      await server.close()
      server = await startTestServer({ dataDir })
    }

    // An earlier release made the index and its triggers at run time: the migration adds nothing to it.
    await restartUnmigrated('')
    expect(indexed()).toEqual(before)
    expect(await searchIds()).toEqual([a, b].sort())

    // Without the index, the migration makes it and fills it with the published listings only.
    await restartUnmigrated(`DROP TRIGGER published_listing_search_after_insert;
        DROP TRIGGER published_listing_search_after_update; DROP TRIGGER published_listing_search_after_delete;
        DROP TABLE published_listing_search;`)
    expect(indexed()).toEqual(before)
    expect(await searchIds()).toEqual([a, b].sort())
    await call('PUT', `/api/admin/listings/${a}/status`, 'admin', { status: 'suspended' })
    expect(await searchIds()).toEqual([b])
  })
})

describe('listing moderation', () => {
  it('sets a status with a reason, records it in the admin audit log, and lists the queue by status', async () => {
    server = await startTestServer()
    const id = await createListing(server, 'sam')
    const queue = await call('GET', '/api/admin/listings?status=pending_review', 'admin')
    expect(queue.json()).toMatchObject({ total: 1, items: [{ id, status: 'pending_review' }] })

    const rejected = await call('PUT', `/api/admin/listings/${id}/status`, 'admin', {
      status: 'rejected',
      reason: 'Missing description',
    })
    expect(rejected.statusCode).toBe(200)
    expect(rejected.json()).toMatchObject({ status: 'rejected', status_reason: 'Missing description' })
    expect(await listingRow(id)).toMatchObject({ status: 'rejected', status_reason: 'Missing description' })
    const audit = await server.rows<Record<string, unknown>>(
      sql`SELECT action, target_id, before_json, after_json FROM admin_audit_log WHERE action = 'listing.status'`,
    )
    // JSON text on SQLite, jsonb (parsed by the driver) on PostgreSQL.
    const parsed = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value)
    expect(
      audit.map((row) => ({
        ...row,
        before_json: parsed(row.before_json),
        after_json: parsed(row.after_json),
      })),
    ).toEqual([
      {
        action: 'listing.status',
        target_id: id,
        // The title names the listing in the audit log's list.
        before_json: { title: 'Contract reviewer', status: 'pending_review', reason: null },
        after_json: { status: 'rejected', reason: 'Missing description' },
      },
    ])
    // The seller's fix sends it back to review.
    await call('PUT', `/api/marketplace/listings/${id}`, 'sam', { description: 'Now described' })
    expect(await listingRow(id)).toMatchObject({ status: 'pending_review' })

    const notAdmin = await call('PUT', `/api/admin/listings/${id}/status`, 'sam', { status: 'published' })
    expect([notAdmin.statusCode, notAdmin.json().error.code]).toEqual([403, 'FORBIDDEN'])
    const badStatus = await call('PUT', `/api/admin/listings/${id}/status`, 'admin', { status: 'deleted' })
    expect(badStatus.statusCode).toBe(422)
    const unknown = await call(
      'PUT',
      '/api/admin/listings/00000000-0000-4000-8000-000000000000/status',
      'admin',
      {
        status: 'published',
      },
    )
    expect([unknown.statusCode, unknown.json().error.code]).toEqual([404, 'LISTING_NOT_FOUND'])
    expect(await listingRow(id)).toMatchObject({ status: 'pending_review' })
  })
})
