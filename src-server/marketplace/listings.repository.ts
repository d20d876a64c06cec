import { and, asc, count, desc, eq, getTableColumns, type SQL, sql, sum } from 'drizzle-orm'
import { publicAvatarUrl, publicAvatarUrlOn, user } from '../auth'
import {
  type Db,
  type EngineDb,
  engineTables,
  isPostgres,
  literalLimit,
  perShape,
  preparePlain,
  runSql,
} from '../platform/db'
import { type ListingStatus, listing, listingCount, marketplaceOrder } from './marketplace.tables'

export type ListingRow = typeof listing.$inferSelect
export type ListingWithSeller = ListingRow & { sellerUsername: string; sellerAvatarUrl: string | null }

/*
 * Keyword search: a contentless FTS5 index holding only PUBLISHED listings (rowid = `search_id`), kept in step by
 * triggers (both made by migration 0005_search_indexes, which drizzle-kit cannot express in tables.ts). Because
 * it holds exactly what the public may find, a search counts its matches and pages through them in creation order
 * (search_id is assigned in creation order) without reading a single listing row; only the page itself is read.
 * `facets` holds the asset type and pricing model as tokens, so those filters are part of the match too.
 * A keyword search of other statuses (moderation, a seller's own listings) cannot use that index: it reads the
 * listings its status or seller selects (each has its index) and finds each word in their title, description or
 * tags with LIKE: a substring match, case-blind for ASCII, a little looser than the index's word prefixes.
 *
 * On PostgreSQL the same searches are drizzle queries: `published_listing_search` holds each published listing's
 * `tsvector` (kept by a trigger, PostgreSQL migration 0002), matched with every word as a prefix (`word:*`);
 * other statuses match each word with ILIKE.
 */

/** The words of a free-text keyword (letters and digits); null when it has none. */
function keywordWords(keyword: string): string[] | null {
  return keyword.match(/[\p{L}\p{N}]+/gu)
}

/** Words of a free-text keyword as an FTS5 query: every word must match, each as a prefix. */
export function ftsQuery(keyword: string): string | null {
  const words = keywordWords(keyword)
  if (!words) return null
  return words.map((word) => `"${word}"*`).join(' ')
}

/** Only the published listings are in the keyword index. */
const usesIndex = (filter: ListingFilter) => filter.status === 'published'

const facet = (prefix: string, value: string) => `${prefix}${value.replace(/[^a-z]/g, '')}`

/** The FTS5 query of a public keyword search, filters included; null when the keyword has no words. */
function publishedMatch(filter: ListingFilter): string | null {
  const words = filter.keyword ? ftsQuery(filter.keyword) : null
  if (!words) return null
  const parts = [`{title description tags} : (${words})`]
  if (filter.assetType) parts.push(`facets : ${facet('at', filter.assetType)}`)
  if (filter.pricingModel) parts.push(`facets : ${facet('pm', filter.pricingModel)}`)
  return parts.join(' AND ')
}

const ratingAverage = sql<number>`CASE WHEN ${listing.ratingCount} > 0 THEN CAST(${listing.ratingSum} AS REAL) / ${listing.ratingCount} ELSE 0 END`

const withSeller = {
  ...getTableColumns(listing),
  sellerUsername: user.username,
  sellerAvatarUrl: publicAvatarUrl,
}

/**
 * What a search result card shows: the public search reads only these. Each column read costs SQLite a value
 * and drizzle a mapping, and the other eight made up half of a search's time.
 */
const itemColumnsWith = (sellerAvatarUrl: typeof publicAvatarUrl) => ({
  id: listing.id,
  title: listing.title,
  description: listing.description,
  assetType: listing.assetType,
  pricingModel: listing.pricingModel,
  basePrice: listing.basePrice,
  ratingSum: listing.ratingSum,
  ratingCount: listing.ratingCount,
  createdAt: listing.createdAt,
  sellerId: listing.sellerId,
  sellerUsername: user.username,
  sellerAvatarUrl,
})
const itemColumns = itemColumnsWith(publicAvatarUrl)

