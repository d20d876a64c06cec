/**
 * The order and ledger histories a person reads: each row carries the names it refers to (listing title, the
 * other party), joined in the same query, so a page of history is one read and the console never shows an id
 * where a name exists.
 */
import { and, count, desc, eq, type SQL, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/sqlite-core'
import { user } from '../auth'
import { perShape, preparePage, type Queryable } from '../platform/db'
import { type PageQuery, pageWindow, toPage } from '../platform/http'
import { presentTransaction } from './marketplace.presenters'
import {
  listing,
  marketplaceOrder,
  type OrderStatus,
  type TransactionType,
  walletTransaction,
} from './marketplace.tables'

export type OrderHistoryQuery = PageQuery & {
  role?: 'buyer' | 'seller' | undefined
  status?: OrderStatus | undefined
  listing_id?: string | undefined
}

const buyer = alias(user, 'order_buyer')
const seller = alias(user, 'order_seller')
const p = sql.placeholder

/** Which of an order history's filters are present, and its page size: never their values (see `perShape`). */
const orderHistoryShape = ({ query, limit }: { query: OrderHistoryQuery; limit: number }) =>
  [query.role ?? 'buyer', query.status ? 'status' : '', query.listing_id ? 'listing' : '', limit].join(':')

const orderHistoryPages = perShape(
  orderHistoryShape,
  (db: Queryable, { query, limit }: { query: OrderHistoryQuery; limit: number }) => {
    const asSeller = query.role === 'seller'
    const conditions: SQL[] = [
      asSeller ? eq(marketplaceOrder.sellerId, p('userId')) : eq(marketplaceOrder.buyerId, p('userId')),
    ]
    if (query.status) conditions.push(eq(marketplaceOrder.status, p('status')))
    if (query.listing_id) conditions.push(eq(marketplaceOrder.listingId, p('listingId')))
    const where = and(...conditions)
    const other = asSeller ? buyer : seller
    const orders = db
      .select({
        order: marketplaceOrder,
        listingTitle: listing.title,
        otherId: other.id,
        otherUsername: other.username,
      })
      .from(marketplaceOrder)
      .innerJoin(listing, eq(listing.id, marketplaceOrder.listingId))
      .innerJoin(other, eq(other.id, asSeller ? marketplaceOrder.buyerId : marketplaceOrder.sellerId))
      .where(where)
      .orderBy(desc(marketplaceOrder.createdAt), desc(marketplaceOrder.id))
    return preparePage(orders, db.select({ n: count() }).from(marketplaceOrder).where(where), limit)
  },
)

/** The caller's orders (or sales with `role=seller`), newest first, with the listing's title and the other party. */
export function listOrderHistory(db: Queryable, userId: string, query: OrderHistoryQuery) {
  const window = pageWindow(query)
  const page = orderHistoryPages(db, { query, limit: window.limit })
  const values = { userId, status: query.status, listingId: query.listing_id }
  return {
    rows: page.rows(values, window.offset).map((row) => ({
      ...row.order,
      listingTitle: row.listingTitle,
      counterparty: { id: row.otherId, username: row.otherUsername },
    })),
    total: page.total(values),
  }
}

const entryOrder = alias(marketplaceOrder, 'entry_order')
const entryListing = alias(listing, 'entry_listing')

/**
 * The other person of a ledger entry: for an order, the seller when this wallet's owner bought and the buyer
 * otherwise (the seller's income, the platform's commission); for a transfer, the owner of the other leg.
 */
const counterpartyId = sql<string | null>`CASE ${walletTransaction.referenceType}
    WHEN 'order' THEN CASE WHEN ${entryOrder.buyerId} = ${p('ownerId')} THEN ${entryOrder.sellerId} ELSE ${entryOrder.buyerId} END
    WHEN 'transfer' THEN (SELECT w2.user_id FROM wallet_transaction t2 JOIN wallet w2 ON w2.id = t2.wallet_id
      WHERE t2.reference_type = 'transfer' AND t2.reference_id = ${walletTransaction.referenceId}
        AND t2.wallet_id <> ${walletTransaction.walletId} LIMIT 1)
    ELSE NULL END`

/** Whether a ledger history is filtered by type, and its page size (see `perShape`). */
const ledgerShape = ({ type, limit }: { type: TransactionType | undefined; limit: number }) =>
  `${type ? 'type' : ''}:${limit}`

const ledgerPages = perShape(
  ledgerShape,
  (db: Queryable, { type, limit }: { type: TransactionType | undefined; limit: number }) => {
    const conditions: SQL[] = [eq(walletTransaction.walletId, p('walletId'))]
    if (type) conditions.push(eq(walletTransaction.type, p('type')))
    const where = and(...conditions)
    const entries = db
      .select({
        entry: walletTransaction,
        listingTitle: entryListing.title,
        counterpartyId,
        counterpartyUsername: sql<string | null>`(SELECT username FROM user WHERE id = ${counterpartyId})`,
      })
      .from(walletTransaction)
      .leftJoin(
        entryOrder,
        and(eq(walletTransaction.referenceType, 'order'), eq(entryOrder.id, walletTransaction.referenceId)),
      )
      .leftJoin(entryListing, eq(entryListing.id, entryOrder.listingId))
      .where(where)
      .orderBy(desc(walletTransaction.seq))
    return preparePage(entries, db.select({ n: count() }).from(walletTransaction).where(where), limit)
  },
)

/**
 * A page of one wallet's ledger, newest first, each entry with its listing title and other party when it has one.
 * Without a type filter the total is the wallet's `lastSeq`: its entries are numbered from 1 and never deleted
 * (`ledgerViolations` checks it), where counting them read every entry of the wallet for each page.
 */
export function listTransactionHistory(
  db: Queryable,
  wallet: { id: string; lastSeq: number },
  ownerId: string,
  query: PageQuery & { type?: TransactionType | undefined },
) {
  const window = pageWindow(query)
  const page = ledgerPages(db, { type: query.type, limit: window.limit })
  const values = { walletId: wallet.id, ownerId, type: query.type }
  const items = page.rows(values, window.offset).map((row) => ({
    ...presentTransaction(row.entry),
    listing_title: row.listingTitle,
    counterparty:
      row.counterpartyId && row.counterpartyUsername
        ? { id: row.counterpartyId, username: row.counterpartyUsername }
        : null,
  }))
  return toPage(items, query.type ? page.total(values) : wallet.lastSeq, query)
}

/** What the wallet was topped up with since `since` (an ISO time): the daily top-up limit's count. */
export function toppedUpSince(db: Queryable, walletId: string, since: string): number {
  return (
    db
      .select({ total: sql<number>`coalesce(sum(${walletTransaction.amount}), 0)` })
      .from(walletTransaction)
      .where(
        and(
          eq(walletTransaction.walletId, walletId),
          eq(walletTransaction.type, 'topup'),
          sql`${walletTransaction.createdAt} >= ${since}`,
        ),
      )
      .get()?.total ?? 0
  )
}
