import { and, eq, sql } from 'drizzle-orm'
import { type Db, perHandle, type Queryable } from '../db'
import { assetGrant, type listing, marketplaceOrder } from './marketplace.tables'

export type OrderRow = typeof marketplaceOrder.$inferSelect
export type ListingRow = typeof listing.$inferSelect

const p = sql.placeholder

/** What a purchase needs of its listing. */
export type PurchasedListing = Pick<
  ListingRow,
  'status' | 'sellerId' | 'basePrice' | 'assetType' | 'assetId' | 'title'
>

/**
 * The purchase path's writes and its listing read, plain and prepared once per database: a drizzle query, even
 * prepared, maps every row and fills every placeholder through its column objects, which cost as much as running
 * the statement. They run on the one connection, so inside the caller's transaction.
 */
const purchaseStatements = perHandle((db: Db) => {
  const sqlite = db.$client
  return {
    listingById: sqlite.prepare<[string], PurchasedListing>(
      `SELECT status, seller_id AS sellerId, base_price AS basePrice, asset_type AS assetType, asset_id AS assetId,
         title FROM listing WHERE id = ?`,
    ),
    insertPendingOrder: sqlite.prepare<[OrderRow]>(
      `INSERT INTO marketplace_order (id, listing_id, buyer_id, seller_id, asset_type, asset_id, total_price,
         platform_fee, seller_income, status, created_at)
       VALUES (@id, @listingId, @buyerId, @sellerId, @assetType, @assetId, @totalPrice, @platformFee, @sellerIncome,
         @status, @createdAt)`,
    ),
    markPaid: sqlite.prepare<[{ id: string; at: string }]>(
      "UPDATE marketplace_order SET status = 'paid', completed_at = @at WHERE id = @id",
    ),
    insertGrant: sqlite.prepare<
      [{ id: string; userId: string; assetType: string; assetId: string; orderId: string; at: string }]
    >(
      `INSERT INTO asset_grant (id, user_id, asset_type, asset_id, order_id, created_at)
       VALUES (@id, @userId, @assetType, @assetId, @orderId, @at)`,
    ),
    countDownload: sqlite.prepare<[string]>(
      'UPDATE listing SET download_count = download_count + 1 WHERE id = ?',
    ),
  }
})

/** Built once per handle: purchases and reviews ask it with the database handle, inside their transactions. */
const paidOrderOf = perHandle((db: Queryable) =>
  db
    .select({ id: marketplaceOrder.id })
    .from(marketplaceOrder)
    .where(
      and(
        eq(marketplaceOrder.listingId, p('listingId')),
        eq(marketplaceOrder.buyerId, p('buyerId')),
        eq(marketplaceOrder.status, 'paid'),
      ),
    )
    .prepare(),
)

export function findPurchasedListing(db: Db, id: string): PurchasedListing | null {
  return purchaseStatements(db).listingById.get(id) ?? null
}

/** The buyer's paid (not refunded) order of the listing, or null. */
export function findPaidOrderId(db: Queryable, listingId: string, buyerId: string): string | null {
  return paidOrderOf(db).get({ listingId, buyerId })?.id ?? null
}

export function insertPendingOrder(db: Db, order: OrderRow): void {
  purchaseStatements(db).insertPendingOrder.run(order)
}

/** False when the order is gone. */
export function markOrderPaid(db: Db, id: string, at: string): boolean {
  return purchaseStatements(db).markPaid.run({ id, at }).changes === 1
}

export function insertGrant(
  db: Db,
  values: { id: string; userId: string; assetType: string; assetId: string; orderId: string; at: string },
): void {
  purchaseStatements(db).insertGrant.run(values)
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
