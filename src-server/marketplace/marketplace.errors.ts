import { defineErrors } from '../platform/errors'

export const MarketplaceErrors = defineErrors({
  INSUFFICIENT_BALANCE: { status: 400, message: 'The points balance is too low.' },
  LISTING_NOT_FOUND: { status: 404, message: 'Listing not found.' },
  LISTING_NOT_AVAILABLE: { status: 409, message: 'This listing cannot be bought now.' },
  PRICE_CHANGED: { status: 409, message: 'The price of this listing has changed; nothing was charged.' },
  CANNOT_BUY_OWN_LISTING: { status: 400, message: 'You cannot buy your own listing.' },
  ALREADY_OWNED: { status: 409, message: 'You already own this listing.' },
  ORDER_NOT_FOUND: { status: 404, message: 'Order not found.' },
  ORDER_ALREADY_REFUNDED: { status: 409, message: 'This order has already been refunded.' },
  REFUND_WINDOW_EXPIRED: { status: 409, message: 'The refund window for this order has passed.' },
  REFUND_NOT_ALLOWED: { status: 409, message: 'This order cannot be refunded.' },
  ALREADY_REVIEWED: { status: 400, message: 'You have already reviewed this listing.' },
  REVIEW_NOT_ALLOWED: { status: 403, message: 'Only buyers of this listing can review it.' },
  INVALID_PRICING_MODEL: { status: 400, message: 'The pricing model must be one_time or free.' },
  INVALID_ASSET_TYPE: {
    status: 400,
    message: 'The asset type must be agent, knowledge_source or document_agent.',
  },
  INVALID_PRICE: { status: 400, message: 'The price does not fit the pricing model.' },
  ASSET_NOT_FOUND: { status: 404, message: 'The asset does not exist or is not yours.' },
  UNSUPPORTED_PAYMENT_METHOD: { status: 400, message: 'The payment method is not supported.' },
  TOPUP_DISABLED: { status: 403, message: 'Top-ups are turned off on this server.' },
  TOPUP_LIMIT_EXCEEDED: { status: 400, message: "This top-up goes beyond today's top-up limit." },
  BELOW_MIN_WITHDRAWAL: { status: 400, message: 'The amount is below the minimum withdrawal.' },
  INVALID_TRANSFER: { status: 400, message: 'You cannot transfer points to yourself.' },
  IDEMPOTENCY_KEY_REUSED: { status: 409, message: 'This Idempotency-Key was used with a different request.' },
})
