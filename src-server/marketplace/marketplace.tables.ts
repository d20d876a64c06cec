import { sql } from 'drizzle-orm'
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { user } from '../auth'
import { createdAt, idColumn, jsonText, oneOf, oneOfInline, updatedAt } from '../platform/db'

export const ASSET_TYPES = ['agent', 'knowledge_source', 'document_agent'] as const
export type AssetType = (typeof ASSET_TYPES)[number]

export const PRICING_MODELS = ['one_time', 'free'] as const
export type PricingModel = (typeof PRICING_MODELS)[number]

export const LISTING_STATUSES = ['pending_review', 'published', 'rejected', 'suspended', 'unlisted'] as const
export type ListingStatus = (typeof LISTING_STATUSES)[number]

export const ORDER_STATUSES = ['pending', 'paid', 'refunded'] as const
export type OrderStatus = (typeof ORDER_STATUSES)[number]

export const TRANSACTION_TYPES = [
  'topup',
  'spend',
  'income',
  'commission',
  'refund',
  'refund_reversal',
  'withdraw',
  'transfer_out',
  'transfer_in',
  'hold',
  'release',
] as const
export type TransactionType = (typeof TRANSACTION_TYPES)[number]

export const REFERENCE_TYPES = ['order', 'transfer', 'withdrawal', 'topup', 'earn_cap'] as const
export type ReferenceType = (typeof REFERENCE_TYPES)[number]

/** A seller's offer of one asset. Ratings are kept as an exact sum and count; the average is derived. */
export const listing = sqliteTable(
  'listing',
  {
    id: idColumn(),
    /** Stable integer key of the listing in the full-text index (the FTS5 rowid); assigned on insert. */
    searchId: integer('search_id').notNull(),
    sellerId: text('seller_id')
      .notNull()
      .references(() => user.id),
    assetType: text('asset_type').$type<AssetType>().notNull(),
    assetId: text('asset_id').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    coverImageUrl: text('cover_image_url'),
    pricingModel: text('pricing_model').$type<PricingModel>().notNull(),
    basePrice: integer('base_price').notNull(),
    tags: jsonText<string[]>('tags_json').notNull(),
    status: text('status').$type<ListingStatus>().notNull().default('pending_review'),
    statusReason: text('status_reason'),
    ratingSum: integer('rating_sum').notNull().default(0),
    ratingCount: integer('rating_count').notNull().default(0),
    downloadCount: integer('download_count').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('listing_by_search_id_idx').on(t.searchId),
    index('listing_by_status_created_idx').on(t.status, t.createdAt),
    index('listing_by_seller_idx').on(t.sellerId, t.createdAt),
    oneOf('listing_asset_type_check', t.assetType, ASSET_TYPES),
    oneOf('listing_pricing_model_check', t.pricingModel, PRICING_MODELS),
    oneOf('listing_status_check', t.status, LISTING_STATUSES),
    check('listing_base_price_check', sql`${t.basePrice} >= 0`),
  ],
)

/**
 * How many listings there are of each status, asset type and pricing model, kept by triggers on `listing`
 * (migration 0008), so a page of listings without a keyword or a seller gets its total without counting the
 * listings: that count read every listing of the status, a few milliseconds a page at 100,000 listings.
 */
export const listingCount = sqliteTable(
  'listing_count',
  {
    status: text('status').$type<ListingStatus>().notNull(),
    assetType: text('asset_type').$type<AssetType>().notNull(),
    pricingModel: text('pricing_model').$type<PricingModel>().notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.status, t.assetType, t.pricingModel] })],
)

export const review = sqliteTable(
  'review',
  {
    id: idColumn(),
    listingId: text('listing_id')
      .notNull()
      .references(() => listing.id),
    authorId: text('author_id')
      .notNull()
      .references(() => user.id),
    rating: integer('rating').notNull(),
    comment: text('comment').notNull().default(''),
    /** 0 once the author's order is refunded: the review stays readable but leaves the listing's rating. */
    counted: integer('counted', { mode: 'boolean' }).notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('review_one_per_author_idx').on(t.listingId, t.authorId),
    index('review_by_listing_idx').on(t.listingId, t.createdAt),
    check('review_rating_check', sql`${t.rating} BETWEEN 1 AND 5`),
  ],
)

/** A purchase. The listing's asset is copied so the grant and the refund never depend on later edits. */
export const marketplaceOrder = sqliteTable(
  'marketplace_order',
  {
    id: idColumn(),
    listingId: text('listing_id')
      .notNull()
      .references(() => listing.id),
    buyerId: text('buyer_id')
      .notNull()
      .references(() => user.id),
    sellerId: text('seller_id')
      .notNull()
      .references(() => user.id),
    assetType: text('asset_type').$type<AssetType>().notNull(),
    assetId: text('asset_id').notNull(),
    totalPrice: integer('total_price').notNull(),
    platformFee: integer('platform_fee').notNull(),
    sellerIncome: integer('seller_income').notNull(),
    status: text('status').$type<OrderStatus>().notNull().default('pending'),
    createdAt: createdAt(),
    completedAt: text('completed_at'),
    /**
     * The end of the order's refund window, fixed when it is paid (the window in force then); the seller's income
     * is held in its wallet until the UTC day this falls on is over. Null on orders made before income was held:
     * their window is the current setting and their income was credited at once.
     */
    refundableUntil: text('refundable_until'),
    refundedAt: text('refunded_at'),
    refundReason: text('refund_reason'),
  },
  (t) => [
    index('marketplace_order_by_buyer_idx').on(t.buyerId, t.createdAt),
    index('marketplace_order_by_seller_idx').on(t.sellerId, t.createdAt),
    // Without the status: marking an order paid or refunded then rewrites no index entry (migration 0007).
    index('marketplace_order_by_listing_buyer_idx').on(t.listingId, t.buyerId),
    oneOfInline('marketplace_order_status_check', t.status, ORDER_STATUSES),
    check(
      'marketplace_order_amounts_check',
      sql`${t.totalPrice} >= 0 AND ${t.platformFee} >= 0 AND ${t.sellerIncome} >= 0 AND ${t.platformFee} + ${t.sellerIncome} = ${t.totalPrice}`,
    ),
  ],
)

