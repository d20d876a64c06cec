import { eq } from 'drizzle-orm'
import { type Db, perHandle, type Queryable } from '../platform/db'
import {
  type AssetType,
  assetGrant,
  type ListingStatus,
  type listing,
  marketplaceOrder,
} from './marketplace.tables'

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
 * caller's transaction.
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
    insertPendingOrder: sqlite.prepare<
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
      ]
    >(
      `INSERT INTO marketplace_order (id, listing_id, buyer_id, seller_id, asset_type, asset_id, total_price,
         platform_fee, seller_income, refundable_until, status, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?)`,
    ),
    markPaid: sqlite.prepare<[at: string, id: string]>(
      "UPDATE marketplace_order SET status = 'paid', completed_at = ? WHERE id = ?",
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

export function findPurchasedListing(db: Db, id: string): PurchasedListing | null {
  const row = purchaseStatements(db).listingById.get(id)
  if (!row) return null
  const [status, sellerId, basePrice, assetType, assetId, title] = row
  return { status, sellerId, basePrice, assetType, assetId, title }
}

/** The buyer's paid (not refunded) order of the listing, or null. */
export function findPaidOrderId(db: Db, listingId: string, buyerId: string): string | null {
  return purchaseStatements(db).paidOrderOf.get(listingId, buyerId) ?? null
}

/** Writes the order in its first state, `pending`. */
export function insertPendingOrder(db: Db, order: Omit<OrderRow, 'status'>): void {
  purchaseStatements(db).insertPendingOrder.run(
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
  )
}

/** False when the order is gone. */
export function markOrderPaid(db: Db, id: string, at: string): boolean {
  return purchaseStatements(db).markPaid.run(at, id).changes === 1
}

export function insertGrant(
  db: Db,
  grant: { id: string; userId: string; assetType: string; assetId: string; orderId: string; at: string },
): void {
  purchaseStatements(db).insertGrant.run(
    grant.id,
    grant.userId,
    grant.assetType,
    grant.assetId,
    grant.orderId,
    grant.at,
  )
}

export function countDownload(db: Db, listingId: string): void {
  purchaseStatements(db).countDownload.run(listingId)
}

export function findOrder(db: Queryable, id: string): OrderRow | null {
  return db.select().from(marketplaceOrder).where(eq(marketplaceOrder.id, id)).get() ?? null
}

export function revokeGrantsOfOrder(db: Queryable, orderId: string, at: string): void {
  db.update(assetGrant).set({ revokedAt: at }).where(eq(assetGrant.orderId, orderId)).run()
}

export function markOrderRefunded(db: Queryable, id: string, at: string, reason: string): OrderRow {
  return db
    .update(marketplaceOrder)
    .set({ status: 'refunded', refundedAt: at, refundReason: reason })
    .where(eq(marketplaceOrder.id, id))
    .returning()
    .get()
}
