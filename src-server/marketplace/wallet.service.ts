import { randomUUID } from 'node:crypto'
import { findUserById } from '../auth'
import type { Database, EngineDb } from '../platform/db'
import { CommonErrors } from '../platform/errors'
import type { PageQuery } from '../platform/http'
import { readConfigValue } from '../settings'
import { listTransactionHistory, toppedUpSince } from './history.repository'
import { type Entry, type Ledger, type OpenedWallet, utcDay } from './ledger'
import { MarketplaceErrors } from './marketplace.errors'
import { presentTransaction, presentWallet } from './marketplace.presenters'
import type { TransactionType } from './marketplace.tables'

export const SIMULATED_PAYMENT_METHOD = 'simulated'

/**
 * The wallet's own moves. Each money-moving function runs inside the caller's transaction (`tx`: the route's, with
 * its Idempotency-Key claim when it has one).
 */
export function createWalletService(database: Database, ledger: Ledger) {
  /** One balance-changing entry on the user's own wallet, answered as `{transaction, wallet}`. */
  async function moveOwn(
    tx: EngineDb,
    userId: string,
    at: Date,
    entry: (own: OpenedWallet) => Entry | Promise<Entry>,
  ) {
    await ledger.lockWallets(tx, [userId])
    const own = await ledger.openWallet(tx, userId, at)
    const transaction = await ledger.postEntry(tx, own, await entry(own), at)
    return {
      transaction: presentTransaction(transaction),
      wallet: presentWallet(await ledger.findWallet(tx, own.id)),
    }
  }

  return {
    /** Opening a wallet may make it or release its due holds: a transaction. */
    async read(userId: string, at: Date) {
      return presentWallet(
        await database.transact(async (tx) => {
          await ledger.lockWallets(tx, [userId])
          return ledger.findWallet(tx, (await ledger.openWallet(tx, userId, at)).id)
        }),
      )
    },

    async transactions(userId: string, query: PageQuery & { type?: TransactionType | undefined }, at: Date) {
      const own = await database.transact(async (tx) => {
        await ledger.lockWallets(tx, [userId])
        return ledger.openWallet(tx, userId, at)
      })
      return listTransactionHistory(database.reader, own, userId, query)
    },

    async topUp(tx: EngineDb, userId: string, input: { amount: number; payment_method: string }, at: Date) {
      if (input.payment_method !== SIMULATED_PAYMENT_METHOD)
        throw MarketplaceErrors.UNSUPPORTED_PAYMENT_METHOD({
          payment_method: input.payment_method,
          supported: [SIMULATED_PAYMENT_METHOD],
        })
      if (!(await readConfigValue(tx, 'simulated_topup_enabled')))
        throw MarketplaceErrors.TOPUP_DISABLED({ payment_method: input.payment_method })
      // Checked and written in one transaction: racing top-ups cannot pass the limit together.
      return moveOwn(tx, userId, at, async (own) => {
        const limit = await readConfigValue(tx, 'topup_daily_limit')
        const today = await toppedUpSince(tx, own.id, `${utcDay(at)}T00:00:00.000Z`)
        if (today + input.amount > limit)
          throw MarketplaceErrors.TOPUP_LIMIT_EXCEEDED({
            limit,
            topped_up_today: today,
            amount: input.amount,
          })
        return {
          type: 'topup',
          balanceDelta: input.amount,
          referenceType: 'topup',
          referenceId: randomUUID(),
          description: `Top-up via ${input.payment_method}`,
        }
      })
    },

    async withdraw(tx: EngineDb, userId: string, input: { amount: number; method: string }, at: Date) {
      const min = await readConfigValue(tx, 'min_withdrawal')
      if (input.amount < min) throw MarketplaceErrors.BELOW_MIN_WITHDRAWAL({ min, amount: input.amount })
      return moveOwn(tx, userId, at, ({ balance }) => {
        if (balance < input.amount)
          throw MarketplaceErrors.INSUFFICIENT_BALANCE({ required: input.amount, available: balance })
        return {
          type: 'withdraw',
          balanceDelta: -input.amount,
          referenceType: 'withdrawal',
          referenceId: randomUUID(),
          description: `Withdrawal via ${input.method}`,
        }
      })
    },

    async transfer(
      tx: EngineDb,
      sender: { id: string; username: string },
      input: { to_user_id: string; amount: number; message?: string | undefined },
      at: Date,
    ) {
      if (input.to_user_id === sender.id) throw MarketplaceErrors.INVALID_TRANSFER()
      const recipient = await findUserById(tx, input.to_user_id)
      // The platform account is not a person, and a disabled account cannot use what it would receive: as on
      // the user lookup, neither is found.
      if (!recipient || recipient.isSystem || recipient.disabled)
        throw CommonErrors.USER_NOT_FOUND({ user_id: input.to_user_id })
      // Both wallets locked in id order: transfers A->B and B->A wait for each other, never deadlock.
      await ledger.lockWallets(tx, [sender.id, recipient.id])
      const own = await ledger.openWallet(tx, sender.id, at)
      if (own.balance < input.amount)
        throw MarketplaceErrors.INSUFFICIENT_BALANCE({ required: input.amount, available: own.balance })
      const transferId = randomUUID()
      const note = input.message ? `: ${input.message}` : ''
      const transaction = await ledger.postEntry(
        tx,
        own,
        {
          type: 'transfer_out',
          balanceDelta: -input.amount,
          spentDelta: input.amount,
          referenceType: 'transfer',
          referenceId: transferId,
          description: `Transfer to ${recipient.username}${note}`,
        },
        at,
      )
      await ledger.creditEarnings(
        tx,
        recipient.id,
        input.amount,
        {
          type: 'transfer_in',
          referenceType: 'transfer',
          referenceId: transferId,
          description: `Transfer from ${sender.username}${note}`,
        },
        at,
      )
      return {
        transaction: presentTransaction(transaction),
        wallet: presentWallet(await ledger.findWallet(tx, own.id)),
      }
    },
  }
}

export type WalletService = ReturnType<typeof createWalletService>
