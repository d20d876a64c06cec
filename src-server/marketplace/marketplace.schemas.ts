import { type Static, Type } from 'typebox'
import { Nullable, PageQuery, Timestamp, UserRef, Uuid } from '../platform/http'
import { MODERATION_STATUSES } from './admin.service'
import { LISTING_STATUSES, ORDER_STATUSES, TRANSACTION_TYPES } from './marketplace.tables'

/** Points in a request: whole, positive, and bounded so no sum can leave the safe-integer range. */
const Points = (maximum: number) => Type.Integer({ minimum: 1, maximum })
const MAX_POINTS = 1_000_000_000

export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
})

export const WalletSchema = Type.Object({
  id: Uuid,
  user_id: Uuid,
  balance: Type.Integer(),
  frozen_balance: Type.Integer(),
  total_earned: Type.Integer(),
  total_spent: Type.Integer(),
  updated_at: Timestamp,
})

export const TransactionSchema = Type.Object({
  id: Uuid,
  type: Type.Enum([...TRANSACTION_TYPES]),
  amount: Type.Integer({ description: 'Signed change of balance + frozen_balance; spending is negative.' }),
  balance_after: Type.Integer(),
  frozen_after: Type.Integer(),
  reference_type: Type.String(),
  reference_id: Type.String(),
  description: Type.String(),
  created_at: Timestamp,
})

/** A ledger entry as the history lists it: the listing and the other person it concerns, by name. */
export const TransactionListItemSchema = Type.Object({
  ...TransactionSchema.properties,
  listing_title: Nullable(Type.String()),
  counterparty: Nullable(UserRef),
})

export const MoneyResult = Type.Object({ transaction: TransactionSchema, wallet: WalletSchema })

export const TransactionQuery = Type.Object({
  ...PageQuery.properties,
  type: Type.Optional(Type.Enum([...TRANSACTION_TYPES])),
})

export const TopUpBody = Type.Object({
  amount: Points(1_000_000),
  payment_method: Type.String({ minLength: 1, maxLength: 50 }),
})

export const WithdrawBody = Type.Object({
  amount: Points(MAX_POINTS),
  method: Type.String({ minLength: 1, maxLength: 50 }),
})

export const TransferBody = Type.Object({
  to_user_id: Uuid,
  amount: Points(MAX_POINTS),
  message: Type.Optional(Type.String({ maxLength: 500 })),
})

const Seller = Type.Object({ id: Uuid, username: Type.String(), avatar_url: Nullable(Type.String()) })

export const ListingItemSchema = Type.Object({
  id: Uuid,
  title: Type.String(),
  description: Type.String(),
  asset_type: Type.String(),
  pricing_model: Type.String(),
  base_price: Type.Integer(),
  rating_avg: Type.Number(),
  rating_count: Type.Integer(),
  seller: Seller,
  created_at: Timestamp,
})

export const ListingSchema = Type.Object({
  ...ListingItemSchema.properties,
  cover_image_url: Nullable(Type.String()),
  asset_id: Type.String(),
  status: Type.Enum([...LISTING_STATUSES]),
  status_reason: Nullable(Type.String()),
  download_count: Type.Integer(),
  tags: Type.Array(Type.String()),
  updated_at: Timestamp,
})

const listingFields = {
  asset_type: Type.String({ maxLength: 50 }),
  asset_id: Type.String({ minLength: 1, maxLength: 100 }),
  title: Type.String({ minLength: 1, maxLength: 200 }),
  description: Type.String({ maxLength: 10_000 }),
  // https only: the console never loads a cover over plain http, nor runs one as script or inline data.
  cover_image_url: Nullable(Type.String({ format: 'uri', pattern: '^https://', maxLength: 2000 })),
  pricing_model: Type.String({ maxLength: 50 }),
  base_price: Type.Integer({ minimum: 0, maximum: MAX_POINTS }),
  tags: Type.Array(Type.String({ minLength: 1, maxLength: 40 }), { maxItems: 20 }),
}

