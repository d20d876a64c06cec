import type { PageResult } from '@server/http/pagination'
import { create } from 'zustand'
import { marketplaceApi } from '../api/marketplace-api'
import type { ListingItem, ListingQuery, Order } from '../api/marketplace-types'

const emptyPage = <T>(size = 20): PageResult<T> => ({ items: [], total: 0, page: 1, size })

interface MarketplaceState {
  query: ListingQuery
  listings: PageResult<ListingItem>
  orders: PageResult<Order>
  sales: PageResult<Order>
  search(query: Partial<ListingQuery>): Promise<void>
  loadOrders(page?: number): Promise<void>
  loadSales(page?: number): Promise<void>
  refund(orderId: string, reason: string): Promise<void>
}

export const useMarketplace = create<MarketplaceState>((set, get) => ({
  query: { page: 1, size: 12, sort_by: 'created_at', sort_order: 'desc' },
  listings: emptyPage(12),
  orders: emptyPage(),
  sales: emptyPage(),
  async search(change) {
    const query = { ...get().query, page: 1, ...change }
    set({ query, listings: await marketplaceApi.listings(query) })
  },
  async loadOrders(page = get().orders.page) {
    set({ orders: await marketplaceApi.orders('buyer', page) })
  },
  async loadSales(page = get().sales.page) {
    set({ sales: await marketplaceApi.orders('seller', page) })
  },
  async refund(orderId, reason) {
    const refunded = await marketplaceApi.refund(orderId, reason)
    set({
      orders: { ...get().orders, items: get().orders.items.map((o) => (o.id === orderId ? refunded : o)) },
    })
  },
}))
