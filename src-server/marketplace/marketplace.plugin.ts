import type { FastifyPluginAsync } from 'fastify'
import type { AppContext } from '../platform/app-context'
import { createAdminService } from './admin.service'
import { purgeExpiredKeys } from './idempotency'
import { createLedger } from './ledger'
import { type AssetOwners, createListingService } from './listings.service'
import { type MarketplaceServices, marketplaceRoutes } from './marketplace.routes'
import { createOrderService } from './orders.service'
import { createReviewService } from './reviews.service'
import { createWalletService } from './wallet.service'

export interface MarketplaceOptions {
  ctx: AppContext
  /** Owner lookups per asset type, from the domains that own the assets (wired in app.ts). */
  assetOwners: AssetOwners
}

/** Holds are also released lazily on every wallet read or write; the sweep covers wallets nobody touches. */
const SWEEP_INTERVAL_MS = 10 * 60_000

export function createMarketplaceServices(ctx: AppContext, assetOwners: AssetOwners) {
  const { database } = ctx
  const ledger = createLedger(database)
  const platformUserId = () => ctx.auth.platformUserId()
  const services: MarketplaceServices = {
    listings: createListingService(database, assetOwners),
    orders: createOrderService(database, ledger, platformUserId),
    wallet: createWalletService(database, ledger),
    reviews: createReviewService(database),
    admin: createAdminService(database, platformUserId),
  }
  return { ledger, services }
}

export const marketplace: FastifyPluginAsync<MarketplaceOptions> = async (app, { ctx, assetOwners }) => {
  const { ledger, services } = createMarketplaceServices(ctx, assetOwners)
  await app.register(marketplaceRoutes, { ctx, services })

  const sweep = setInterval(async () => {
    try {
      const at = new Date()
      await ledger.releaseDueHolds(at)
      await purgeExpiredKeys(ctx.database, at)
    } catch (error) {
      ctx.log.error({ err: error }, 'marketplace sweep failed')
    }
  }, SWEEP_INTERVAL_MS)
  sweep.unref()
  app.addHook('onClose', async () => clearInterval(sweep))
}