export type ListingItemRow = Pick<ListingWithSeller, keyof typeof itemColumns>
const ITEM_FIELDS = Object.keys(itemColumns) as (keyof ListingItemRow)[]

const tables = engineTables({ listing, listingCount, marketplaceOrder, user })

/** A listing with its seller by id (a listing's page, and each moderation step, read it). */
export async function findListing(db: EngineDb, id: string): Promise<ListingWithSeller | null> {
  const { listing, user } = tables(db)
  const [row] = await db
    .select({
      ...getTableColumns(listing),
      sellerUsername: user.username,
      sellerAvatarUrl: publicAvatarUrlOn(db),
    })
    .from(listing)
    .innerJoin(user, eq(user.id, listing.sellerId))
    .where(eq(listing.id, id))
  return row ?? null
}

export interface ListingFilter {
  status?: ListingStatus | undefined
  /** One seller's listings, whatever their status (the seller's own view). */
  sellerId?: string | undefined
  assetType?: string | undefined
  pricingModel?: string | undefined
  keyword?: string | undefined
  sortBy?: 'price' | 'rating' | 'created_at' | undefined
  sortOrder?: 'asc' | 'desc' | undefined
  limit: number
  offset: number
}

const p = sql.placeholder

/**
 * A search as asked of the statements: whole listings, or only what a result card shows; `words` is how many words
 * its keyword has (none: no keyword).
 */
type Search = ListingFilter & { columns: 'all' | 'item'; words: number }

/**
 * What makes two searches the same statement: the columns read, which filters are present, the sort and the page
 * size (see `literalLimit`), never the filters' values.
 */
const searchShape = (filter: Search) =>
  [
    filter.columns,
    filter.words === 0 ? '' : usesIndex(filter) ? 'k' : `k${filter.words}`,
    filter.status === undefined ? '' : 's',
    filter.sellerId === undefined ? '' : 'u',
    filter.assetType === undefined ? '' : 'a',
    filter.pricingModel === undefined ? '' : 'p',
    filter.sortBy ?? 'created_at',
    filter.sortOrder ?? 'desc',
    filter.limit,
  ].join(':')

/** The statements of one search shape, with placeholders for the values: built on its first use, then reused. */
const searchStatements = perShape(searchShape, (db: Db, filter: Search) => {
  const column =
    filter.sortBy === 'price'
      ? listing.basePrice
      : filter.sortBy === 'rating'
        ? ratingAverage
        : listing.createdAt
  const direction = filter.sortOrder === 'asc' ? asc : desc
  const read = (where: SQL | undefined, order: SQL[]) =>
    db
      .select(filter.columns === 'item' ? itemColumns : withSeller)
      .from(listing)
      .innerJoin(user, eq(user.id, listing.sellerId))
      .where(where)
      .orderBy(...order)
  // A result card's columns are text and numbers: read as plain rows. Whole listings have JSON tags to decode.
  const prepare = (select: Pick<ReturnType<typeof read>, 'toSQL' | 'prepare'>) =>
    filter.columns === 'item' ? preparePlain<ListingItemRow>(db, select, ITEM_FIELDS) : select.prepare()
  const page = (where: SQL | undefined) =>
    prepare(
      read(where, [direction(column), direction(listing.id)])
        .limit(literalLimit(filter.limit))
        .offset(p('offset')),
    )

  const sellerIs = eq(listing.sellerId, p('sellerId'))
  if (filter.words > 0 && usesIndex(filter)) {
    const matching = sql`SELECT rowid FROM published_listing_search WHERE published_listing_search MATCH ${p('match')}`
    if (filter.sellerId !== undefined) {
      const where = and(sql`${listing.searchId} IN (${matching})`, sellerIs)
      return { total: db.select({ n: count() }).from(listing).where(where).prepare(), page: page(where) }
    }
    const total = db
      .select({ n: count() })
      .from(sql`published_listing_search`)
      .where(sql`published_listing_search MATCH ${p('match')}`)
      .prepare()
    if (filter.sortBy === undefined || filter.sortBy === 'created_at') {
      // Creation order is search_id order: the index pages through its own rowids and stops at the page.
      const rowOrder = filter.sortOrder === 'asc' ? sql`ASC` : sql`DESC`
      const ids = sql`${matching} ORDER BY rowid ${rowOrder} LIMIT ${literalLimit(filter.limit)} OFFSET ${p('offset')}`
      return {
        total,
        page: prepare(read(sql`${listing.searchId} IN (${ids})`, [direction(listing.searchId)])),
      }
    }
    return { total, page: page(sql`${listing.searchId} IN (${matching})`) }
  }

  const conditions: SQL[] = []
  if (filter.status !== undefined) conditions.push(eq(listing.status, p('status')))
  if (filter.sellerId !== undefined) conditions.push(sellerIs)
  for (let i = 0; i < filter.words; i++)
    conditions.push(
      sql`(${listing.title} LIKE ${p(`word${i}`)} OR ${listing.description} LIKE ${p(`word${i}`)} OR ${listing.tags} LIKE ${p(`word${i}`)})`,
    )
  if (filter.assetType !== undefined) conditions.push(sql`${listing.assetType} = ${p('assetType')}`)
  if (filter.pricingModel !== undefined) conditions.push(sql`${listing.pricingModel} = ${p('pricingModel')}`)
  const where = conditions.length > 0 ? and(...conditions) : undefined
  const total =
    filter.words === 0 && filter.sellerId === undefined
      ? countedTotal(db, filter)
      : db.select({ n: count() }).from(listing).where(where).prepare()
  return { total, page: page(where) }
})

