/**
 * Purchases and refunds. Each is ONE transaction (`tx`, handed in by the caller: over HTTP a purchase is a piece of
 * a group commit on SQLite), so a failure at any step leaves nothing behind. A balance check and the debit it
 * guards never interleave with another request's: SQLite runs one transaction at a time, and on PostgreSQL each
 * transaction first locks the wallets it moves money between, in id order (`ledger.lockWallets`), except the
 * platform's: every purchase and refund credits or debits it, so it is locked last, once the checks have passed,
 * and held only until the commit (one order, platform last, for every transaction that locks it: no deadlock). The
 * purchase's queries are prepared once on SQLite (orders.repository.ts); on PostgreSQL its writes go as one
 * statement (deferred-writes.ts).
 */
import { createCommitGroup, type Database, type EngineDb, isPostgres } from '../platform/db'
import { toPage } from '../platform/http'
import { readConfigValue, readConfigValues } from '../settings'
import { platformFee } from './commission'
import { withDeferredWrites } from './deferred-writes'
import { listOrderHistory, type OrderHistoryQuery } from './history.repository'
import { timeOrderedUuid } from './ids'
import { changeHold, type Ledger, type OpenedWallet, utcDay } from './ledger'
import { requireVisible, type Viewer } from './listings.service'
import { MarketplaceErrors } from './marketplace.errors'
import type { TransactionType } from './marketplace.tables'
import type { OrderRow } from './orders.repository'
import * as repo from './orders.repository'
import { withdrawReviewOf } from './reviews.service'

const DAY_MS = 24 * 3600 * 1000

export function presentOrder(row: OrderRow) {
  return {
    id: row.id,
    listing_id: row.listingId,
    buyer_id: row.buyerId,
    seller_id: row.sellerId,
    asset_type: row.assetType,
    asset_id: row.assetId,
    total_price: row.totalPrice,
    platform_fee: row.platformFee,
    seller_income: row.sellerIncome,
    status: row.status,
    created_at: row.createdAt,
    completed_at: row.completedAt,
    refundable_until: row.refundableUntil,
    refunded_at: row.refundedAt,
    refund_reason: row.refundReason,
  }
}

export interface PurchaseOptions {
  /** The price the buyer was shown: a listing whose price is not this any more is refused (PRICE_CHANGED). */
  expectedPrice?: number | undefined
  /**
   * Test-only fault injection: called inside the purchase transaction right after the buyer is debited (on
   * PostgreSQL, before the held-back writes are sent).
   */
  afterDeduct?: () => void
}

/** The purchase's settings, read in one statement. */
const PURCHASE_SETTINGS = ['commission_rate', 'refund_window_days', 'daily_earn_cap'] as const

/**
 * When the order's refund window ends: fixed when it was paid, or (an order from before that) its completion plus
 * the current window.
 */
async function refundDeadline(tx: EngineDb, order: OrderRow): Promise<Date> {
  if (order.refundableUntil) return new Date(order.refundableUntil)
  const completedAt = Date.parse(order.completedAt ?? order.createdAt)
  return new Date(completedAt + (await readConfigValue(tx, 'refund_window_days')) * DAY_MS)
}

/**
 * PostgreSQL: the seller has no wallet yet. Made inside the purchase, it would be locked after the buyer's wallet,
 * out of id order, and two purchases from a new seller could deadlock; so the purchase gives up before it writes
 * anything, the wallet is made in a transaction of its own, and the purchase runs again (`inPurchaseGroup`).
 */
class SellerWithoutWallet extends Error {
  constructor(readonly sellerId: string) {
    super(`seller ${sellerId} has no wallet yet`)
  }
}

