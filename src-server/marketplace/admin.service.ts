import { and, count, eq, inArray, ne, sql, sum } from 'drizzle-orm'
import { recordAdminAction } from '../admin-audit/admin-audit.service'
import { user } from '../auth/auth.tables'
import type { Queryable } from '../db/client'
import type { PageQuery } from '../http/common.schemas'
import { pageWindow, toPage } from '../http/pagination'
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
      before: { status: before.status, reason: before.statusReason },
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
