import type { PageResult } from '@server/http/pagination'
import { api } from '../../../lib/api-client'
import type {
  Listing,
  ListingItem,
  ListingQuery,
  MyListing,
  NewListing,
  Order,
  PlacedOrder,
  Review,
} from './marketplace-types'

/** A fresh Idempotency-Key per user action: a retried click cannot buy twice. */
const idempotent = () => ({ 'Idempotency-Key': crypto.randomUUID() })

export const marketplaceApi = {
  listings: (query: ListingQuery) => api.get<PageResult<ListingItem>>('/api/marketplace/listings', { query }),
  listing: (id: string) => api.get<Listing>(`/api/marketplace/listings/${id}`),
  createListing: (body: NewListing) => api.post<Listing>('/api/marketplace/listings', body),
  deleteListing: (id: string) => api.delete<void>(`/api/marketplace/listings/${id}`),
  reviews: (id: string, page: number) =>
    api.get<PageResult<Review>>(`/api/marketplace/listings/${id}/reviews`, { query: { page, size: 10 } }),
  review: (id: string, rating: number, comment: string) =>
    api.post<Review>(`/api/marketplace/listings/${id}/reviews`, { rating, comment }),
  myListings: (page: number) =>
    api.get<PageResult<MyListing>>('/api/marketplace/my-listings', { query: { page, size: 20 } }),
  buy: (listingId: string) =>
    api.post<PlacedOrder>('/api/marketplace/orders', { listing_id: listingId }, { headers: idempotent() }),
  orders: (role: 'buyer' | 'seller', page: number, size = 20) =>
    api.get<PageResult<Order>>('/api/marketplace/orders', {
      query: { page, size, role: role === 'seller' ? 'seller' : undefined },
    }),
  refund: (orderId: string, reason: string) =>
    api.post<PlacedOrder>(`/api/marketplace/orders/${orderId}/refund`, { reason }, { headers: idempotent() }),
}
