import { recordAdminAction } from '../admin-audit'
import type { Database } from '../platform/db'
import { type PageQuery, pageWindow, toPage } from '../platform/http'
import * as stats from './admin.repository'
import * as repo from './listings.repository'
import { MarketplaceErrors } from './marketplace.errors'
import { presentListing } from './marketplace.presenters'
import type { ListingStatus } from './marketplace.tables'

export const MODERATION_STATUSES = ['published', 'rejected', 'suspended'] as const satisfies ListingStatus[]
export type ModerationStatus = (typeof MODERATION_STATUSES)[number]

/** Moderation and the platform's figures, for admins. */
export function createAdminService(database: Database, platformUserId: () => string) {
  return {
    async listForModeration(query: PageQuery & { status?: ListingStatus | undefined }) {
      const { rows, total } = await repo.searchListings(database.reader, {
        status: query.status,
        sortOrder: 'asc',
        ...pageWindow(query),
      })
      return toPage(rows.map(presentListing), total, query)
    },

    setStatus(
      actorId: string,
      listingId: string,
      input: { status: ModerationStatus; reason?: string | undefined },
    ) {
      return database.transact(async (tx) => {
        const before = await repo.findListing(tx, listingId)
        if (!before) throw MarketplaceErrors.LISTING_NOT_FOUND({ listing_id: listingId })
        await repo.updateListing(tx, listingId, { status: input.status, statusReason: input.reason ?? null })
        await recordAdminAction(tx, {
          actorId,
          action: 'listing.status',
          targetType: 'listing',
          targetId: listingId,
          before: { title: before.title, status: before.status, reason: before.statusReason },
          after: { status: input.status, reason: input.reason ?? null },
          reason: input.reason,
        })
        const after = await repo.findListing(tx, listingId)
        if (!after) throw new Error('listing vanished inside its transaction')
        return presentListing(after)
      })
    },

    /** Platform figures as the contract defines each one. */
    async stats() {
      const totals = await stats.platformTotals(database.reader, platformUserId())
      return {
        total_listings: totals.listings,
        total_orders: totals.orders,
        total_users: totals.users,
        total_transaction_volume: totals.volume,
        platform_commission_total: totals.commission,
      }
    },

    /**
     * The platform figures per UTC day over the last `days` days (today included, days without activity as zeros),
     * each counted as its total is: orders paid or refunded, volume of orders still paid, and the platform's
     * commission net of refunds, by the day the order or the transaction was made.
     */
    async dailyStats(days: number) {
      const now = Date.now()
      const dates = Array.from({ length: days }, (_, i) =>
        new Date(now - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10),
      )
      const since = dates[0] as string
      const ordersOn = new Map(
        (await stats.dailyOrders(database.reader, since)).map((row) => [row.date, row]),
      )
      const commissionOn = new Map(
        (await stats.dailyCommission(database.reader, platformUserId(), since)).map((row) => [
          row.date,
          Number(row.amount),
        ]),
      )
      return {
        days: dates.map((date) => ({
          date,
          orders: ordersOn.get(date)?.orders ?? 0,
          volume: Number(ordersOn.get(date)?.volume ?? 0),
          commission: commissionOn.get(date) ?? 0,
        })),
      }
    },
  }
}

export type AdminService = ReturnType<typeof createAdminService>
