import { and, eq, sql } from 'drizzle-orm'
import { type Db, type EngineDb, engineTables, isPostgres, type Maybe, perHandle } from '../platform/db'
import { deferredWritesOf, noWrites, runWrites } from './deferred-writes'
import {
  type AssetType,
  assetGrant,
  type ListingStatus,
  listing,
  marketplaceOrder,
} from './marketplace.tables'

const tables = engineTables({ assetGrant, listing, marketplaceOrder })

export type OrderRow = typeof marketplaceOrder.$inferSelect
export type ListingRow = typeof listing.$inferSelect

/** What a purchase needs of its listing. */
export type PurchasedListing = Pick<
  ListingRow,
  'status' | 'sellerId' | 'basePrice' | 'assetType' | 'assetId' | 'title'
>

/**
 * The purchase path's statements, plain and prepared once per database: a drizzle query, even prepared, maps every
 * row and fills every placeholder through its column objects, which cost as much as running the statement. They
 * take positional parameters and give rows as arrays (better-sqlite3 looks each named parameter up on its object
 * and names each column of an object row anew for every row). They run on the one connection, so inside the
 * caller's transaction. On PostgreSQL the same statements are drizzle queries, awaited; on SQLite the purchase's
 * functions return their value at once, so the purchase makes no promise per statement.
 */
const purchaseStatements = perHandle((db: Db) => {
  const sqlite = db.$client
  return {
    listingById: sqlite
      .prepare<[id: string], [ListingStatus, string, number, AssetType, string, string]>(
        'SELECT status, seller_id, base_price, asset_type, asset_id, title FROM listing WHERE id = ?',
      )
      .raw(),
    paidOrderOf: sqlite
      .prepare<[listingId: string, buyerId: string], string>(
        "SELECT id FROM marketplace_order WHERE listing_id = ? AND buyer_id = ? AND status = 'paid'",
      )
      .pluck(),
    insertPaidOrder: sqlite.prepare<
      [
        id: string,
        listingId: string,
        buyerId: string,
        sellerId: string,
        assetType: string,
        assetId: string,
        totalPrice: number,
        platformFee: number,
        sellerIncome: number,
        refundableUntil: string | null,
        createdAt: string,
        completedAt: string,
      ]
    >(
      `INSERT INTO marketplace_order (id, listing_id, buyer_id, seller_id, asset_type, asset_id, total_price,
         platform_fee, seller_income, refundable_until, status, created_at, completed_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'paid', ?, ?)`,
    ),
    insertGrant: sqlite.prepare<
      [id: string, userId: string, assetType: string, assetId: string, orderId: string, at: string]
    >(
      `INSERT INTO asset_grant (id, user_id, asset_type, asset_id, order_id, created_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    ),
    countDownload: sqlite.prepare<[id: string]>(
      'UPDATE listing SET download_count = download_count + 1 WHERE id = ?',
    ),
  }
})

const sqlite = (db: EngineDb) => purchaseStatements(db as unknown as Db)

export function findPurchasedListing(db: EngineDb, id: string): Maybe<PurchasedListing | null> {
  if (isPostgres(db)) return findPurchasedListingOnPg(db, id)
  const row = sqlite(db).listingById.get(id)
  if (!row) return null
  const [status, sellerId, basePrice, assetType, assetId, title] = row
  return { status, sellerId, basePrice, assetType, assetId, title }
}

async function findPurchasedListingOnPg(db: EngineDb, id: string): Promise<PurchasedListing | null> {
  const { listing } = tables(db)
  const [row] = await db
    .select({
      status: listing.status,
      sellerId: listing.sellerId,
      basePrice: listing.basePrice,
      assetType: listing.assetType,
      assetId: listing.assetId,
      title: listing.title,
    })
    .from(listing)
    .where(eq(listing.id, id))
  return row ?? null
}

/** The buyer's paid (not refunded) order of the listing, or null. */
export function findPaidOrderId(db: EngineDb, listingId: string, buyerId: string): Maybe<string | null> {
  if (isPostgres(db)) return findPaidOrderIdOnPg(db, listingId, buyerId)
  return sqlite(db).paidOrderOf.get(listingId, buyerId) ?? null
}

async function findPaidOrderIdOnPg(db: EngineDb, listingId: string, buyerId: string): Promise<string | null> {
  const { marketplaceOrder: order } = tables(db)
  const [row] = await db
    .select({ id: order.id })
    .from(order)
    .where(and(eq(order.listingId, listingId), eq(order.buyerId, buyerId), eq(order.status, 'paid')))
  return row?.id ?? null
}

/** What a purchase writes of its order: the order itself, paid. */
type PaidOrder = Omit<OrderRow, 'status'> & { completedAt: string }

/**
 * The last step of a purchase: the order, paid (it is written once its payment is, in the same transaction, so
 * nobody ever sees it in another state), its asset granted to the buyer, the listing's download counted. At once on
 * SQLite (no promise per statement); on PostgreSQL held back with the purchase's other writes (deferred-writes.ts).
 */
export function insertPaidOrder(db: EngineDb, order: PaidOrder, grantId: string): Maybe<unknown> {
  if (isPostgres(db)) return insertPaidOrderOnPg(db, order, grantId)
  const statements = sqlite(db)
  statements.insertPaidOrder.run(
    order.id,
    order.listingId,
    order.buyerId,
    order.sellerId,
    order.assetType,
    order.assetId,
    order.totalPrice,
    order.platformFee,
    order.sellerIncome,
    order.refundableUntil,
    order.createdAt,
    order.completedAt,
  )
  statements.insertGrant.run(
    grantId,
    order.buyerId,
    order.assetType,
    order.assetId,
    order.id,
    order.completedAt,
  )
  statements.countDownload.run(order.listingId)
  return undefined
}

function insertPaidOrderOnPg(db: EngineDb, order: PaidOrder, grantId: string): Maybe<unknown> {
  const { assetGrant, listing, marketplaceOrder } = tables(db)
  const statements = [
    db.insert(marketplaceOrder).values({ ...order, status: 'paid' }),
    db.insert(assetGrant).values({
      id: grantId,
      userId: order.buyerId,
      assetType: order.assetType,
      assetId: order.assetId,
      orderId: order.id,
      createdAt: order.completedAt,
    }),
    db
      .update(listing)
      .set({ downloadCount: sql`${listing.downloadCount} + 1` })
      .where(eq(listing.id, order.listingId)),
  ]
  const writes = { ...noWrites(), statements: statements.map((statement) => statement.getSQL()) }
  const deferred = deferredWritesOf(db)
  if (!deferred) return runWrites(db, writes)
  deferred.statements.push(...writes.statements)
  return undefined
}

export async function findOrder(db: EngineDb, id: string): Promise<OrderRow | null> {
  const { marketplaceOrder: order } = tables(db)
  const [row] = await db.select().from(order).where(eq(order.id, id))
  return row ?? null
}

export async function revokeGrantsOfOrder(db: EngineDb, orderId: string, at: string): Promise<void> {
  const { assetGrant } = tables(db)
  await db.update(assetGrant).set({ revokedAt: at }).where(eq(assetGrant.orderId, orderId))
}

/** Marks a paid order refunded: the row, or null when it is not paid (any more). */
export async function markOrderRefunded(
  db: EngineDb,
  id: string,
  at: string,
  reason: string,
): Promise<OrderRow | null> {
  const { marketplaceOrder: order } = tables(db)
  const [row] = await db
    .update(order)
    .set({ status: 'refunded', refundedAt: at, refundReason: reason })
    .where(and(eq(order.id, id), eq(order.status, 'paid')))
    .returning()
  return row ?? null
}
