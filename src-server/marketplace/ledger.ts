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
/**
 * What posting to a wallet needs of it: its id, its balances and the day's earnings for the cap. Reads and writes
 * of the ledger return only these (a wide row costs a JS property per column); `findWallet` reads the whole row.
 */
export type OpenedWallet = Pick<
  WalletRow,
  'id' | 'balance' | 'frozenBalance' | 'earningsDay' | 'earnedOnDay' | 'heldOnDay'
>

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

/** The wallet's earnings on a UTC day, for the daily earn cap, written with the entry that earns them. */
interface DayEarnings {
  day: string
  earned: number
  held: number
}

const utcDay = (at: Date) => at.toISOString().slice(0, 10)

/** A wallet row under the names drizzle gives it, so a plain statement's row is a `WalletRow` as it stands. */
const WALLET_COLUMNS = `id, user_id AS userId, balance, frozen_balance AS frozenBalance, total_earned AS totalEarned,
  total_spent AS totalSpent, last_seq AS lastSeq, earnings_day AS earningsDay, earned_on_day AS earnedOnDay,
  held_on_day AS heldOnDay, created_at AS createdAt, updated_at AS updatedAt`
/** The columns of an `OpenedWallet`, in the order of `OpenedRow`. */
const OPENED_COLUMNS = 'id, balance, frozen_balance, earnings_day, earned_on_day, held_on_day'
type OpenedRow = [
  id: string,
  balance: number,
  frozenBalance: number,
  earningsDay: string | null,
  earnedOnDay: number,
  heldOnDay: number,
]

/** An `OpenedWallet` from a row that starts with `OPENED_COLUMNS`. */
const opened = ([id, balance, frozenBalance, earningsDay, earnedOnDay, heldOnDay]: [
  ...OpenedRow,
  ...unknown[],
]): OpenedWallet => ({
  id,
  balance,
  frozenBalance,
  earningsDay,
  earnedOnDay,
  heldOnDay,
})

