import { and, count, eq, gte, inArray, ne, sql, sum } from 'drizzle-orm'
import { user } from '../auth'
import type { Queryable } from '../platform/db'
import { listing, marketplaceOrder, wallet, walletTransaction } from './marketplace.tables'

/** The platform account's commission entries, net of the reversals refunds make. */
const platformCommission = (platformUserId: string) =>
  and(eq(wallet.userId, platformUserId), inArray(walletTransaction.type, ['commission', 'refund_reversal']))

/** Listings not unlisted, orders paid or refunded, people (not the platform account), volume and commission. */
export function platformTotals(db: Queryable, platformUserId: string) {
  const listings = db.select({ n: count() }).from(listing).where(ne(listing.status, 'unlisted')).get()?.n ?? 0
  const orders =
    db
      .select({ n: count() })
      .from(marketplaceOrder)
      .where(inArray(marketplaceOrder.status, ['paid', 'refunded']))
      .get()?.n ?? 0
  const users = db.select({ n: count() }).from(user).where(eq(user.isSystem, false)).get()?.n ?? 0
  const volume = db
    .select({ total: sum(marketplaceOrder.totalPrice) })
    .from(marketplaceOrder)
    .where(eq(marketplaceOrder.status, 'paid'))
    .get()
  const commission = db
    .select({ total: sql<number>`coalesce(sum(${walletTransaction.amount}), 0)` })
    .from(walletTransaction)
    .innerJoin(wallet, eq(wallet.id, walletTransaction.walletId))
    .where(platformCommission(platformUserId))
    .get()
  return {
    listings,
    orders,
    users,
    volume: Number(volume?.total ?? 0),
    commission: Number(commission?.total ?? 0),
  }
}

/** Per UTC day since `since` (a date): orders paid or refunded and the volume still paid, by the order's day. */
export function dailyOrders(db: Queryable, since: string) {
  const orderDay = sql<string>`substr(${marketplaceOrder.createdAt}, 1, 10)`
  return db
    .select({
      date: orderDay,
      orders: count(),
      volume: sql<number>`coalesce(sum(case when ${marketplaceOrder.status} = 'paid' then ${marketplaceOrder.totalPrice} end), 0)`,
    })
    .from(marketplaceOrder)
    .where(
      and(inArray(marketplaceOrder.status, ['paid', 'refunded']), gte(marketplaceOrder.createdAt, since)),
    )
    .groupBy(orderDay)
    .all()
}

/** Per UTC day since `since` (a date): the platform's net commission, by the transaction's day. */
export function dailyCommission(db: Queryable, platformUserId: string, since: string) {
  const transactionDay = sql<string>`substr(${walletTransaction.createdAt}, 1, 10)`
  return db
    .select({ date: transactionDay, amount: sql<number>`sum(${walletTransaction.amount})` })
    .from(walletTransaction)
    .innerJoin(wallet, eq(wallet.id, walletTransaction.walletId))
    .where(and(platformCommission(platformUserId), gte(walletTransaction.createdAt, since)))
    .groupBy(transactionDay)
    .all()
}
