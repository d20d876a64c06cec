/**
 * The wallet ledger: the only code that changes a wallet. Every change of a wallet's holdings
 * (balance + frozen_balance) is one appended `wallet_transaction` whose `amount` is that change, so for every
 * wallet `balance + frozen_balance == sum(amount)`, and across all wallets the holdings equal top-ups minus
 * withdrawals. Callers run these inside their own `db.transaction`; nothing here commits on its own.
 *
 * The queries are prepared once per database: purchases run a dozen of them, and building and preparing each
 * statement per call cost more than executing it. They run on the one connection, so inside the caller's
 * transaction.
 */
import { randomUUID } from 'node:crypto'
import { gt } from 'drizzle-orm'
import type { Db } from '../db'
import { readConfigValue } from '../settings'
import { timeOrderedUuid } from './ids'
import {
  type ReferenceType,
  type TransactionType,
  wallet,
  type walletTransaction,
} from './marketplace.tables'

export type WalletRow = typeof wallet.$inferSelect
export type TransactionRow = typeof walletTransaction.$inferSelect

export interface Entry {
  type: TransactionType
  /** Change of the spendable balance. */
  balanceDelta: number
  /** Change of the frozen balance. */
  frozenDelta?: number
  earnedDelta?: number
  spentDelta?: number
  referenceType: ReferenceType
  referenceId: string
  description: string
}

export type EarningEntry = Omit<Entry, 'balanceDelta' | 'frozenDelta' | 'earnedDelta' | 'spentDelta'> & {
  type: 'income' | 'transfer_in'
}

const utcDay = (at: Date) => at.toISOString().slice(0, 10)

/** A wallet row under the names drizzle gives it, so a plain statement's row is a `WalletRow` as it stands. */
const WALLET_COLUMNS = `id, user_id AS userId, balance, frozen_balance AS frozenBalance, total_earned AS totalEarned,
  total_spent AS totalSpent, last_seq AS lastSeq, earnings_day AS earningsDay, earned_on_day AS earnedOnDay,
  held_on_day AS heldOnDay, created_at AS createdAt, updated_at AS updatedAt`