/** Access to an asset bought through an order; a refund revokes it (a new state, the row stays). */
export const assetGrant = sqliteTable(
  'asset_grant',
  {
    id: idColumn(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id),
    assetType: text('asset_type').$type<AssetType>().notNull(),
    assetId: text('asset_id').notNull(),
    orderId: text('order_id')
      .notNull()
      .references(() => marketplaceOrder.id),
    createdAt: createdAt(),
    revokedAt: text('revoked_at'),
  },
  (t) => [
    uniqueIndex('asset_grant_by_order_idx').on(t.orderId),
    index('asset_grant_by_user_asset_idx').on(t.userId, t.assetType, t.assetId),
    oneOfInline('asset_grant_asset_type_check', t.assetType, ASSET_TYPES),
  ],
)

/**
 * Held points by the UTC day after which they are released (`YYYY-MM-DD` -> points): sale income until its
 * refund window is over, earnings beyond the daily earn cap until their day is over.
 */
export type Holds = Record<string, number>

/**
 * One wallet per user. `balance` is spendable; `frozen_balance` holds points in flight inside a purchase
 * transaction and held income (`holds`: sale income inside its refund window, earnings beyond the daily earn
 * cap). Neither can go negative; at rest `frozen_balance` is the sum of `holds`.
 */
export const wallet = sqliteTable(
  'wallet',
  {
    id: idColumn(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id),
    balance: integer('balance').notNull().default(0),
    frozenBalance: integer('frozen_balance').notNull().default(0),
    totalEarned: integer('total_earned').notNull().default(0),
    totalSpent: integer('total_spent').notNull().default(0),
    /** The `seq` of the wallet's last entry. */
    lastSeq: integer('last_seq').notNull().default(0),
    /** Earnings (credited or held) on the UTC day `earnings_day`, for the daily earn cap. */
    earningsDay: text('earnings_day'),
    earnedOnDay: integer('earned_on_day').notNull().default(0),
    holds: jsonText<Holds>('holds_json').notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // No index on frozen_balance: a purchase changes the buyer's twice, and only the sweep (every 10 minutes)
    // looks wallets up by it, as a scan of one row per user (migration 0007).
    uniqueIndex('wallet_by_user_idx').on(t.userId),
    check('wallet_balance_check', sql`${t.balance} >= 0`),
    check('wallet_frozen_balance_check', sql`${t.frozenBalance} >= 0`),
  ],
)

/**
 * The append-only ledger. `amount` is the signed change of the wallet's holdings (balance + frozen_balance);
 * `balance_after` and `frozen_after` are the wallet's two columns right after the entry.
 */
export const walletTransaction = sqliteTable(
  'wallet_transaction',
  {
    id: idColumn(),
    seq: integer('seq').notNull(),
    walletId: text('wallet_id')
      .notNull()
      .references(() => wallet.id),
    type: text('type').$type<TransactionType>().notNull(),
    amount: integer('amount').notNull(),
    balanceAfter: integer('balance_after').notNull(),
    frozenAfter: integer('frozen_after').notNull(),
    referenceType: text('reference_type').$type<ReferenceType>().notNull(),
    referenceId: text('reference_id').notNull(),
    description: text('description').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    // Every entry writes each of these indexes, three per purchase: only two are kept. A wallet's history (with
    // or without a type), the audit and the platform's commission totals read one wallet's entries by seq (the
    // totals scan the platform's entries as they scan the orders); the only lookup by reference is a transfer's
    // other leg, so only transfers are indexed by it (migration 0006).
    uniqueIndex('wallet_transaction_by_wallet_seq_idx').on(t.walletId, t.seq),
    index('wallet_transaction_by_transfer_idx').on(t.referenceId).where(sql`${t.referenceType} = 'transfer'`),
    oneOfInline('wallet_transaction_type_check', t.type, TRANSACTION_TYPES),
    oneOfInline('wallet_transaction_reference_type_check', t.referenceType, REFERENCE_TYPES),
    check('wallet_transaction_after_check', sql`${t.balanceAfter} >= 0 AND ${t.frozenAfter} >= 0`),
  ],
)

/** The first response to a money-moving POST per (user, key), replayed for 24 h. */
export const idempotencyKey = sqliteTable(
  'idempotency_key',
  {
    userId: text('user_id')
      .notNull()
      .references(() => user.id),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    statusCode: integer('status_code').notNull(),
    responseBody: jsonText<unknown>('response_json').notNull(),
    createdAt: createdAt(),
    expiresAt: text('expires_at').notNull(),
  },
  (t) => [
    uniqueIndex('idempotency_key_by_user_key_idx').on(t.userId, t.key),
    index('idempotency_key_expiry_idx').on(t.expiresAt),
  ],
)
