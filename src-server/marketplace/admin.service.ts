import { and, count, eq, gte, inArray, ne, sql, sum } from 'drizzle-orm'
import { recordAdminAction } from '../admin-audit'
import { user } from '../auth'
import type { Queryable } from '../db'
import { type PageQuery, pageWindow, toPage } from '../http'
import * as repo from './listings.repository'
import { MarketplaceErrors } from './marketplace.errors'
import {
  type ListingStatus,
  listing,
  marketplaceOrder,
  wallet,
  walletTransaction,
} from './marketplace.tables'
import { presentListing } from './presenters'

export const MODERATION_STATUSES = ['published', 'rejected', 'suspended'] as const satisfies ListingStatus[]
export type ModerationStatus = (typeof MODERATION_STATUSES)[number]

export function listListingsForModeration(
  db: Queryable,
  query: PageQuery & { status?: ListingStatus | undefined },
) {
  const { rows, total } = repo.searchListings(db, {
    status: query.status,
    sortOrder: 'asc',
    ...pageWindow(query),
  })
  return toPage(rows.map(presentListing), total, query)
}

export function setListingStatus(
  db: Queryable,
  actorId: string,
  listingId: string,
  input: { status: ModerationStatus; reason?: string | undefined },
) {
  return db.transaction((tx) => {
    const before = repo.findListing(tx, listingId)
    if (!before) throw MarketplaceErrors.LISTING_NOT_FOUND({ listing_id: listingId })
    repo.updateListing(tx, listingId, { status: input.status, statusReason: input.reason ?? null })
    recordAdminAction(tx, {
      actorId,
      action: 'listing.status',
      targetType: 'listing',
      targetId: listingId,
      before: { title: before.title, status: before.status, reason: before.statusReason },
      after: { status: input.status, reason: input.reason ?? null },
    })
    const after = repo.findListing(tx, listingId)
    if (!after) throw new Error('listing vanished inside its transaction')
    return presentListing(after)
  })
}

/** Platform figures as the contract defines each one. */
export function platformStats(db: Queryable, platformUserId: string) {
  const totalListings =
    db.select({ n: count() }).from(listing).where(ne(listing.status, 'unlisted')).get()?.n ?? 0
  const totalOrders =
    db
      .select({ n: count() })
      .from(marketplaceOrder)
      .where(inArray(marketplaceOrder.status, ['paid', 'refunded']))
      .get()?.n ?? 0
  const totalUsers = db.select({ n: count() }).from(user).where(eq(user.isSystem, false)).get()?.n ?? 0
  const volume = db
    .select({ total: sum(marketplaceOrder.totalPrice) })
    .from(marketplaceOrder)
    .where(eq(marketplaceOrder.status, 'paid'))
    .get()
  const commission = db
    .select({ total: sql<number>`coalesce(sum(${walletTransaction.amount}), 0)` })
    .from(walletTransaction)
    .innerJoin(wallet, eq(wallet.id, walletTransaction.walletId))
    .where(
      and(
        eq(wallet.userId, platformUserId),
        inArray(walletTransaction.type, ['commission', 'refund_reversal']),
      ),
    )
    .get()
  return {
    total_listings: totalListings,
    total_orders: totalOrders,
    total_users: totalUsers,
    total_transaction_volume: Number(volume?.total ?? 0),
    platform_commission_total: Number(commission?.total ?? 0),
  }
}

/**
 * The platform figures per UTC day over the last `days` days (today included, days without activity as zeros),
 * each counted as its total is: orders paid or refunded, volume of orders still paid, and the platform's
 * commission net of refunds, by the day the order or the transaction was made.
 */
export function dailyPlatformStats(db: Queryable, platformUserId: string, days: number) {
  const now = Date.now()
  const dates = Array.from({ length: days }, (_, i) =>
    new Date(now - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10),
  )
  const since = dates[0] as string
  const orderDay = sql<string>`substr(${marketplaceOrder.createdAt}, 1, 10)`
  const orders = db
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
  const transactionDay = sql<string>`substr(${walletTransaction.createdAt}, 1, 10)`
  const commission = db
    .select({ date: transactionDay, amount: sql<number>`sum(${walletTransaction.amount})` })
    .from(walletTransaction)
    .innerJoin(wallet, eq(wallet.id, walletTransaction.walletId))
    .where(
      and(
        eq(wallet.userId, platformUserId),
        inArray(walletTransaction.type, ['commission', 'refund_reversal']),
        gte(walletTransaction.createdAt, since),
      ),
    )
    .groupBy(transactionDay)
    .all()
  const ordersOn = new Map(orders.map((row) => [row.date, row]))
  const commissionOn = new Map(commission.map((row) => [row.date, Number(row.amount)]))
  return {
    days: dates.map((date) => ({
      date,
      orders: ordersOn.get(date)?.orders ?? 0,
      volume: Number(ordersOn.get(date)?.volume ?? 0),
      commission: commissionOn.get(date) ?? 0,
    })),
  }
}
