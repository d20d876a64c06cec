import type { TransactionRow, WalletRow } from './ledger'
import type { ListingItemRow, ListingWithSeller } from './listings.repository'

export function presentWallet(row: WalletRow) {
  return {
    id: row.id,
    user_id: row.userId,
    balance: row.balance,
    frozen_balance: row.frozenBalance,
    total_earned: row.totalEarned,
    total_spent: row.totalSpent,
    updated_at: row.updatedAt,
  }
}

export function presentTransaction(row: TransactionRow) {
  return {
    id: row.id,
    type: row.type,
    amount: row.amount,
    balance_after: row.balanceAfter,
    frozen_after: row.frozenAfter,
    reference_type: row.referenceType,
    reference_id: row.referenceId,
    description: row.description,
    created_at: row.createdAt,
  }
}

export function ratingAverage(row: { ratingSum: number; ratingCount: number }): number {
  return row.ratingCount > 0 ? row.ratingSum / row.ratingCount : 0
}

export function presentListingItem(row: ListingItemRow) {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    asset_type: row.assetType,
    pricing_model: row.pricingModel,
    base_price: row.basePrice,
    rating_avg: ratingAverage(row),
    rating_count: row.ratingCount,
    seller: { id: row.sellerId, username: row.sellerUsername, avatar_url: row.sellerAvatarUrl },
    created_at: row.createdAt,
  }
}

export function presentListing(row: ListingWithSeller) {
  return {
    ...presentListingItem(row),
    cover_image_url: row.coverImageUrl,
    asset_id: row.assetId,
    status: row.status,
    status_reason: row.statusReason,
    download_count: row.downloadCount,
    tags: row.tags,
    updated_at: row.updatedAt,
  }
}
