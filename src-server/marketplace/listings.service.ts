import { requireAccess } from '../access'
import type { AuthUser } from '../auth'
import type { Database, EngineDb } from '../platform/db'
import { CommonErrors } from '../platform/errors'
import { type PageQuery, pageWindow, toPage } from '../platform/http'
import * as repo from './listings.repository'
import { MarketplaceErrors } from './marketplace.errors'
import { presentListing, presentListingItem } from './marketplace.presenters'
import {
  ASSET_TYPES,
  type AssetType,
  type ListingStatus,
  PRICING_MODELS,
  type PricingModel,
} from './marketplace.tables'

/**
 * Who owns an asset of each type, read where the owning domain keeps it; a type without a lookup has no assets
 * that can be listed yet.
 */
export type AssetOwners = Partial<
  Record<AssetType, (assetId: string) => Promise<string | null> | string | null>
>

export type Viewer = Pick<AuthUser, 'id' | 'permissions'>

export interface ListingInput {
  asset_type: string
  asset_id: string
  title: string
  description?: string | undefined
  cover_image_url?: string | null | undefined
  pricing_model: string
  base_price: number
  tags?: string[] | undefined
}

function isAssetType(value: string): value is AssetType {
  return (ASSET_TYPES as readonly string[]).includes(value)
}

function isPricingModel(value: string): value is PricingModel {
  return (PRICING_MODELS as readonly string[]).includes(value)
}

function checkAssetType(value: string): AssetType {
  if (!isAssetType(value))
    throw MarketplaceErrors.INVALID_ASSET_TYPE({ asset_type: value, allowed: ASSET_TYPES })
  return value
}

function checkPricingModel(value: string): PricingModel {
  if (!isPricingModel(value))
    throw MarketplaceErrors.INVALID_PRICING_MODEL({ pricing_model: value, allowed: PRICING_MODELS })
  return value
}

function checkPrice(pricingModel: PricingModel, price: number): void {
  if (pricingModel === 'free' && price !== 0)
    throw MarketplaceErrors.INVALID_PRICE({ pricing_model: pricingModel, base_price: price, expected: 0 })
  if (pricingModel === 'one_time' && price <= 0)
    throw MarketplaceErrors.INVALID_PRICE({ pricing_model: pricingModel, base_price: price, expected: '> 0' })
}

/**
 * Published listings are public; a listing in any other state only its seller and admins see: anyone else is
 * told it does not exist.
 */
export function requireVisible<Row extends Pick<repo.ListingRow, 'status' | 'sellerId'>>(
  listingId: string,
  row: Row | null,
  viewer: Viewer,
): asserts row is Row {
  const denied = () => MarketplaceErrors.LISTING_NOT_FOUND({ listing_id: listingId })
  if (!row) throw denied()
  if (row.status !== 'published')
    requireAccess(viewer, 'listing.read_unpublished', { ownerId: row.sellerId, denied })
}

export async function findVisibleListing(
  db: EngineDb,
  id: string,
  viewer: Viewer,
): Promise<repo.ListingWithSeller> {
  const row = await repo.findListing(db, id)
  requireVisible(id, row, viewer)
  return row
}

