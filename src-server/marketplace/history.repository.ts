/**
 * The order and ledger histories a person reads: each row carries the names it refers to (listing title, the
 * other party), joined in the same query, so a page of history is one read and the console never shows an id
 * where a name exists.
 */
import { aliasedTable, and, count, desc, eq, type SQL, sql } from 'drizzle-orm'
import { user } from '../auth'
import { type EngineDb, engineTables } from '../platform/db'
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

const tables = engineTables({ user, listing, marketplaceOrder, walletTransaction })

/** The caller's orders (or sales with `role=seller`), newest first, with the listing's title and the other party. */
export async function listOrderHistory(db: EngineDb, userId: string, query: OrderHistoryQuery) {
  const { user, listing, marketplaceOrder: order } = tables(db)
  const window = pageWindow(query)
  const asSeller = query.role === 'seller'
  const other = aliasedTable(user, asSeller ? 'order_buyer' : 'order_seller')
  const conditions: SQL[] = [asSeller ? eq(order.sellerId, userId) : eq(order.buyerId, userId)]
  if (query.status) conditions.push(eq(order.status, query.status))
  if (query.listing_id) conditions.push(eq(order.listingId, query.listing_id))
  const where = and(...conditions)
  const rows = await db
    .select({ order, listingTitle: listing.title, otherId: other.id, otherUsername: other.username })
    .from(order)
    .innerJoin(listing, eq(listing.id, order.listingId))
    .innerJoin(other, eq(other.id, asSeller ? order.buyerId : order.sellerId))
    .where(where)
    .orderBy(desc(order.createdAt), desc(order.id))
    .limit(window.limit)
    .offset(window.offset)
  const [counted] = await db.select({ n: count() }).from(order).where(where)
  return {
    rows: rows.map((row) => ({
      ...row.order,
      listingTitle: row.listingTitle,
      counterparty: { id: row.otherId, username: row.otherUsername },
    })),
    total: counted?.n ?? 0,
  }
}

/**
 * A page of one wallet's ledger, newest first, each entry with its listing title and other party when it has one:
 * for an order, the seller when this wallet's owner bought and the buyer otherwise (the seller's income, the
 * platform's commission); for a transfer, the owner of the other leg. Without a type filter the total is the
 * wallet's `lastSeq`: its entries are numbered from 1 and never deleted (`ledgerViolations` checks it), where
 * counting them read every entry of the wallet for each page.
 */
export async function listTransactionHistory(
  db: EngineDb,
  ownWallet: { id: string; lastSeq: number },
  ownerId: string,
  query: PageQuery & { type?: TransactionType | undefined },
) {
  const { listing, marketplaceOrder, walletTransaction: entry } = tables(db)
  const window = pageWindow(query)
  const entryOrder = aliasedTable(marketplaceOrder, 'entry_order')
  const entryListing = aliasedTable(listing, 'entry_listing')
  const counterpartyId = sql<string | null>`CASE ${entry.referenceType}
    WHEN 'order' THEN CASE WHEN ${entryOrder.buyerId} = ${ownerId} THEN ${entryOrder.sellerId} ELSE ${entryOrder.buyerId} END
    WHEN 'transfer' THEN (SELECT w2.user_id FROM wallet_transaction t2 JOIN wallet w2 ON w2.id = t2.wallet_id
      WHERE t2.reference_type = 'transfer' AND t2.reference_id = ${entry.referenceId}
        AND t2.wallet_id <> ${entry.walletId} LIMIT 1)
    ELSE NULL END`
  const conditions: SQL[] = [eq(entry.walletId, ownWallet.id)]
  if (query.type) conditions.push(eq(entry.type, query.type))
  const where = and(...conditions)
  const rows = await db
    .select({
      entry,
      listingTitle: entryListing.title,
      counterpartyId,
      counterpartyUsername: sql<string | null>`(SELECT username FROM "user" WHERE id = ${counterpartyId})`,
    })
    .from(entry)
    .leftJoin(entryOrder, and(eq(entry.referenceType, 'order'), eq(entryOrder.id, entry.referenceId)))
    .leftJoin(entryListing, eq(entryListing.id, entryOrder.listingId))
    .where(where)
    .orderBy(desc(entry.seq))
    .limit(window.limit)
    .offset(window.offset)
  const items = rows.map((row) => ({
    ...presentTransaction(row.entry),
    listing_title: row.listingTitle,
    counterparty:
      row.counterpartyId && row.counterpartyUsername
        ? { id: row.counterpartyId, username: row.counterpartyUsername }
        : null,
  }))
  const total = query.type
    ? ((await db.select({ n: count() }).from(entry).where(where))[0]?.n ?? 0)
    : ownWallet.lastSeq
  return toPage(items, total, query)
}

/** What the wallet was topped up with since `since` (an ISO time): the daily top-up limit's count. */
export async function toppedUpSince(db: EngineDb, walletId: string, since: string): Promise<number> {
  const { walletTransaction: entry } = tables(db)
  const [row] = await db
    .select({ total: sql<number>`coalesce(sum(${entry.amount}), 0)`.mapWith(Number) })
    .from(entry)
    .where(and(eq(entry.walletId, walletId), eq(entry.type, 'topup'), sql`${entry.createdAt} >= ${since}`))
  return row?.total ?? 0
}
