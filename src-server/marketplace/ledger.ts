/**
 * The wallet ledger: the only code that changes a wallet. Every change of a wallet's holdings
 * (balance + frozen_balance) is one appended `wallet_transaction` whose `amount` is that change, so for every
 * wallet `balance + frozen_balance == sum(amount)`, and across all wallets the holdings equal top-ups minus
 * withdrawals. Callers run these inside their own `database.transact` and pass its `tx`; nothing here commits on
 * its own. A money-moving transaction first locks the wallets it moves money between (`lockWallets` or
 * `lockAndRead`, in id order on PostgreSQL; nothing on SQLite, whose transactions run one at a time), and the
 * platform's last: a refund reads it, a purchase's commission update locks it (`creditWithoutReading`).
 *
 * The statements are `wallet.repository.ts`'s, prepared once on SQLite. A wallet is posted to through the state it
 * was opened with (`OpenedWallet`), which the ledger's writes keep current: an entry's balances after it are
 * computed, not returned by its update. Each write is made only while the stored wallet still holds exactly that
 * state (else it throws), so an entry's `*_after` columns are known without reading the wallet back. The one
 * exception is the commission: every purchase credits the platform's wallet, so it is not read first; its update
 * moves the stored row by the fee and returns the balances the entry records.
 */
import { randomUUID } from 'node:crypto'
import { andThen, type Database, type EngineDb, type Maybe } from '../platform/db'
import { readConfigValue } from '../settings'
import { timeOrderedUuid } from './ids'
import type { Holds, ReferenceType, TransactionType } from './marketplace.tables'
import { type OpenedWallet, type TransactionRow, walletStatements } from './wallet.repository'

export type { OpenedWallet, TransactionRow, WalletRow } from './wallet.repository'

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
  /**
   * The target's wallet as the caller locked and read it already (`lockAndRead`), its due holds not yet released;
   * absent when the caller has not read it, null when it had none (then it is read or made here).
   */
  wallet?: OpenedWallet | null
}

export const utcDay = (at: Date) => at.toISOString().slice(0, 10)

/** `holds` with `amount` more (or less, when negative) held until `day` is over; a day with nothing is dropped. */
export function changeHold(holds: Holds, day: string, amount: number): Holds {
  const changed = { ...holds, [day]: (holds[day] ?? 0) + amount }
  if (changed[day] === 0) delete changed[day]
  return changed
}

/** A write guarded by the wallet's state found nothing to write: something changed the wallet behind the ledger. */
function expectWritten(written: boolean, wallet: OpenedWallet): void {
  if (!written) throw new Error(`wallet ${wallet.id} changed behind its ledger state`)
}

const vanished = (walletId: string) => new Error(`wallet ${walletId} vanished inside its transaction`)

/**
 * Appends one entry and applies it to the wallet (with the day's earnings when it earns), and brings `wallet`
 * up to date; the CHECKs on both tables stop a negative balance. At once on SQLite (no promise), a promise on
 * PostgreSQL.
 */
function post(
  tx: EngineDb,
  wallet: OpenedWallet,
  entry: Entry,
  at: Date,
  earnings?: DayEarnings,
): Maybe<TransactionRow> {
  const statements = walletStatements(tx)
  const frozenDelta = entry.frozenDelta ?? 0
  const balance = wallet.balance + entry.balanceDelta
  const frozenBalance = wallet.frozenBalance + frozenDelta
  const seq = wallet.lastSeq + 1
  const day = earnings ?? { day: wallet.earningsDay, earned: wallet.earnedOnDay }
  const now = at.toISOString()
  const applied = statements.applyEntry({
    balance,
    frozenBalance,
    earnedDelta: entry.earnedDelta ?? 0,
    spentDelta: entry.spentDelta ?? 0,
    lastSeq: seq,
    earningsDay: day.day,
    earnedOnDay: day.earned,
    holds: entry.holds ?? null,
    at: now,
    previous: wallet,
  })
  return andThen(applied, (written) => {
    expectWritten(written, wallet)
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
    return andThen(statements.insertEntry(recorded), () => recorded)
  })
}

/**
 * Whether any of the wallet's holds is due (its UTC day over before `at`'s day): asked before `releaseHolds`, as
 * nothing is due in almost every purchase, and on SQLite every async call and await costs a purchase CPU of its
 * own (the statements themselves run at once).
 */
function holdsDue(wallet: OpenedWallet, at: Date): boolean {
  if (wallet.frozenBalance === 0) return false
  const today = utcDay(at)
  for (const day in wallet.holds) if (day < today) return true
  return false
}

/**
 * Releases the holds whose day is over (UTC, before `at`'s day): sale income past its refund window, earnings
 * beyond the daily earn cap of an earlier day. Release moves frozen to balance: holdings are unchanged, so its
 * `amount` is 0. Returns whether anything was due.
 */