export function createLedger(db: Db) {
  // Plain statements: a drizzle query, even prepared, maps every row and fills every placeholder through its
  // column objects, which cost as much as running the statement.
  const sqlite = db.$client
  const walletByUser = sqlite.prepare<[string], WalletRow>(
    `SELECT ${WALLET_COLUMNS} FROM wallet WHERE user_id = ?`,
  )
  const walletById = sqlite.prepare<[string], WalletRow>(`SELECT ${WALLET_COLUMNS} FROM wallet WHERE id = ?`)
  const insertWallet = sqlite.prepare<[{ id: string; userId: string; at: string }], WalletRow>(
    `INSERT INTO wallet (id, user_id, created_at, updated_at) VALUES (@id, @userId, @at, @at)
     RETURNING ${WALLET_COLUMNS}`,
  )
  const applyEntry = sqlite.prepare<
    [
      {
        walletId: string
        balanceDelta: number
        frozenDelta: number
        earnedDelta: number
        spentDelta: number
        at: string
      },
    ],
    WalletRow
  >(
    `UPDATE wallet SET balance = balance + @balanceDelta, frozen_balance = frozen_balance + @frozenDelta,
       total_earned = total_earned + @earnedDelta, total_spent = total_spent + @spentDelta,
       last_seq = last_seq + 1, updated_at = @at
     WHERE id = @walletId RETURNING ${WALLET_COLUMNS}`,
  )
  const insertEntry = sqlite.prepare<[TransactionRow]>(
    `INSERT INTO wallet_transaction (id, seq, wallet_id, type, amount, balance_after, frozen_after, reference_type,
       reference_id, description, created_at)
     VALUES (@id, @seq, @walletId, @type, @amount, @balanceAfter, @frozenAfter, @referenceType, @referenceId,
       @description, @createdAt)`,
  )
  const freezeBalance = sqlite.prepare<[{ walletId: string; amount: number; at: string }]>(
    `UPDATE wallet SET balance = balance - @amount, frozen_balance = frozen_balance + @amount, updated_at = @at
     WHERE id = @walletId`,
  )
  const recordEarnings = sqlite.prepare<
    [{ walletId: string; day: string; earned: number; held: number; at: string }]
  >(
    `UPDATE wallet SET earnings_day = @day, earned_on_day = @earned, held_on_day = @held, updated_at = @at
     WHERE id = @walletId`,
  )

  function findWallet(walletId: string): WalletRow {
    const row = walletById.get(walletId)
    if (!row) throw new Error(`wallet ${walletId} vanished inside its transaction`)
    return row
  }

  /** Whether the user has a wallet yet (one is made on their first wallet operation). */
  function hasWallet(userId: string): boolean {
    return walletByUser.get(userId) !== undefined
  }

  /** The user's wallet, created on first use. */
  function ensureWallet(userId: string, at: Date): WalletRow {
    return (
      walletByUser.get(userId) ??
      (insertWallet.get({ id: randomUUID(), userId, at: at.toISOString() }) as WalletRow)
    )
  }

  /**
   * Appends one entry and applies it to the wallet; the CHECKs on both tables stop a negative balance. Returns the
   * entry and the wallet as it now is, so nobody reads the wallet again.
   */
  function applyAndRecord(
    walletId: string,
    entry: Entry,
    at: Date,
  ): { wallet: WalletRow; entry: TransactionRow } {
    const frozenDelta = entry.frozenDelta ?? 0
    const now = at.toISOString()
    const updated = applyEntry.get({
      walletId,
      balanceDelta: entry.balanceDelta,
      frozenDelta,
      earnedDelta: entry.earnedDelta ?? 0,
      spentDelta: entry.spentDelta ?? 0,
      at: now,
    })
    if (!updated) throw new Error(`wallet ${walletId} vanished inside its transaction`)
    // Every column is known here: the entry is written as it is returned, without reading it back.
    const recorded: TransactionRow = {
      id: timeOrderedUuid(),
      seq: updated.lastSeq,
      walletId,
      type: entry.type,
      amount: entry.balanceDelta + frozenDelta,
      balanceAfter: updated.balance,
      frozenAfter: updated.frozenBalance,
      referenceType: entry.referenceType,
      referenceId: entry.referenceId,
      description: entry.description,
      createdAt: now,
    }
    insertEntry.run(recorded)
    return { wallet: updated, entry: recorded }
  }

  function postEntry(walletId: string, entry: Entry, at: Date): TransactionRow {
    return applyAndRecord(walletId, entry, at).entry
  }

  /**
   * Releases income held back by the daily earn cap on days before `at` (UTC). At rest (outside a purchase's
   * transient freeze) the frozen balance is exactly the income still held, so what may be released is the
   * frozen balance minus what was held today. Release moves frozen to balance: holdings are unchanged, so its
   * `amount` is 0. Returns the wallet after the release, or null when nothing was due.
   */
  function releaseHolds(row: WalletRow, at: Date): WalletRow | null {
    if (row.frozenBalance === 0) return null
    const heldToday = row.earningsDay === utcDay(at) ? row.heldOnDay : 0
    const releasable = row.frozenBalance - heldToday
    if (releasable <= 0) return null
    return applyAndRecord(
      row.id,
      {
        type: 'release',
        balanceDelta: releasable,
        frozenDelta: -releasable,
        referenceType: 'earn_cap',
        referenceId: row.id,
        description: `Released ${releasable} points held by the daily earn cap`,
      },
      at,
    ).wallet
  }

  /** The user's wallet with any due holds released: how every wallet operation starts. */
  function openWallet(userId: string, at: Date): WalletRow {
    const row = ensureWallet(userId, at)
    return releaseHolds(row, at) ?? row
  }

  return {
    findWallet,
    hasWallet,
    openWallet,

    postEntry,

    /** Moves points from balance to frozen_balance inside a purchase; holdings are unchanged, so no entry. */
    freeze(walletId: string, amount: number, at: Date): void {
      freezeBalance.run({ walletId, amount, at: at.toISOString() })
    },

    /**
     * Credits earnings (sale income or a received transfer). Whatever goes beyond `daily_earn_cap` for the UTC
     * day is credited to frozen_balance as a `hold` entry instead, released once the day is over.
     */
    creditEarnings(userId: string, amount: number, entry: EarningEntry, at: Date): TransactionRow[] {
      const target = openWallet(userId, at)
      const day = utcDay(at)
      const sameDay = target.earningsDay === day
      const earnedToday = sameDay ? target.earnedOnDay : 0
      const credited = Math.min(amount, Math.max(0, readConfigValue(db, 'daily_earn_cap') - earnedToday))
      const held = amount - credited
      recordEarnings.run({
        walletId: target.id,
        day,
        earned: earnedToday + amount,
        held: (sameDay ? target.heldOnDay : 0) + held,
        at: at.toISOString(),
      })
      const rows: TransactionRow[] = []
      if (credited > 0)
        rows.push(postEntry(target.id, { ...entry, balanceDelta: credited, earnedDelta: credited }, at))
      if (held > 0)
        rows.push(
          postEntry(
            target.id,
            {
              ...entry,
              type: 'hold',
              balanceDelta: 0,
              frozenDelta: held,
              earnedDelta: held,
              description: `${entry.description} (${held} points held by the daily earn cap)`,
            },
            at,
          ),
        )
      return rows
    },

    /** The periodic sweep: releases due holds of every wallet that has any, each in its own transaction. */
    releaseDueHolds(at: Date): number {
      const held = db.select({ userId: wallet.userId }).from(wallet).where(gt(wallet.frozenBalance, 0)).all()
      let released = 0
      for (const { userId } of held)
        db.transaction(() => {
          if (releaseHolds(ensureWallet(userId, at), at)) released += 1
        })
      return released
    },
  }
}

export type Ledger = ReturnType<typeof createLedger>