export const CreateListingBody = Type.Object({
  asset_type: listingFields.asset_type,
  asset_id: listingFields.asset_id,
  title: listingFields.title,
  description: Type.Optional(listingFields.description),
  cover_image_url: Type.Optional(listingFields.cover_image_url),
  pricing_model: listingFields.pricing_model,
  base_price: listingFields.base_price,
  tags: Type.Optional(listingFields.tags),
})

export const UpdateListingBody = Type.Partial(Type.Object(listingFields))

export const ListingSearchQuery = Type.Object({
  ...PageQuery.properties,
  asset_type: Type.Optional(Type.String({ maxLength: 50 })),
  pricing_model: Type.Optional(Type.String({ maxLength: 50 })),
  keyword: Type.Optional(Type.String({ maxLength: 200 })),
  sort_by: Type.Optional(Type.Enum(['price', 'rating', 'created_at'])),
  sort_order: Type.Optional(Type.Enum(['asc', 'desc'])),
})

export const ReviewSchema = Type.Object({
  id: Uuid,
  listing_id: Uuid,
  rating: Type.Integer(),
  comment: Type.String(),
  counted: Type.Boolean({ description: "false once the author's order was refunded: not in the rating" }),
  author: UserRef,
  created_at: Timestamp,
})

export const ReviewBody = Type.Object({
  rating: Type.Integer({ minimum: 1, maximum: 5 }),
  comment: Type.Optional(Type.String({ maxLength: 2000 })),
})

export const OrderSchema = Type.Object({
  id: Uuid,
  listing_id: Uuid,
  buyer_id: Uuid,
  seller_id: Uuid,
  asset_type: Type.String(),
  asset_id: Type.String(),
  total_price: Type.Integer(),
  platform_fee: Type.Integer(),
  seller_income: Type.Integer(),
  status: Type.Enum([...ORDER_STATUSES]),
  created_at: Timestamp,
  completed_at: Nullable(Timestamp),
  refundable_until: Nullable(Timestamp),
  refunded_at: Nullable(Timestamp),
  refund_reason: Nullable(Type.String()),
})

/** An order as the order and sales lists show it: the listing's title and the other party (seller or buyer). */
export const OrderListItemSchema = Type.Object({
  ...OrderSchema.properties,
  listing_title: Type.String(),
  counterparty: UserRef,
})

export const OrderBody = Type.Object({
  listing_id: Uuid,
  expected_price: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: MAX_POINTS,
      description:
        'The price the buyer was shown: 409 PRICE_CHANGED, nothing charged, when the listing costs otherwise',
    }),
  ),
})
export const RefundBody = Type.Object({ reason: Type.String({ maxLength: 1000 }) })

export const OrderQuery = Type.Object({
  ...PageQuery.properties,
  role: Type.Optional(Type.Enum(['buyer', 'seller'])),
  status: Type.Optional(Type.Enum([...ORDER_STATUSES])),
  /** Only the orders of one listing: whether the caller holds a paid order of it is one small read. */
  listing_id: Type.Optional(Uuid),
})

export const AdminListingQuery = Type.Object({
  ...PageQuery.properties,
  status: Type.Optional(Type.Enum([...LISTING_STATUSES])),
})

export const ListingStatusBody = Type.Object({
  status: Type.Enum([...MODERATION_STATUSES]),
  reason: Type.Optional(Type.String({ maxLength: 1000 })),
})

export const DailyStatsQuery = Type.Object({
  days: Type.Integer({
    minimum: 1,
    maximum: 366,
    default: 30,
    description: 'UTC days back from today, included',
  }),
})

export const DailyStatsSchema = Type.Object({
  days: Type.Array(
    Type.Object({
      date: Type.String({ description: 'YYYY-MM-DD (UTC)' }),
      orders: Type.Integer({ description: 'orders paid or refunded, made that day' }),
      volume: Type.Integer({ description: 'total price of orders made that day and still paid' }),
      commission: Type.Integer({ description: "the platform's commission that day, net of refunds" }),
    }),
  ),
})
export type DailyStats = Static<typeof DailyStatsSchema>

export const StatsSchema = Type.Object({
  total_listings: Type.Integer(),
  total_orders: Type.Integer(),
  total_users: Type.Integer(),
  total_transaction_volume: Type.Integer(),
  platform_commission_total: Type.Integer(),
})