async function releaseHolds(tx: EngineDb, wallet: OpenedWallet, at: Date): Promise<boolean> {
  if (!holdsDue(wallet, at)) return false
  const today = utcDay(at)
  let releasable = 0
  const kept: Holds = {}
  for (const [day, amount] of Object.entries(wallet.holds))
    if (day < today) releasable += amount
    else kept[day] = amount
  if (releasable === 0) return false
  await post(
    tx,
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

/** The wallet, with its due holds released when it has any: at once on SQLite when none are due (no promise). */
const releasedIfDue = (tx: EngineDb, wallet: OpenedWallet, at: Date): Maybe<OpenedWallet> =>
  holdsDue(wallet, at) ? releaseHolds(tx, wallet, at).then(() => wallet) : wallet

/** The user's wallet, made on first use, with any due holds released: how every wallet operation starts. */
function openWallet(tx: EngineDb, userId: string, at: Date): Maybe<OpenedWallet> {
  const statements = walletStatements(tx)
  // A wallet just made may have been made by a transaction that ran alongside (PostgreSQL), with due holds too.
  const wallet = andThen(
    statements.openedByUser(userId),
    (found) => found ?? statements.insertWallet(randomUUID(), userId, at.toISOString()),
  )
  return andThen(wallet, (opened) => releasedIfDue(tx, opened, at))
}

export function createLedger(database: Database) {
  return {
    /**
     * Locks the wallets of these users until the transaction ends, in id order: the first thing a transaction
     * that moves money between wallets does (PostgreSQL; nothing to do on SQLite).
     */
    lockWallets: (tx: EngineDb, userIds: string[]) => walletStatements(tx).lockWallets(userIds),

    /**
     * `lockWallets` that reads the wallets too, in the same statement: each user's wallet by user id, as stored
     * (its due holds not released: `withDueHoldsReleased`), none made.
     */
    lockAndRead: (tx: EngineDb, userIds: string[]) => walletStatements(tx).lockedByUsers(userIds),

    /** A wallet read by `lockAndRead`, with its due holds released. */
    withDueHoldsReleased: releasedIfDue,

    async findWallet(tx: EngineDb, walletId: string) {
      const row = await walletStatements(tx).walletById(walletId)
      if (!row) throw vanished(walletId)
      return row
    },

    openWallet,

    postEntry: (tx: EngineDb, wallet: OpenedWallet, entry: Entry, at: Date) => post(tx, wallet, entry, at),

    /**
     * Credits an earning to the balance of a wallet that holds nothing back (the platform's) without reading it
     * first: its update moves the stored row by the amount. On PostgreSQL that update, sent with the purchase's
     * other writes, is what locks the wallet: a purchase holds the platform's row for one statement and the commit.
     */
    creditWithoutReading(
      tx: EngineDb,
      walletId: string,
      amount: number,
      entry: Pick<Entry, 'referenceType' | 'referenceId' | 'description'> & { type: 'commission' },
      at: Date,
    ): Maybe<void> {
      const credited = walletStatements(tx).creditUnread({
        id: timeOrderedUuid(),
        walletId,
        type: entry.type,
        amount,
        referenceType: entry.referenceType,
        referenceId: entry.referenceId,
        description: entry.description,
        createdAt: at.toISOString(),
      })
      return andThen(credited, (found) => {
        if (!found) throw vanished(walletId)
      })
    },

    /** Moves points from balance to frozen_balance inside a purchase; holdings are unchanged, so no entry. */
    freeze(tx: EngineDb, wallet: OpenedWallet, amount: number, at: Date): Maybe<void> {
      const next = { balance: wallet.balance - amount, frozenBalance: wallet.frozenBalance + amount }
      return andThen(walletStatements(tx).freeze(next, wallet, at.toISOString()), (written) => {
        expectWritten(written, wallet)
        Object.assign(wallet, next)
      })
    },

    /**
     * Credits earnings (sale income or a received transfer). Sale income (`terms.heldUntil`) is held in
     * frozen_balance until the UTC day of `heldUntil` is over, so a refund inside the window always finds it;
     * a transfer is credited to balance. Whatever goes beyond `daily_earn_cap` for the UTC day is held as a
     * `hold` entry instead, released once that day (or the sale's window, whichever ends later) is over. The
     * day's totals are written by the first entry's update.
     */
    async creditEarnings(
      tx: EngineDb,
      userId: string,
      amount: number,
      entry: EarningEntry,
      at: Date,
      terms: EarningTerms = {},
    ): Promise<TransactionRow[]> {
      const target = terms.wallet
        ? await releasedIfDue(tx, terms.wallet, at)
        : await openWallet(tx, userId, at)
      const day = utcDay(at)
      const earnedToday = target.earningsDay === day ? target.earnedOnDay : 0
      const cap = terms.dailyEarnCap ?? (await readConfigValue(tx, 'daily_earn_cap'))
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
        await walletStatements(tx).recordEarnings(target.id, day, earnings.earned, at.toISOString())
        Object.assign(target, { earningsDay: day, earnedOnDay: earnings.earned })
        return []
      }
      const recorded: TransactionRow[] = []
      for (const posted of posts) recorded.push(await post(tx, target, posted, at, earnings))
      return recorded
    },

    /** The periodic sweep: releases due holds of every wallet that has any, each in its own transaction. */
    async releaseDueHolds(at: Date): Promise<number> {
      const held = await database.transact(async (tx) => walletStatements(tx).usersWithFrozen())
      let released = 0
      for (const userId of held)
        if (
          await database.transact(async (tx) => {
            const wallet = await walletStatements(tx).openedByUser(userId)
            return wallet !== null && (await releaseHolds(tx, wallet, at))
          })
        )
          released += 1
      return released
    },
  }
}

export type Ledger = ReturnType<typeof createLedger>
