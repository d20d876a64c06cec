import type { PageResult } from '@server/platform/http/pagination'
import { create } from 'zustand'
import { latestAnswers } from '../../../lib/latest-answer'
import { forgetOnSignOut } from '../../../stores/session-store'
import { marketplaceApi } from '../api/marketplace-api'
import type {
  Listing,
  ListingItem,
  ListingQuery,
  MyListing,
  Order,
  Review,
  SellableAsset,
} from '../api/marketplace-types'

const emptyPage = <T>(size = 20): PageResult<T> => ({ items: [], total: 0, page: 1, size })

/** Screens call the `fetch*` actions through `useLoad`, which shows their loading and failure states. */
interface MarketplaceState {
  query: ListingQuery
  listings: PageResult<ListingItem>
  orders: PageResult<Order>
  sales: PageResult<Order>
  mine: PageResult<MyListing>
  /** Changes the search; the browser refetches when the query changes. */
  setQuery(change: Partial<ListingQuery>): void
  fetchListings(): Promise<void>
  fetchOrders(side: 'buyer' | 'seller', page: number): Promise<void>
  fetchMine(page: number): Promise<void>
  refund(orderId: string, reason: string): Promise<void>
  /** The listing open on the detail page, its page of reviews, and whether the caller owns it. */
  listing: Listing | null
  reviews: PageResult<Review>
  /** Known only once read for this listing: until then nobody is offered to buy it. */
  ownership: { listingId: string; owned: boolean } | null
  fetchListing(id: string): Promise<void>
  fetchReviews(listingId: string, page: number): Promise<void>
  fetchOwnership(listingId: string): Promise<void>
  /** Buys at the price the buyer was shown (PRICE_CHANGED when it is not the price any more). */
  buy(listingId: string, expectedPrice: number): Promise<void>
  /** What the seller may list, for the Sell form. */
  sellable: SellableAsset[]
  fetchSellable(userId: string, withDocumentAgents: boolean): Promise<void>
}

/** Moving to another listing (or another page of reviews) drops the answers for the one left. */
const current = latestAnswers<'listing' | 'reviews' | 'ownership'>()

export const useMarketplace = create<MarketplaceState>((set, get) => ({
  query: { page: 1, size: 12, sort_by: 'created_at', sort_order: 'desc' },
  listings: emptyPage(12),
  orders: emptyPage(),
  sales: emptyPage(),
  mine: emptyPage(),
  setQuery(change) {
    set({ query: { ...get().query, page: 1, ...change } })
  },
  async fetchListings() {
    set({ listings: await marketplaceApi.listings(get().query) })
  },
  async fetchOrders(side, page) {
    const result = await marketplaceApi.orders(side, page)
    set(side === 'buyer' ? { orders: result } : { sales: result })
  },
  async fetchMine(page) {
    set({ mine: await marketplaceApi.myListings(page) })
  },
  listing: null,
  reviews: emptyPage(10),
  ownership: null,
  async fetchListing(id) {
    await current(
      'listing',
      () => marketplaceApi.listing(id),
      (listing) => set({ listing }),
    )
  },
  async fetchReviews(listingId, page) {
    await current(
      'reviews',
      () => marketplaceApi.reviews(listingId, page),
      (reviews) => set({ reviews }),
    )
  },
  async fetchOwnership(listingId) {
    set({ ownership: null })
    await current(
      'ownership',
      () => marketplaceApi.owns(listingId),
      (owned) => set({ ownership: { listingId, owned } }),
    )
  },
  async buy(listingId, expectedPrice) {
    await marketplaceApi.buy(listingId, expectedPrice)
    set({ ownership: { listingId, owned: true } })
  },
  sellable: [],
  async fetchSellable(userId, withDocumentAgents) {
    set({ sellable: await marketplaceApi.sellable(userId, withDocumentAgents) })
  },
  async refund(orderId, reason) {
    const refunded = await marketplaceApi.refund(orderId, reason)
    set({
      orders: {
        ...get().orders,
        items: get().orders.items.map((o) => (o.id === orderId ? { ...o, ...refunded } : o)),
      },
    })
  },
}))

forgetOnSignOut(useMarketplace)