export function createListingService(database: Database, assetOwners: AssetOwners) {
  async function checkOwnership(assetType: AssetType, assetId: string, sellerId: string): Promise<void> {
    const owner = (await assetOwners[assetType]?.(assetId)) ?? null
    if (owner !== sellerId)
      throw MarketplaceErrors.ASSET_NOT_FOUND({ asset_type: assetType, asset_id: assetId })
  }

  async function detail(id: string) {
    const row = await repo.findListing(database.reader, id)
    if (!row) throw MarketplaceErrors.LISTING_NOT_FOUND({ listing_id: id })
    return presentListing(row)
  }

  return {
    async search(
      query: PageQuery & {
        asset_type?: string | undefined
        pricing_model?: string | undefined
        keyword?: string | undefined
        sort_by?: 'price' | 'rating' | 'created_at' | undefined
        sort_order?: 'asc' | 'desc' | undefined
      },
    ) {
      if (query.asset_type !== undefined) checkAssetType(query.asset_type)
      if (query.pricing_model !== undefined) checkPricingModel(query.pricing_model)
      const { rows, total } = await repo.searchListingItems(database.reader, {
        status: 'published',
        assetType: query.asset_type,
        pricingModel: query.pricing_model,
        keyword: query.keyword,
        sortBy: query.sort_by,
        sortOrder: query.sort_order,
        ...pageWindow(query),
      })
      return toPage(rows.map(presentListingItem), total, query)
    },

    /** The seller's own listings in every status, newest first, with each moderation reason. */
    async mine(seller: Viewer, query: PageQuery) {
      const { rows, total } = await repo.searchListings(database.reader, {
        sellerId: seller.id,
        ...pageWindow(query),
      })
      return toPage(rows.map(presentListing), total, query)
    },

    async get(id: string, viewer: Viewer) {
      return presentListing(await findVisibleListing(database.reader, id, viewer))
    },

    async create(seller: Viewer, input: ListingInput) {
      const assetType = checkAssetType(input.asset_type)
      const pricingModel = checkPricingModel(input.pricing_model)
      checkPrice(pricingModel, input.base_price)
      await checkOwnership(assetType, input.asset_id, seller.id)
      const id = await database.transact((tx) =>
        repo.insertListing(tx, {
          sellerId: seller.id,
          assetType,
          assetId: input.asset_id,
          title: input.title,
          description: input.description ?? '',
          coverImageUrl: input.cover_image_url ?? null,
          pricingModel,
          basePrice: input.base_price,
          tags: input.tags ?? [],
          status: 'pending_review',
        }),
      )
      return detail(id)
    },

    async update(id: string, seller: Viewer, input: Partial<ListingInput>) {
      const row = await findVisibleListing(database.reader, id, seller)
      if (row.sellerId !== seller.id) throw CommonErrors.FORBIDDEN({ listing_id: id })
      const assetType = input.asset_type !== undefined ? checkAssetType(input.asset_type) : row.assetType
      const pricingModel =
        input.pricing_model !== undefined ? checkPricingModel(input.pricing_model) : row.pricingModel
      const basePrice = input.base_price ?? row.basePrice
      checkPrice(pricingModel, basePrice)
      const assetId = input.asset_id ?? row.assetId
      if (assetType !== row.assetType || assetId !== row.assetId)
        await checkOwnership(assetType, assetId, seller.id)
      // What a buyer pays and gets was approved by an admin: a published listing whose price, pricing model or
      // asset changes goes back to review (and out of the market) until an admin publishes it again. A rejected
      // listing goes back to review when its seller fixes it. Other states are the admin's to change.
      const termsChanged =
        pricingModel !== row.pricingModel ||
        basePrice !== row.basePrice ||
        assetType !== row.assetType ||
        assetId !== row.assetId
      const backToReview = row.status === 'rejected' || (row.status === 'published' && termsChanged)
      const status: ListingStatus = backToReview ? 'pending_review' : row.status
      await database.transact((tx) =>
        repo.updateListing(tx, id, {
          assetType,
          assetId,
          pricingModel,
          basePrice,
          status,
          ...(backToReview &&
            row.status === 'published' && { statusReason: 'Price, pricing model or asset changed' }),
          ...(input.title !== undefined && { title: input.title }),
          ...(input.description !== undefined && { description: input.description }),
          ...(input.cover_image_url !== undefined && { coverImageUrl: input.cover_image_url }),
          ...(input.tags !== undefined && { tags: input.tags }),
        }),
      )
      return detail(id)
    },

    /** Removes a listing nobody bought; one with orders is only unlisted, so orders keep their listing. */
    async remove(id: string, seller: Viewer): Promise<void> {
      await database.transact(async (tx) => {
        const row = await findVisibleListing(tx, id, seller)
        if (row.sellerId !== seller.id) throw CommonErrors.FORBIDDEN({ listing_id: id })
        if (await repo.listingHasOrders(tx, id)) await repo.updateListing(tx, id, { status: 'unlisted' })
        else await repo.deleteListing(tx, id)
      })
    },
  }
}

export type ListingService = ReturnType<typeof createListingService>
