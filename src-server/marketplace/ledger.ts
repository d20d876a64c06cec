/**
 * The wallet ledger: the only code that changes a wallet. Every change of a wallet's holdings
 * (balance + frozen_balance) is one appended `wallet_transaction` whose `amount` is that change, so for every
 * wallet `balance + frozen_balance == sum(amount)`, and across all wallets the holdings equal top-ups minus
 * withdrawals. Callers run these inside their own `db.transaction`; nothing here commits on its own.
 *
 * The queries are prepared once per database: purchases run a dozen of them, and building and preparing each
 * statement per call cost more than executing it. They run on the one connection, so inside the caller's
 * transaction. A wallet is posted to through the state it was opened with (`OpenedWallet`), which the ledger's
 * writes keep current: an entry's balances after it are computed, not returned by its update (a `RETURNING` row
 * per entry cost a purchase more than reading the one wallet it had not read, the platform's).
 */
import { randomUUID } from 'node:crypto'
import { gt } from 'drizzle-orm'
import type { Db } from '../platform/db'
import { readConfigValueSync } from '../settings'
import { timeOrderedUuid } from './ids'
import {
  type Holds,
  type ReferenceType,
  type TransactionType,
  wallet,
  type walletTransaction,
} from './marketplace.tables'

/** A wallet row as presented; its holds are the ledger's own state (`OpenedWallet`). */
export type WalletRow = Omit<typeof wallet.$inferSelect, 'holds'>
export type TransactionRow = typeof walletTransaction.$inferSelect
/**
 * A wallet as the ledger last read or wrote it, inside the caller's transaction: what posting to it needs (its
 * balances, the seq of its last entry, the day's earnings for the cap, its holds by release day). The ledger's writes keep it current, and
 * each is made only while the stored wallet still holds exactly these balances and seq (else it throws), so an
 * entry's `*_after` columns are known without reading the wallet back. `findWallet` reads the whole row.
 */
export type OpenedWallet = Pick<
  typeof wallet.$inferSelect,
  'id' | 'balance' | 'frozenBalance' | 'lastSeq' | 'earningsDay' | 'earnedOnDay' | 'holds'
>

export interface Entry {
  type: TransactionType
  /** Change of the spendable balance. */
  balanceDelta: number
  /** Change of the frozen balance. */
  frozenDelta?: number
  earnedDelta?: number
  spentDelta?: number
  /** The wallet's holds after this entry, when it changes them (its frozen delta is then held income). */
  holds?: Holds
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
}

/** How an earning is credited: sale income is held until `heldUntil`'s UTC day is over (its refund window). */
export interface EarningTerms {
  heldUntil?: Date
  /** The `daily_earn_cap` setting, when the caller has read it already. */
  dailyEarnCap?: number
}

export const utcDay = (at: Date) => at.toISOString().slice(0, 10)

/** `holds` with `amount` more (or less, when negative) held until `day` is over; a day with nothing is dropped. */
export function changeHold(holds: Holds, day: string, amount: number): Holds {
  const changed = { ...holds, [day]: (holds[day] ?? 0) + amount }
  if (changed[day] === 0) delete changed[day]
  return changed
}

/** A wallet row under the names drizzle gives it, so a plain statement's row is a `WalletRow` as it stands. */
const WALLET_COLUMNS = `id, user_id AS userId, balance, frozen_balance AS frozenBalance, total_earned AS totalEarned,
  total_spent AS totalSpent, last_seq AS lastSeq, earnings_day AS earningsDay, earned_on_day AS earnedOnDay,
  created_at AS createdAt, updated_at AS updatedAt`
/** The columns of an `OpenedWallet`, in the order of `OpenedRow`. */
const OPENED_COLUMNS = 'id, balance, frozen_balance, last_seq, earnings_day, earned_on_day, holds_json'
type OpenedRow = [
  id: string,
  balance: number,
  frozenBalance: number,
  lastSeq: number,
  earningsDay: string | null,
  earnedOnDay: number,
  holdsJson: string,
]

const opened = ([
  id,
  balance,
  frozenBalance,
  lastSeq,
  earningsDay,
  earnedOnDay,
  holdsJson,
]: OpenedRow): OpenedWallet => ({
  id,
  balance,
  frozenBalance,
  lastSeq,
  earningsDay,
  earnedOnDay,
  holds: holdsJson === '{}' ? {} : JSON.parse(holdsJson),
})

/** A write guarded by the wallet's state found nothing to write: something changed the wallet behind the ledger. */
function expectWritten(result: { changes: number }, wallet: OpenedWallet): void {
  if (result.changes !== 1) throw new Error(`wallet ${wallet.id} changed behind its ledger state`)
}

