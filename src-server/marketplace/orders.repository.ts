import { and, eq, sql } from 'drizzle-orm'
import { perHandle, type Queryable } from '../db'
import { assetGrant, listing, marketplaceOrder } from './marketplace.tables'

export type OrderRow = typeof marketplaceOrder.$inferSelect
export type ListingRow = typeof listing.$inferSelect

const p = sql.placeholder

/** The purchase path's statements, prepared once per database handle: a purchase runs each of them. */
const statements = perHandle((db: Queryable) => ({
  listingById: db
    .select()
    .from(listing)
    .where(eq(listing.id, p('id')))
    .prepare(),
  paidOrderOf: db
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
  insertPendingOrder: db
    .insert(marketplaceOrder)
    .values({
      id: p('id'),
      listingId: p('listingId'),
      buyerId: p('buyerId'),
      sellerId: p('sellerId'),
      assetType: p('assetType'),
      assetId: p('assetId'),
      totalPrice: p('price'),
      platformFee: p('fee'),
      sellerIncome: p('income'),
      status: 'pending',
      createdAt: p('at'),
    })
    .prepare(),
  markPaid: db
    .update(marketplaceOrder)
    .set({ status: 'paid', completedAt: sql`${p('at')}` })
    .where(eq(marketplaceOrder.id, p('id')))
    .returning()
    .prepare(),
  insertGrant: db
    .insert(assetGrant)
    .values({
      id: p('id'),
      userId: p('userId'),
      assetType: p('assetType'),
      assetId: p('assetId'),
      orderId: p('orderId'),
      createdAt: p('at'),
    })
    .prepare(),
  countDownload: db
    .update(listing)
    .set({ downloadCount: sql`${listing.downloadCount} + 1` })
    .where(eq(listing.id, p('id')))
    .prepare(),
}))

export function findListingRow(db: Queryable, id: string): ListingRow | null {
  return statements(db).listingById.get({ id }) ?? null
}

/** The buyer's paid (not refunded) order of the listing, or null. */
export function findPaidOrderId(db: Queryable, listingId: string, buyerId: string): string | null {
  return statements(db).paidOrderOf.get({ listingId, buyerId })?.id ?? null
}

export function insertPendingOrder(
  db: Queryable,
  values: {
    id: string
    listingId: string
    buyerId: string
    sellerId: string
    assetType: string
    assetId: string
    price: number
    fee: number
    income: number
    at: string
  },
): void {
  statements(db).insertPendingOrder.run(values)
}

export function markOrderPaid(db: Queryable, id: string, at: string): OrderRow | null {
  return (statements(db).markPaid.get({ id, at }) as OrderRow | undefined) ?? null
}

export function insertGrant(
  db: Queryable,
  values: { id: string; userId: string; assetType: string; assetId: string; orderId: string; at: string },
): void {
  statements(db).insertGrant.run(values)
}

export function countDownload(db: Queryable, listingId: string): void {
  statements(db).countDownload.run({ id: listingId })
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
