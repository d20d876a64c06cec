import { randomUUID } from 'node:crypto'
import { findUserByIdSync } from '../auth'
import type { Db } from '../platform/db'
import { CommonErrors } from '../platform/errors'
import type { PageQuery } from '../platform/http'
import { readConfigValueSync } from '../settings'
import { listTransactionHistory, toppedUpSince } from './history.repository'
import { type Entry, type Ledger, type OpenedWallet, utcDay } from './ledger'
import { MarketplaceErrors } from './marketplace.errors'
import { presentTransaction, presentWallet } from './marketplace.presenters'
import type { TransactionType } from './marketplace.tables'

export const SIMULATED_PAYMENT_METHOD = 'simulated'

export function createWalletService(db: Db, ledger: Ledger) {
  /** One balance-changing entry on the user's own wallet, answered as `{transaction, wallet}`. */
  function moveOwn(userId: string, at: Date, entry: (own: OpenedWallet) => Entry) {
    return db.transaction(() => {
      const own = ledger.openWallet(userId, at)
      const transaction = ledger.postEntry(own, entry(own), at)
      return {
        transaction: presentTransaction(transaction),
        wallet: presentWallet(ledger.findWallet(own.id)),
      }
    })
  }

  return {
    read(userId: string, at: Date) {
      return presentWallet(db.transaction(() => ledger.findWallet(ledger.openWallet(userId, at).id)))
    },

    transactions(userId: string, query: PageQuery & { type?: TransactionType | undefined }, at: Date) {
      const own = db.transaction(() => ledger.openWallet(userId, at))
      return listTransactionHistory(db, own, userId, query)
    },

    topUp(userId: string, input: { amount: number; payment_method: string }, at: Date) {
      if (input.payment_method !== SIMULATED_PAYMENT_METHOD)
        throw MarketplaceErrors.UNSUPPORTED_PAYMENT_METHOD({
          payment_method: input.payment_method,
          supported: [SIMULATED_PAYMENT_METHOD],
        })
      if (!readConfigValueSync(db, 'simulated_topup_enabled'))
        throw MarketplaceErrors.TOPUP_DISABLED({ payment_method: input.payment_method })
      // Checked and written in one transaction: racing top-ups cannot pass the limit together.
      return moveOwn(userId, at, (own) => {
        const limit = readConfigValueSync(db, 'topup_daily_limit')
        const today = toppedUpSince(db, own.id, `${utcDay(at)}T00:00:00.000Z`)
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

    withdraw(userId: string, input: { amount: number; method: string }, at: Date) {
      const min = readConfigValueSync(db, 'min_withdrawal')
      if (input.amount < min) throw MarketplaceErrors.BELOW_MIN_WITHDRAWAL({ min, amount: input.amount })
      return moveOwn(userId, at, ({ balance }) => {
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

    transfer(
      sender: { id: string; username: string },
      input: { to_user_id: string; amount: number; message?: string | undefined },
      at: Date,
    ) {
      if (input.to_user_id === sender.id) throw MarketplaceErrors.INVALID_TRANSFER()
      return db.transaction(() => {
        const recipient = findUserByIdSync(db, input.to_user_id)
        // The platform account is not a person, and a disabled account cannot use what it would receive: as on
        // the user lookup, neither is found.
        if (!recipient || recipient.isSystem || recipient.disabled)
          throw CommonErrors.USER_NOT_FOUND({ user_id: input.to_user_id })
        const own = ledger.openWallet(sender.id, at)
        if (own.balance < input.amount)
          throw MarketplaceErrors.INSUFFICIENT_BALANCE({ required: input.amount, available: own.balance })
        const transferId = randomUUID()
        const note = input.message ? `: ${input.message}` : ''
        const transaction = ledger.postEntry(
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
        ledger.creditEarnings(
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
          wallet: presentWallet(ledger.findWallet(own.id)),
        }
      })
    },
  }
}

export type WalletService = ReturnType<typeof createWalletService>
