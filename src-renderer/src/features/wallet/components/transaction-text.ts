import type { WalletTransaction } from '../api/wallet-api'

/**
 * What a ledger entry was, in words: entries about an order name the listing and the other party (the stored
 * description of a refund only names the order's id); the others keep the server's description.
 */
export function describeTransaction(row: WalletTransaction): string {
  const title = row.listing_title ? `“${row.listing_title}”` : 'a listing'
  const who = row.counterparty?.username
  // The only payment method is the simulated one; say so in words rather than by its key.
  if (row.reference_type !== 'order')
    return row.description.replace(/ via simulated$/, ' (simulated payment)') || '—'
  switch (row.type) {
    case 'spend':
      return who ? `Bought ${title} from ${who}` : `Bought ${title}`
    case 'income':
      return who ? `Sold ${title} to ${who}` : `Sold ${title}`
    case 'commission':
      return who ? `Commission on ${title}, bought by ${who}` : `Commission on ${title}`
    case 'refund':
      return who ? `Refund of ${title} from ${who}` : `Refund of ${title}`
    case 'refund_reversal':
      return who ? `Refunded ${title} to ${who}` : `Refunded ${title}`
    default:
      return row.description || title
  }
}
