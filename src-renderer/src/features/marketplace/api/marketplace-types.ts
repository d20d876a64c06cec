/**
 * Shapes of the marketplace API as the spec and contract (10-marketplace.md) define them.
 * Replace with the server's schema types once `src-server/marketplace` exports them.
 */
export type AssetType = 'agent' | 'knowledge_source' | 'document_agent'

export interface Listing {
  id: string
  title: string
  description: string | null
  asset_type: AssetType
  asset_id?: string
  pricing_model: 'one_time' | 'free'
  base_price: number
  rating_avg: number
  rating_count: number
  seller: { id: string; username: string; avatar_url?: string | null }
  status?: string
  tags?: string[]
  download_count?: number
  cover_image_url?: string | null
  created_at: string
  updated_at?: string
}

export interface Review {
  id: string
  listing_id: string
  rating: number
  comment: string | null
  author: { id: string; username: string }
  created_at: string
}

export interface Order {
  id: string
  listing_id: string
  total_price: number
  platform_fee: number
  seller_income: number
  status: string
  created_at: string
  completed_at: string | null
  refunded_at?: string | null
  refund_reason?: string | null
}

export interface ListingQuery {
  page: number
  keyword?: string
  asset_type?: AssetType
  pricing_model?: 'one_time' | 'free'
  sort_by?: 'price' | 'rating' | 'created_at'
  sort_order?: 'asc' | 'desc'
}