export function createLedger(db: Db) {
  // Plain statements: a drizzle query, even prepared, maps every row and fills every placeholder through its
  // column objects, which cost as much as running the statement. The purchase path's statements also take
  // positional parameters and give rows as arrays: better-sqlite3 looks each named parameter up on its object and
  // names each column of an object row anew for every row, which cost a purchase more than its index writes.
  const sqlite = db.$client
  const walletByUser = sqlite
    .prepare<[string], OpenedRow>(`SELECT ${OPENED_COLUMNS} FROM wallet WHERE user_id = ?`)
    .raw()
  const walletById = sqlite.prepare<[string], WalletRow>(`SELECT ${WALLET_COLUMNS} FROM wallet WHERE id = ?`)
  const insertWallet = sqlite
    .prepare<[id: string, userId: string, createdAt: string, updatedAt: string], OpenedRow>(
      `INSERT INTO wallet (id, user_id, created_at, updated_at) VALUES (?, ?, ?, ?) RETURNING ${OPENED_COLUMNS}`,
    )
    .raw()
  // The day's earnings columns change only with an entry that earns (null: kept as they are).
  const applyEntry = sqlite
    .prepare<
      [
        balanceDelta: number,
        frozenDelta: number,
        earnedDelta: number,
        spentDelta: number,
        day: string | null,
        earnedOnDay: number | null,
        heldOnDay: number | null,
        at: string,
        walletId: string,
      ],
      [...OpenedRow, lastSeq: number]
    >(
      `UPDATE wallet SET balance = balance + ?, frozen_balance = frozen_balance + ?, total_earned = total_earned + ?,
         total_spent = total_spent + ?, last_seq = last_seq + 1, earnings_day = coalesce(?, earnings_day),
         earned_on_day = coalesce(?, earned_on_day), held_on_day = coalesce(?, held_on_day), updated_at = ?
       WHERE id = ? RETURNING ${OPENED_COLUMNS}, last_seq`,
    )
    .raw()
  const insertEntry = sqlite.prepare<
    [
      id: string,
      seq: number,
      walletId: string,
      type: TransactionType,
      amount: number,
      balanceAfter: number,
      frozenAfter: number,
      referenceType: ReferenceType,
      referenceId: string,
      description: string,
      createdAt: string,
    ]
  >(
    `INSERT INTO wallet_transaction (id, seq, wallet_id, type, amount, balance_after, frozen_after, reference_type,
       reference_id, description, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const freezeBalance = sqlite.prepare<[amount: number, sameAmount: number, at: string, walletId: string]>(
    'UPDATE wallet SET balance = balance - ?, frozen_balance = frozen_balance + ?, updated_at = ? WHERE id = ?',
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

  /**
   * Appends one entry and applies it to the wallet (with the day's earnings when it earns); the CHECKs on both
   * tables stop a negative balance. Returns the entry and the wallet as it now is, so nobody reads the wallet
   * again.
   */
  function applyAndRecord(
    walletId: string,
    entry: Entry,
    at: Date,
    earnings?: DayEarnings,
  ): { wallet: OpenedWallet; entry: TransactionRow } {
    const frozenDelta = entry.frozenDelta ?? 0
    const now = at.toISOString()
    const updated = applyEntry.get(
      entry.balanceDelta,
      frozenDelta,
      entry.earnedDelta ?? 0,
      entry.spentDelta ?? 0,
      earnings?.day ?? null,
      earnings?.earned ?? null,
      earnings?.held ?? null,
      now,
      walletId,
    )
    if (!updated) throw new Error(`wallet ${walletId} vanished inside its transaction`)
    const wallet = opened(updated)
    // Every column is known here: the entry is written as it is returned, without reading it back.
    const recorded: TransactionRow = {
      id: timeOrderedUuid(),
      seq: updated[6], // last_seq, after the opened columns
      walletId,
      type: entry.type,
      amount: entry.balanceDelta + frozenDelta,
      balanceAfter: wallet.balance,
      frozenAfter: wallet.frozenBalance,
      referenceType: entry.referenceType,
      referenceId: entry.referenceId,
      description: entry.description,
      createdAt: now,
    }
    insertEntry.run(
      recorded.id,
      recorded.seq,
      walletId,
      recorded.type,
      recorded.amount,
      recorded.balanceAfter,
      recorded.frozenAfter,
      recorded.referenceType,
      recorded.referenceId,
      recorded.description,
      now,
    )
    return { wallet, entry: recorded }
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
  function releaseHolds(row: OpenedWallet, at: Date): OpenedWallet | null {
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

  /** The user's wallet with any due holds released, or null when they have none yet (none is made). */
  function openExistingWallet(userId: string, at: Date): OpenedWallet | null {
    const row = walletByUser.get(userId)
    if (!row) return null
    const wallet = opened(row)
    return releaseHolds(wallet, at) ?? wallet
  }

  /** The user's wallet, made on first use, with any due holds released: how every wallet operation starts. */
  function openWallet(userId: string, at: Date): OpenedWallet {
    const existing = openExistingWallet(userId, at)
    if (existing) return existing
    const now = at.toISOString()
    return opened(insertWallet.get(randomUUID(), userId, now, now) as OpenedRow)
  }

  return {
    findWallet,
    openExistingWallet,
    openWallet,

    postEntry,

    /** Moves points from balance to frozen_balance inside a purchase; holdings are unchanged, so no entry. */
    freeze(walletId: string, amount: number, at: Date): void {
      freezeBalance.run(amount, amount, at.toISOString(), walletId)
    },

    /**
     * Credits earnings (sale income or a received transfer). Whatever goes beyond `daily_earn_cap` for the UTC
     * day is credited to frozen_balance as a `hold` entry instead, released once the day is over. The day's
     * totals are written by the first entry's update.
     */
    creditEarnings(userId: string, amount: number, entry: EarningEntry, at: Date): TransactionRow[] {
      const target = openWallet(userId, at)
      const day = utcDay(at)
      const sameDay = target.earningsDay === day
      const earnedToday = sameDay ? target.earnedOnDay : 0
      const credited = Math.min(amount, Math.max(0, readConfigValue(db, 'daily_earn_cap') - earnedToday))
      const held = amount - credited
      const earnings: DayEarnings = {
        day,
        earned: earnedToday + amount,
        held: (sameDay ? target.heldOnDay : 0) + held,
      }
      const posts: Entry[] = []
      if (credited > 0) posts.push({ ...entry, balanceDelta: credited, earnedDelta: credited })
      if (held > 0)
        posts.push({
          ...entry,
          type: 'hold',
          balanceDelta: 0,
          frozenDelta: held,
          earnedDelta: held,
          description: `${entry.description} (${held} points held by the daily earn cap)`,
        })
      // With nothing to post, the day's totals are written alone.
      if (posts.length === 0) recordEarnings.run({ walletId: target.id, ...earnings, at: at.toISOString() })
      return posts.map(
        (posted, i) => applyAndRecord(target.id, posted, at, i === 0 ? earnings : undefined).entry,
      )
    },

    /** The periodic sweep: releases due holds of every wallet that has any, each in its own transaction. */
    releaseDueHolds(at: Date): number {
      const held = db.select({ userId: wallet.userId }).from(wallet).where(gt(wallet.frozenBalance, 0)).all()
      let released = 0
      for (const { userId } of held)
        db.transaction(() => {
          const row = walletByUser.get(userId)
          if (row && releaseHolds(opened(row), at)) released += 1
        })
      return released
    },
  }
}

export type Ledger = ReturnType<typeof createLedger>
