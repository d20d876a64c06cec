import type { PageResult } from '@server/platform/http/pagination'
import { ApiError, api } from '../../../lib/api-client'
import type {
  Listing,
  ListingItem,
  ListingQuery,
  MyListing,
  NewListing,
  Order,
  PlacedOrder,
  Review,
  SellableAsset,
} from './marketplace-types'

/** A fresh Idempotency-Key per user action: a retried click cannot buy twice. */
const idempotent = () => ({ 'Idempotency-Key': crypto.randomUUID() })

/** An asset as its list answers it; `owner` is absent on kinds that have none. */
type OwnedAsset = { id: string; name: string; owner?: { id: string } | null }

/** A list the caller may not read is one they have nothing to sell from; any other failure is the load's. */
const unlessForbidden = (caught: unknown) => {
  if (caught instanceof ApiError && caught.status === 403) return { items: [] as OwnedAsset[] }
  throw caught
}
const assetsAt = (path: string) =>
  api.get<{ items: OwnedAsset[] }>(path, { query: { size: 100 } }).catch(unlessForbidden)

export const marketplaceApi = {
  /** The caller's own assets they could list: agents, knowledge sources and, for admins, document agents. */
  async sellable(userId: string, withDocumentAgents: boolean): Promise<SellableAsset[]> {
    const mine = (items: OwnedAsset[]) => items.filter((item) => !item.owner || item.owner.id === userId)
    const [agents, sources, documentAgents] = await Promise.all([
      assetsAt('/agents'),
      assetsAt('/knowledge-sources'),
      withDocumentAgents ? assetsAt('/admin/runtime-agents') : { items: [] as OwnedAsset[] },
    ])
    return [
      ...mine(agents.items).map((a) => ({ type: 'agent' as const, id: a.id, name: a.name })),
      ...mine(sources.items).map((s) => ({ type: 'knowledge_source' as const, id: s.id, name: s.name })),
      ...mine(documentAgents.items).map((d) => ({ type: 'document_agent' as const, id: d.id, name: d.name })),
    ]
  },
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
  /** Buys at the price the buyer was shown: if the listing costs otherwise now, 409 PRICE_CHANGED, nothing charged. */
  buy: (listingId: string, expectedPrice: number) =>
    api.post<PlacedOrder>(
      '/api/marketplace/orders',
      { listing_id: listingId, expected_price: expectedPrice },
      { headers: idempotent() },
    ),
  orders: (role: 'buyer' | 'seller', page: number, size = 20) =>
    api.get<PageResult<Order>>('/api/marketplace/orders', {
      query: { page, size, role: role === 'seller' ? 'seller' : undefined },
    }),
  /** Whether the caller holds a paid order of the listing. */
  async owns(listingId: string): Promise<boolean> {
    const paid = await api.get<PageResult<Order>>('/api/marketplace/orders', {
      query: { size: 1, status: 'paid', listing_id: listingId },
    })
    return paid.total > 0
  },
  refund: (orderId: string, reason: string) =>
    api.post<PlacedOrder>(`/api/marketplace/orders/${orderId}/refund`, { reason }, { headers: idempotent() }),
}