/** The total of a search whose every filter is a column of `listing_count`: a sum of its rows, not a count. */
function countedTotal(db: Db, filter: Search) {
  const conditions: SQL[] = []
  if (filter.status !== undefined) conditions.push(eq(listingCount.status, p('status')))
  if (filter.assetType !== undefined) conditions.push(sql`${listingCount.assetType} = ${p('assetType')}`)
  if (filter.pricingModel !== undefined)
    conditions.push(sql`${listingCount.pricingModel} = ${p('pricingModel')}`)
  return db
    .select({ n: sql<number>`coalesce(${sum(listingCount.n)}, 0)`.mapWith(Number) })
    .from(listingCount)
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .prepare()
}

/** A search on PostgreSQL: the same filters, sorts and pages as the SQLite statements, as a drizzle query. */
async function searchOnPg(
  db: EngineDb,
  filter: ListingFilter & { columns: Search['columns'] },
  words: string[],
) {
  const { listing, user } = tables(db)
  const conditions: SQL[] = []
  if (filter.status !== undefined) conditions.push(eq(listing.status, filter.status))
  if (filter.sellerId !== undefined) conditions.push(eq(listing.sellerId, filter.sellerId))
  if (filter.assetType !== undefined) conditions.push(sql`${listing.assetType} = ${filter.assetType}`)
  if (filter.pricingModel !== undefined)
    conditions.push(sql`${listing.pricingModel} = ${filter.pricingModel}`)
  if (words.length > 0 && usesIndex(filter)) {
    // The words hold only letters and digits, so none is tsquery syntax.
    const query = words.map((word) => `${word.toLowerCase()}:*`).join(' & ')
    conditions.push(
      sql`${listing.searchId} IN (SELECT search_id FROM published_listing_search
        WHERE document @@ to_tsquery('simple', ${query}))`,
    )
  } else
    for (const word of words) {
      const pattern = `%${word}%`
      conditions.push(
        sql`(${listing.title} ILIKE ${pattern} OR ${listing.description} ILIKE ${pattern} OR ${listing.tags}::text ILIKE ${pattern})`,
      )
    }
  const where = conditions.length > 0 ? and(...conditions) : undefined
  const column =
    filter.sortBy === 'price'
      ? listing.basePrice
      : filter.sortBy === 'rating'
        ? sql`CASE WHEN ${listing.ratingCount} > 0 THEN CAST(${listing.ratingSum} AS REAL) / ${listing.ratingCount} ELSE 0 END`
        : listing.createdAt
  const direction = filter.sortOrder === 'asc' ? asc : desc
  const avatar = publicAvatarUrlOn(db)
  const columns =
    filter.columns === 'item'
      ? itemColumnsWith(avatar)
      : { ...getTableColumns(listing), sellerUsername: user.username, sellerAvatarUrl: avatar }
  const rows = await db
    .select(columns)
    .from(listing)
    .innerJoin(user, eq(user.id, listing.sellerId))
    .where(where)
    .orderBy(direction(column), direction(listing.id))
    .limit(filter.limit)
    .offset(filter.offset)
  const [counted] = await db.select({ n: count() }).from(listing).where(where)
  return { rows, total: counted?.n ?? 0 }
}