export function createOrderService(database: Database, ledger: Ledger, platformUserId: () => string) {
  const purchaseGroup = createCommitGroup(database)
  let platformWallet: string | null = null
  /**
   * The platform account's wallet id, read once: the platform account is made at bootstrap and never replaced,
   * and a user's wallet is never replaced either (one per user by `wallet_by_user_idx`, and nothing deletes a
   * wallet: the ledger refers to it), so the id cannot change while the server runs. It is made (when new) and
   * committed in a transaction of its own, before any purchase's transaction: a group commit that rolls back
   * can never leave the id pointing at a wallet that was not kept. Nothing is ever held on the platform's wallet
   * (commissions are not capped, nobody can transfer to the platform), so it has no holds to release either:
   * each purchase credits its commission by this id without reading it (`creditWithoutReading`).
   */
  async function platformWalletId(at: Date): Promise<string> {
    if (!platformWallet)
      platformWallet = await database.transact(
        async (tx) => (await ledger.openWallet(tx, platformUserId(), at)).id,
      )
    return platformWallet
  }

  return {
    /**
     * Runs `work` (a purchase, with its Idempotency-Key claim when it has one) in a group commit with the
     * purchases that arrived in the same turn of the event loop: one commit writes the pages they share once
     * (db/group-commit.ts). `recover` stores a refusal of keyed work.
     */
    inPurchaseGroup<T>(
      work: (tx: EngineDb) => Promise<T>,
      recover?: (tx: EngineDb, error: unknown) => Promise<T>,
    ): Promise<T> {
      const run = () =>
        purchaseGroup.run(work, recover).catch(async (error: unknown) => {
          if (!(error instanceof SellerWithoutWallet)) throw error
          // Made in a transaction of its own, holding no other lock; then the purchase runs again.
          await database.transact(async (tx) => {
            await ledger.openWallet(tx, error.sellerId, new Date())
          })
          return purchaseGroup.run(work, recover)
        })
      // Known after the first purchase: then nothing is awaited before the group.
      if (platformWallet) return run()
      return platformWalletId(new Date()).then(run)
    },

    /**
     * The steps of the spec (marketplace.md, purchase flow); its step 3 (the order, pending) and step 6 (set to
     * paid) are one write of the order as paid, last, since both happen in this transaction and nothing outside it
     * can see the order between them. Every refusal comes from a read before the first write, so a refused purchase
     * in a group commit leaves nothing to undo (db/group-commit.ts). The buyer's wallet is opened without being
     * made: a buyer without one is refused before anything is written, otherwise every request of an account
     * that never topped up would make its whole group run again with savepoints. Holds released before a refusal
     * are the one write the group undoes the slow way.
     */
    async purchase(tx: EngineDb, buyer: Viewer, listingId: string, at: Date, options: PurchaseOptions = {}) {
      const buyerId = buyer.id
      const item = await repo.findPurchasedListing(tx, listingId)
      // A listing the buyer may not read is absent for them, as on GET: the purchase must not reveal it.
      requireVisible(listingId, item, buyer)
      if (item.status !== 'published')
        throw MarketplaceErrors.LISTING_NOT_AVAILABLE({ listing_id: listingId, status: item.status })
      if (item.sellerId === buyerId) throw MarketplaceErrors.CANNOT_BUY_OWN_LISTING({ listing_id: listingId })
      // Read before the wallets are locked: the locks are held from here to the commit.
      const settings = await readConfigValues(tx, PURCHASE_SETTINGS)
      // The buyer's and the seller's wallets, locked and read in one statement. Before the ownership check: a
      // purchase of the same listing by the same buyer on another instance waits on the buyer's wallet, then finds
      // its order.
      const wallets = await ledger.lockAndRead(tx, [buyerId, item.sellerId])
      if (!wallets.has(item.sellerId) && isPostgres(tx)) throw new SellerWithoutWallet(item.sellerId)
      const owned = await repo.findPaidOrderId(tx, listingId, buyerId)
      if (owned) throw MarketplaceErrors.ALREADY_OWNED({ listing_id: listingId, order_id: owned })

      const price = item.basePrice
      if (options.expectedPrice !== undefined && options.expectedPrice !== price)
        throw MarketplaceErrors.PRICE_CHANGED({
          listing_id: listingId,
          expected_price: options.expectedPrice,
          price,
        })
      const now = at.toISOString()
      // 1. Check the balance. A free listing moves no points, so it needs no wallet of the buyer.
      const buyerFound = price > 0 ? wallets.get(buyerId) : undefined
      const buyerWallet = buyerFound ? await ledger.withDueHoldsReleased(tx, buyerFound, at) : null
      const available = buyerWallet?.balance ?? 0
      if (available < price) throw MarketplaceErrors.INSUFFICIENT_BALANCE({ required: price, available })
      const fee = platformFee(price, settings.commission_rate)
      const income = price - fee
      const refundableUntil = new Date(at.getTime() + settings.refund_window_days * DAY_MS)
      const sellerWallet = wallets.get(item.sellerId) ?? null
      // The platform's wallet, for the commission. Every purchase credits it, so it is locked last (after the users'
      // wallets, as by every transaction that locks it: no deadlock) and as late as can be: by the commission's own
      // update, which moves the stored row by the fee without reading it first (on PostgreSQL sent with the other
      // writes: the row is held for that statement and the commit). The platform's own account buying or selling
      // posts through the state read already; before the id is known, the wallet is opened as any other.
      const platformRead =
        fee === 0
          ? null
          : platformWallet
            ? ([buyerWallet, sellerWallet].find((wallet) => wallet?.id === platformWallet) ?? null)
            : await ledger.openWallet(tx, platformUserId(), at)
      const order = {
        id: timeOrderedUuid(),
        listingId,
        buyerId,
        sellerId: item.sellerId,
        assetType: item.assetType,
        assetId: item.assetId,
        totalPrice: price,
        platformFee: fee,
        sellerIncome: income,
        status: 'paid',
        createdAt: now,
        completedAt: now,
        refundableUntil: refundableUntil.toISOString(),
        refundedAt: null,
        refundReason: null,
      } satisfies OrderRow
      const reference = { referenceType: 'order', referenceId: order.id } as const
      // The writes: on PostgreSQL held back and sent as one statement (deferred-writes.ts), so the shared wallet
      // rows stay locked over as few round trips as can be.
      await withDeferredWrites(tx, async () => {
        if (buyerWallet) {
          // 2. Freeze the buyer's points. 3. Deduct the frozen points.
          await ledger.freeze(tx, buyerWallet, price, at)
          await ledger.postEntry(
            tx,
            buyerWallet,
            {
              type: 'spend',
              balanceDelta: 0,
              frozenDelta: -price,
              spentDelta: price,
              ...reference,
              description: `Purchase of "${item.title}"`,
            },
            at,
          )
        }
        options.afterDeduct?.()
        // 4. The seller's income and the platform's commission.
        if (income > 0)
          await ledger.creditEarnings(
            tx,
            item.sellerId,
            income,
            { type: 'income', ...reference, description: `Sale of "${item.title}"` },
            at,
            {
              heldUntil: refundableUntil,
              dailyEarnCap: settings.daily_earn_cap,
              wallet: sellerWallet,
            },
          )
        const commission = {
          type: 'commission',
          ...reference,
          description: `Commission on "${item.title}"`,
        } as const
        if (platformRead)
          await ledger.postEntry(tx, platformRead, { ...commission, balanceDelta: fee, earnedDelta: fee }, at)
        else if (fee > 0 && platformWallet)
          await ledger.creditWithoutReading(tx, platformWallet, fee, commission, at)
        // 5. The order, paid, with access granted.
        await repo.insertPaidOrder(tx, order, timeOrderedUuid())
      })
      return presentOrder(order)
    },

    /**
     * Gives the buyer the price back. The seller's part comes out of the sale's income still held for the window
     * (its release day is the window's end, so inside the window it is always there), then out of the balance
     * for what an order from before income was held never had held.
     */
    async refund(tx: EngineDb, buyerId: string, orderId: string, reason: string, at: Date) {
      const order = await repo.findOrder(tx, orderId)
      if (!order || order.buyerId !== buyerId) throw MarketplaceErrors.ORDER_NOT_FOUND({ order_id: orderId })
      if (order.status === 'refunded') throw MarketplaceErrors.ORDER_ALREADY_REFUNDED({ order_id: orderId })
      const refundableUntil = await refundDeadline(tx, order)
      if (at.getTime() > refundableUntil.getTime())
        throw MarketplaceErrors.REFUND_WINDOW_EXPIRED({
          order_id: orderId,
          completed_at: order.completedAt,
          refundable_until: refundableUntil.toISOString(),
        })
      const reference = { referenceType: 'order', referenceId: order.id } as const
      await ledger.lockWallets(tx, [order.sellerId, buyerId])
      const sellerWallet = await ledger.openWallet(tx, order.sellerId, at)
      const holdDay = utcDay(refundableUntil)
      const fromHeld = order.refundableUntil
        ? Math.min(sellerWallet.holds[holdDay] ?? 0, order.sellerIncome)
        : 0
      const fromBalance = order.sellerIncome - fromHeld
      if (sellerWallet.balance < fromBalance)
        throw MarketplaceErrors.REFUND_NOT_ALLOWED({
          reason: 'seller_balance_insufficient',
          required: fromBalance,
          available: sellerWallet.balance,
        })
      // The platform's wallet last, locked by its read (`FOR UPDATE` on PostgreSQL) until the commit.
      const platformWallet = await ledger.openWallet(tx, platformUserId(), at)
      if (platformWallet.balance < order.platformFee)
        throw MarketplaceErrors.REFUND_NOT_ALLOWED({
          reason: 'platform_balance_insufficient',
          required: order.platformFee,
          available: platformWallet.balance,
        })
      const buyerWallet = await ledger.openWallet(tx, buyerId, at)
      const description = `Refund of order ${order.id}`
      if (order.sellerIncome > 0)
        await ledger.postEntry(
          tx,
          sellerWallet,
          {
            type: 'refund_reversal',
            balanceDelta: -fromBalance,
            frozenDelta: -fromHeld,
            earnedDelta: -order.sellerIncome,
            ...(fromHeld > 0 && { holds: changeHold(sellerWallet.holds, holdDay, -fromHeld) }),
            ...reference,
            description: fromHeld > 0 ? `${description} (${fromHeld} points from held income)` : description,
          },
          at,
        )
      const reversals: [OpenedWallet, number, TransactionType][] = [
        [platformWallet, -order.platformFee, 'refund_reversal'],
        [buyerWallet, order.totalPrice, 'refund'],
      ]
      for (const [wallet, amount, type] of reversals)
        if (amount !== 0)
          await ledger.postEntry(
            tx,
            wallet,
            {
              type,
              balanceDelta: amount,
              // The platform earned less; the buyer spent less.
              ...(type === 'refund' ? { spentDelta: -amount } : { earnedDelta: amount }),
              ...reference,
              description,
            },
            at,
          )
      await repo.revokeGrantsOfOrder(tx, order.id, at.toISOString())
      await withdrawReviewOf(tx, order.listingId, buyerId)
      // Only a paid order is marked: a refund of it that committed first (another instance's, whose wallet locks
      // this one waited on) leaves nothing to mark, and this refund's writes roll back.
      const refunded = await repo.markOrderRefunded(tx, order.id, at.toISOString(), reason)
      if (!refunded) throw MarketplaceErrors.ORDER_ALREADY_REFUNDED({ order_id: orderId })
      return presentOrder(refunded)
    },

    /** A buyer's order or a seller's sale; anyone else's is not found. */
    async get(userId: string, orderId: string) {
      const order = await repo.findOrder(database.reader, orderId)
      if (!order || (order.buyerId !== userId && order.sellerId !== userId))
        throw MarketplaceErrors.ORDER_NOT_FOUND({ order_id: orderId })
      return presentOrder(order)
    },

    /** The caller's orders or sales, each with its listing's title and the other party's name. */
    async list(userId: string, query: OrderHistoryQuery) {
      const { rows, total } = await listOrderHistory(database.reader, userId, query)
      const items = rows.map((row) => ({
        ...presentOrder(row),
        listing_title: row.listingTitle,
        counterparty: row.counterparty,
      }))
      return toPage(items, total, query)
    },
  }
}

export type OrderService = ReturnType<typeof createOrderService>
