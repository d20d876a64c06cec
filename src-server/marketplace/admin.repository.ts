import { and, count, eq, gte, inArray, ne, sql, sum } from 'drizzle-orm'
import { user } from '../auth'
import { type EngineDb, engineTables } from '../platform/db'
import { listing, marketplaceOrder, wallet, walletTransaction } from './marketplace.tables'

const tables = engineTables({ user, listing, marketplaceOrder, wallet, walletTransaction })

/** The platform account's commission entries, net of the reversals refunds make. */
function platformCommission(db: EngineDb, platformUserId: string) {
  const { wallet, walletTransaction } = tables(db)
  return and(
    eq(wallet.userId, platformUserId),
    inArray(walletTransaction.type, ['commission', 'refund_reversal']),
  )
}

/** Listings not unlisted, orders paid or refunded, people (not the platform account), volume and commission. */
export async function platformTotals(db: EngineDb, platformUserId: string) {
  const { user, listing, marketplaceOrder: order, wallet, walletTransaction: entry } = tables(db)
  const [listings] = await db.select({ n: count() }).from(listing).where(ne(listing.status, 'unlisted'))
  const [orders] = await db
    .select({ n: count() })
    .from(order)
    .where(inArray(order.status, ['paid', 'refunded']))
  const [users] = await db.select({ n: count() }).from(user).where(eq(user.isSystem, false))
  const [volume] = await db
    .select({ total: sum(order.totalPrice) })
    .from(order)
    .where(eq(order.status, 'paid'))
  const [commission] = await db
    .select({ total: sql<number>`coalesce(sum(${entry.amount}), 0)` })
    .from(entry)
    .innerJoin(wallet, eq(wallet.id, entry.walletId))
    .where(platformCommission(db, platformUserId))
  return {
    listings: listings?.n ?? 0,
    orders: orders?.n ?? 0,
    users: users?.n ?? 0,
    volume: Number(volume?.total ?? 0),
    commission: Number(commission?.total ?? 0),
  }
}

/** Per UTC day since `since` (a date): orders paid or refunded and the volume still paid, by the order's day. */
export function dailyOrders(db: EngineDb, since: string) {
  const { marketplaceOrder: order } = tables(db)
  const orderDay = sql<string>`substr(${order.createdAt}, 1, 10)`
  return db
    .select({
      date: orderDay,
      orders: count(),
      volume: sql<number>`coalesce(sum(case when ${order.status} = 'paid' then ${order.totalPrice} end), 0)`,
    })
    .from(order)
    .where(and(inArray(order.status, ['paid', 'refunded']), gte(order.createdAt, since)))
    .groupBy(orderDay)
}

/** Per UTC day since `since` (a date): the platform's net commission, by the transaction's day. */
export function dailyCommission(db: EngineDb, platformUserId: string, since: string) {
  const { wallet, walletTransaction: entry } = tables(db)
  const transactionDay = sql<string>`substr(${entry.createdAt}, 1, 10)`
  return db
    .select({ date: transactionDay, amount: sql<number>`sum(${entry.amount})` })
    .from(entry)
    .innerJoin(wallet, eq(wallet.id, entry.walletId))
    .where(and(platformCommission(db, platformUserId), gte(entry.createdAt, since)))
    .groupBy(transactionDay)
}