async function search(db: EngineDb, filter: ListingFilter & { columns: Search['columns'] }) {
  // A keyword without a single word matches like no keyword at all.
  const words = filter.keyword ? (keywordWords(filter.keyword) ?? []) : []
  if (isPostgres(db)) return searchOnPg(db, filter, words)
  return searchOnSqlite(db as unknown as Db, filter, words)
}

/** A search on SQLite, through the statements of its shape. */
function searchOnSqlite(db: Db, filter: ListingFilter & { columns: Search['columns'] }, words: string[]) {
  const statements = searchStatements(db, { ...filter, words: words.length })
  const values = {
    match: words.length > 0 && usesIndex(filter) ? publishedMatch(filter) : null,
    // The words have only letters and digits, so none holds a LIKE wildcard.
    ...Object.fromEntries(words.map((word, i) => [`word${i}`, `%${word}%`])),
    status: filter.status,
    sellerId: filter.sellerId,
    assetType: filter.assetType,
    pricingModel: filter.pricingModel,
    offset: filter.offset,
  }
  return { rows: statements.page.all(values), total: statements.total.get(values)?.n ?? 0 }
}

/**
 * A page of listings, narrowed by each filter given, with or without a keyword (the public search passes
 * `published`, moderation whatever it asks for, a seller's own view their id).
 */
export async function searchListings(db: EngineDb, filter: ListingFilter) {
  const { rows, total } = await search(db, { ...filter, columns: 'all' })
  return { rows: rows as ListingWithSeller[], total }
}

/** `searchListings` reading only what a result card shows. */
export async function searchListingItems(db: EngineDb, filter: ListingFilter) {
  const { rows, total } = await search(db, { ...filter, columns: 'item' })
  return { rows: rows as ListingItemRow[], total }
}

/** Any constant of the advisory lock space: only listing inserts take this one. */
const LISTING_INSERT_LOCK = 7_004_310_705

export async function insertListing(
  db: EngineDb,
  values: Omit<typeof listing.$inferInsert, 'searchId'>,
): Promise<string> {
  const { listing } = tables(db)
  // The next search id is read from the table: on PostgreSQL, where sellers on several instances insert at once,
  // listing inserts take turns (a transaction-scoped advisory lock; SQLite's transactions take turns anyway).
  if (isPostgres(db)) await runSql(db, sql`SELECT pg_advisory_xact_lock(${LISTING_INSERT_LOCK})`)
  const [row] = await db
    .insert(listing)
    .values({ ...values, searchId: sql`(SELECT coalesce(max(${listing.searchId}), 0) + 1 FROM ${listing})` })
    .returning({ id: listing.id })
  if (!row) throw new Error('listing not inserted')
  return row.id
}

export async function updateListing(
  db: EngineDb,
  id: string,
  values: Partial<typeof listing.$inferInsert>,
): Promise<void> {
  const { listing } = tables(db)
  await db.update(listing).set(values).where(eq(listing.id, id))
}

export async function deleteListing(db: EngineDb, id: string): Promise<void> {
  const { listing } = tables(db)
  await db.delete(listing).where(eq(listing.id, id))
}

export async function listingHasOrders(db: EngineDb, id: string): Promise<boolean> {
  const { marketplaceOrder } = tables(db)
  const [row] = await db
    .select({ id: marketplaceOrder.id })
    .from(marketplaceOrder)
    .where(eq(marketplaceOrder.listingId, id))
    .limit(1)
  return row !== undefined
}