export function createLedger(db: Db) {
  // Plain statements: a drizzle query, even prepared, maps every row and fills every placeholder through its
  // column objects, which cost as much as running the statement. The purchase path's statements also take
  // positional parameters and give rows as arrays: better-sqlite3 looks each named parameter up on its object and
  // names each column of an object row anew for every row, which cost a purchase more than its index writes.
  const sqlite = db.$client
  const walletByUser = sqlite
    .prepare<[userId: string], OpenedRow>(`SELECT ${OPENED_COLUMNS} FROM wallet WHERE user_id = ?`)
    .raw()
  const openedById = sqlite
    .prepare<[id: string], OpenedRow>(`SELECT ${OPENED_COLUMNS} FROM wallet WHERE id = ?`)
    .raw()
  const walletById = sqlite.prepare<[string], WalletRow>(`SELECT ${WALLET_COLUMNS} FROM wallet WHERE id = ?`)
  const insertWallet = sqlite
    .prepare<[id: string, userId: string, createdAt: string, updatedAt: string], OpenedRow>(
      `INSERT INTO wallet (id, user_id, created_at, updated_at) VALUES (?, ?, ?, ?) RETURNING ${OPENED_COLUMNS}`,
    )
    .raw()
  // The new balances, seq and day's earnings as the ledger computed them, written only over the state they were
  // computed from; the totals move by their deltas; the holds only when the entry changes them (null keeps them).
  const applyEntry = sqlite.prepare<
    [
      balance: number,
      frozenBalance: number,
      earnedDelta: number,
      spentDelta: number,
      lastSeq: number,
      earningsDay: string | null,
      earnedOnDay: number,
      holdsJson: string | null,
      at: string,
      walletId: string,
      previousBalance: number,
      previousFrozenBalance: number,
      previousLastSeq: number,
    ]
  >(
    `UPDATE wallet SET balance = ?, frozen_balance = ?, total_earned = total_earned + ?, total_spent = total_spent + ?,
       last_seq = ?, earnings_day = ?, earned_on_day = ?, holds_json = coalesce(?, holds_json), updated_at = ?
     WHERE id = ? AND balance = ? AND frozen_balance = ? AND last_seq = ?`,
  )
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
  const freezeBalance = sqlite.prepare<
    [
      balance: number,
      frozenBalance: number,
      at: string,
      walletId: string,
      previousBalance: number,
      previousFrozenBalance: number,
    ]
  >(
    `UPDATE wallet SET balance = ?, frozen_balance = ?, updated_at = ?
     WHERE id = ? AND balance = ? AND frozen_balance = ?`,
  )
  const recordEarnings = sqlite.prepare<[{ walletId: string; day: string; earned: number; at: string }]>(
    `UPDATE wallet SET earnings_day = @day, earned_on_day = @earned, updated_at = @at WHERE id = @walletId`,
  )

  function findWallet(walletId: string): WalletRow {
    const row = walletById.get(walletId)
    if (!row) throw new Error(`wallet ${walletId} vanished inside its transaction`)
    return row
  }

  /**
   * Appends one entry and applies it to the wallet (with the day's earnings when it earns), and brings `wallet`
   * up to date; the CHECKs on both tables stop a negative balance.
   */
  function post(wallet: OpenedWallet, entry: Entry, at: Date, earnings?: DayEarnings): TransactionRow {
    const frozenDelta = entry.frozenDelta ?? 0
    const balance = wallet.balance + entry.balanceDelta
    const frozenBalance = wallet.frozenBalance + frozenDelta
    const seq = wallet.lastSeq + 1
    const day = earnings ?? { day: wallet.earningsDay, earned: wallet.earnedOnDay }
    const now = at.toISOString()
    expectWritten(
      applyEntry.run(
        balance,
        frozenBalance,
        entry.earnedDelta ?? 0,
        entry.spentDelta ?? 0,
        seq,
        day.day,
        day.earned,
        entry.holds ? JSON.stringify(entry.holds) : null,
        now,
        wallet.id,
        wallet.balance,
        wallet.frozenBalance,
        wallet.lastSeq,
      ),
      wallet,
    )
    Object.assign(wallet, {
      balance,
      frozenBalance,
      lastSeq: seq,
      earningsDay: day.day,
      earnedOnDay: day.earned,
      holds: entry.holds ?? wallet.holds,
    })
    const recorded: TransactionRow = {
      id: timeOrderedUuid(),
      seq,
      walletId: wallet.id,
      type: entry.type,
      amount: entry.balanceDelta + frozenDelta,
      balanceAfter: balance,
      frozenAfter: frozenBalance,
      referenceType: entry.referenceType,
      referenceId: entry.referenceId,
      description: entry.description,
      createdAt: now,
    }
    insertEntry.run(
      recorded.id,
      seq,
      wallet.id,
      recorded.type,
      recorded.amount,
      balance,
      frozenBalance,
      recorded.referenceType,
      recorded.referenceId,
      recorded.description,
      now,
    )
    return recorded
  }

  /**
   * Releases the holds whose day is over (UTC, before `at`'s day): sale income past its refund window, earnings
   * beyond the daily earn cap of an earlier day. Release moves frozen to balance: holdings are unchanged, so its
   * `amount` is 0. Returns whether anything was due.
   */
  function releaseHolds(wallet: OpenedWallet, at: Date): boolean {
    if (wallet.frozenBalance === 0) return false
    const today = utcDay(at)
    let releasable = 0
    const kept: Holds = {}
    for (const [day, amount] of Object.entries(wallet.holds))
      if (day < today) releasable += amount
      else kept[day] = amount
    if (releasable === 0) return false
    post(
      wallet,
      {
        type: 'release',
        balanceDelta: releasable,
        frozenDelta: -releasable,
        holds: kept,
        referenceType: 'earn_cap',
        referenceId: wallet.id,
        description: `Released ${releasable} held points (refund windows and daily earn cap over)`,
      },
      at,
    )
    return true
  }

  /** The user's wallet with any due holds released, or null when they have none yet (none is made). */
  function openExistingWallet(userId: string, at: Date): OpenedWallet | null {
    const row = walletByUser.get(userId)
    if (!row) return null
    const wallet = opened(row)
    releaseHolds(wallet, at)
    return wallet
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

    /** A wallet by its id, for a wallet that never holds income back (the platform's): no holds to release. */
    openWalletWithoutHolds(walletId: string): OpenedWallet {
      const row = openedById.get(walletId)
      if (!row) throw new Error(`wallet ${walletId} vanished inside its transaction`)
      return opened(row)
    },

    postEntry: (wallet: OpenedWallet, entry: Entry, at: Date): TransactionRow => post(wallet, entry, at),

    /** Moves points from balance to frozen_balance inside a purchase; holdings are unchanged, so no entry. */
    freeze(wallet: OpenedWallet, amount: number, at: Date): void {
      const balance = wallet.balance - amount
      const frozenBalance = wallet.frozenBalance + amount
      expectWritten(
        freezeBalance.run(
          balance,
          frozenBalance,
          at.toISOString(),
          wallet.id,
          wallet.balance,
          wallet.frozenBalance,
        ),
        wallet,
      )
      wallet.balance = balance
      wallet.frozenBalance = frozenBalance
    },

    /**
     * Credits earnings (sale income or a received transfer). Sale income (`terms.heldUntil`) is held in
     * frozen_balance until the UTC day of `heldUntil` is over, so a refund inside the window always finds it;
     * a transfer is credited to balance. Whatever goes beyond `daily_earn_cap` for the UTC day is held as a
     * `hold` entry instead, released once that day (or the sale's window, whichever ends later) is over. The
     * day's totals are written by the first entry's update.
     */
    creditEarnings(userId: string, amount: number, entry: EarningEntry, at: Date, terms: EarningTerms = {}) {
      const target = openWallet(userId, at)
      const day = utcDay(at)
      const earnedToday = target.earningsDay === day ? target.earnedOnDay : 0
      const cap = terms.dailyEarnCap ?? readConfigValueSync(db, 'daily_earn_cap')
      const credited = Math.min(amount, Math.max(0, cap - earnedToday))
      const held = amount - credited
      const earnings: DayEarnings = { day, earned: earnedToday + amount }
      const holdDay = terms.heldUntil ? utcDay(terms.heldUntil) : day
      const posts: Entry[] = []
      let holds = target.holds
      if (credited > 0 && terms.heldUntil) {
        holds = changeHold(holds, holdDay, credited)
        posts.push({
          ...entry,
          balanceDelta: 0,
          frozenDelta: credited,
          earnedDelta: credited,
          holds,
          description: `${entry.description} (held until the refund window is over, ${holdDay})`,
        })
      } else if (credited > 0) posts.push({ ...entry, balanceDelta: credited, earnedDelta: credited })
      if (held > 0) {
        holds = changeHold(holds, holdDay, held)
        posts.push({
          ...entry,
          type: 'hold',
          balanceDelta: 0,
          frozenDelta: held,
          earnedDelta: held,
          holds,
          description: `${entry.description} (${held} points held by the daily earn cap)`,
        })
      }
      // With nothing to post, the day's totals are written alone.
      if (posts.length === 0) {
        recordEarnings.run({ walletId: target.id, ...earnings, at: at.toISOString() })
        Object.assign(target, { earningsDay: day, earnedOnDay: earnings.earned })
        return []
      }
      return posts.map((posted) => post(target, posted, at, earnings))
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
