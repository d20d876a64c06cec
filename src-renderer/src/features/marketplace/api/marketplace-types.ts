import type {
  CreateListingBody,
  ListingItemSchema,
  ListingSchema,
  ListingSearchQuery,
  OrderSchema,
  ReviewSchema,
} from '@server/marketplace/marketplace.schemas'
import type { Static } from 'typebox'

export type AssetType = 'agent' | 'knowledge_source' | 'document_agent'
export type ListingItem = Static<typeof ListingItemSchema>
export type Listing = Static<typeof ListingSchema>
export type Review = Static<typeof ReviewSchema>
export type Order = Static<typeof OrderSchema>
export type NewListing = Static<typeof CreateListingBody>
export type ListingQuery = Static<typeof ListingSearchQuery>
