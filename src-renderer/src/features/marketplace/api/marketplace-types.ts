import type {
  CreateListingBody,
  ListingItemSchema,
  ListingSchema,
  ListingSearchQuery,
  OrderListItemSchema,
  OrderSchema,
  ReviewSchema,
} from '@server/marketplace/marketplace.schemas'
import type { Static } from 'typebox'

export type AssetType = 'agent' | 'knowledge_source' | 'document_agent'
/** One of the caller's own assets, which they may list. */
export interface SellableAsset {
  type: AssetType
  id: string
  name: string
}
export type ListingItem = Static<typeof ListingItemSchema>
export type Listing = Static<typeof ListingSchema>
export type Review = Static<typeof ReviewSchema>
/** An order as the lists carry it (with the listing's title and the other party); a purchase answers `PlacedOrder`. */
export type Order = Static<typeof OrderListItemSchema>
export type PlacedOrder = Static<typeof OrderSchema>
/** One of the seller's own listings, in any status. */
export type MyListing = Static<typeof ListingSchema>
export type NewListing = Static<typeof CreateListingBody>
export type ListingQuery = Static<typeof ListingSearchQuery>
