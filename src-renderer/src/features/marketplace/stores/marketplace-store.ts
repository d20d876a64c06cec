import type { PageResult } from '@server/http/pagination'
import { create } from 'zustand'
import { marketplaceApi } from '../api/marketplace-api'
import type { ListingItem, ListingQuery, MyListing, Order } from '../api/marketplace-types'

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
}

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
