/**
 * The ledger's statements on wallets and their entries, per engine: what `ledger.ts` runs inside the caller's
 * transaction. On SQLite they are plain statements prepared once on the writer and run at once (a drizzle query,
 * even prepared, maps every row and fills every placeholder through its column objects, which cost as much as
 * running the statement; rows come as arrays, parameters by position). On PostgreSQL each wallet is read with
 * `FOR UPDATE`: the row stays locked until the transaction ends, so a balance read and the write it guards cannot
 * interleave with another transaction's, on this instance or another. `lockWallets` takes the locks of all the
 * wallets a transaction moves money between, in id order, before it reads any, so two transfers A->B and B->A
 * wait for each other instead of deadlocking.
 *
 * Functions return a value on SQLite and a promise on PostgreSQL (`Maybe`): the ledger chains them with `andThen`,
 * which on SQLite goes on at once, so a purchase makes no promise per statement. On PostgreSQL the writes are held
 * back while a purchase defers them (deferred-writes.ts), and any other statement sends what is held first.
 */
import { type SQL, sql } from 'drizzle-orm'
import { andThen, type Db, type EngineDb, isPostgres, type Maybe, perHandle, runSql } from '../platform/db'
import {
  addWalletUpdate,
  deferredWritesOf,
  noWrites,
  runWrites,
  sendDeferredWrites,
  type UnreadEntry,
  type Writes,
} from './deferred-writes'
import type { Holds, ReferenceType, TransactionType, wallet, walletTransaction } from './marketplace.tables'

/** A wallet row as presented; its holds are the ledger's own state (`OpenedWallet`). */
export type WalletRow = Omit<typeof wallet.$inferSelect, 'holds'>
export type TransactionRow = typeof walletTransaction.$inferSelect

/**
 * A wallet as the ledger last read or wrote it, inside the caller's transaction: what posting to it needs (its
 * balances, the seq of its last entry, the day's earnings for the cap, its holds by release day).
 */
export type OpenedWallet = Pick<
  typeof wallet.$inferSelect,
  'id' | 'balance' | 'frozenBalance' | 'lastSeq' | 'earningsDay' | 'earnedOnDay' | 'holds'
>

/** An entry's write of its wallet: the new state, written only over the state it was computed from. */
export interface WalletUpdate {
  balance: number
  frozenBalance: number
  earnedDelta: number
  spentDelta: number
  lastSeq: number
  earningsDay: string | null
  earnedOnDay: number
  /** The holds after the entry, or null when it keeps them. */
  holds: Holds | null
  at: string
  previous: Pick<OpenedWallet, 'id' | 'balance' | 'frozenBalance' | 'lastSeq'>
}

export interface WalletStatements {
  /** Locks the wallets of these users (those that exist) in id order until the transaction ends. */
  lockWallets(userIds: string[]): Maybe<void>
  /** `lockWallets` that also reads them, in one statement: the wallets found, by user id. */
  lockedByUsers(userIds: string[]): Maybe<Map<string, OpenedWallet>>
  openedByUser(userId: string): Maybe<OpenedWallet | null>
  walletById(walletId: string): Maybe<WalletRow | null>
  /** Makes the user's wallet unless another transaction just did: the wallet either way. */
  insertWallet(id: string, userId: string, at: string): Maybe<OpenedWallet>
  /** Whether the wallet still held the previous state (and was written). */
  applyEntry(update: WalletUpdate): Maybe<boolean>
  insertEntry(entry: TransactionRow): Maybe<void>
  /**
   * Credits an earning to a wallet's balance relative to the stored row, with its entry, without the wallet being
   * read first; whether the wallet was there.
   */
  creditUnread(entry: UnreadEntry): Maybe<boolean>
  /** Moves balance to frozen; whether the wallet still held the previous balances. */
  freeze(next: { balance: number; frozenBalance: number }, previous: OpenedWallet, at: string): Maybe<boolean>
  recordEarnings(walletId: string, day: string, earned: number, at: string): Maybe<void>
  /** The users whose wallets hold anything frozen (the periodic release of holds). */
  usersWithFrozen(): Maybe<string[]>
}

/** The columns of an `OpenedWallet`, in the order of `OpenedRow`. */
const OPENED_COLUMNS = 'id, balance, frozen_balance, last_seq, earnings_day, earned_on_day, holds_json'
/** A row of `OPENED_COLUMNS` as SQLite's raw mode reads it; `openedFromSqlite` names its values. */
type OpenedRow = [string, number, number, number, string | null, number, string]

const openedFromSqlite = (row: OpenedRow): OpenedWallet => {
  const [id, balance, frozenBalance, lastSeq, earningsDay, earnedOnDay, holdsJson] = row
  const holds = holdsJson === '{}' ? {} : JSON.parse(holdsJson)
  return { id, balance, frozenBalance, lastSeq, earningsDay, earnedOnDay, holds }
}

/** A wallet row under the names drizzle gives it (quoted: PostgreSQL folds unquoted names to lower case). */
const WALLET_COLUMNS = `id, user_id AS "userId", balance, frozen_balance AS "frozenBalance",
  total_earned AS "totalEarned", total_spent AS "totalSpent", last_seq AS "lastSeq", earnings_day AS "earningsDay",
  earned_on_day AS "earnedOnDay", created_at AS "createdAt", updated_at AS "updatedAt"`

const sqliteStatements = perHandle((db: Db): WalletStatements => {
  const sqlite = db.$client
  const byUser = sqlite
    .prepare<[userId: string], OpenedRow>(`SELECT ${OPENED_COLUMNS} FROM wallet WHERE user_id = ?`)
    .raw()
  const rowById = sqlite.prepare<[string], WalletRow>(`SELECT ${WALLET_COLUMNS} FROM wallet WHERE id = ?`)
  const insert = sqlite
    .prepare<[id: string, userId: string, createdAt: string, updatedAt: string], OpenedRow>(
      `INSERT INTO wallet (id, user_id, created_at, updated_at) VALUES (?, ?, ?, ?) RETURNING ${OPENED_COLUMNS}`,
    )
    .raw()
  // The totals move by their deltas; the holds only when the entry changes them (null keeps them).
  const apply = sqlite.prepare<
    [
      number,
      number,
      number,
      number,
      number,
      string | null,
      number,
      string | null,
      string,
      string,
      number,
      number,
      number,
    ]
  >(
    `UPDATE wallet SET balance = ?, frozen_balance = ?, total_earned = total_earned + ?, total_spent = total_spent + ?,
       last_seq = ?, earnings_day = ?, earned_on_day = ?, holds_json = coalesce(?, holds_json), updated_at = ?
     WHERE id = ? AND balance = ? AND frozen_balance = ? AND last_seq = ?`,
  )
  const insertEntry = sqlite.prepare<
    [string, number, string, TransactionType, number, number, number, ReferenceType, string, string, string]
  >(
    `INSERT INTO wallet_transaction (id, seq, wallet_id, type, amount, balance_after, frozen_after, reference_type,
       reference_id, description, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const freeze = sqlite.prepare<[number, number, string, string, number, number]>(
    `UPDATE wallet SET balance = ?, frozen_balance = ?, updated_at = ?
     WHERE id = ? AND balance = ? AND frozen_balance = ?`,
  )
  const recordEarnings = sqlite.prepare<[string, number, string, string]>(
    'UPDATE wallet SET earnings_day = ?, earned_on_day = ?, updated_at = ? WHERE id = ?',
  )
  const credit = sqlite
    .prepare<[amount: number, earned: number, at: string, id: string], [number, number, number]>(
      `UPDATE wallet SET balance = balance + ?, total_earned = total_earned + ?, last_seq = last_seq + 1,
         updated_at = ? WHERE id = ? RETURNING last_seq, balance, frozen_balance`,
    )
    .raw()
  const withFrozen = sqlite.prepare<[], string>('SELECT user_id FROM wallet WHERE frozen_balance > 0').pluck()
  return {
    // One writer: SQLite's transactions never interleave, so there is nothing to lock.
    lockWallets() {},
    lockedByUsers(userIds) {
      const found = new Map<string, OpenedWallet>()
      for (const userId of userIds) {
        const row = byUser.get(userId)
        if (row) found.set(userId, openedFromSqlite(row))
      }
      return found
    },
    openedByUser(userId) {
      const row = byUser.get(userId)
      return row ? openedFromSqlite(row) : null
    },
    walletById: (walletId) => rowById.get(walletId) ?? null,
    insertWallet: (id, userId, at) => openedFromSqlite(insert.get(id, userId, at, at) as OpenedRow),
    applyEntry: (u) =>
      apply.run(
        u.balance,
        u.frozenBalance,
        u.earnedDelta,
        u.spentDelta,
        u.lastSeq,
        u.earningsDay,
        u.earnedOnDay,
        u.holds ? JSON.stringify(u.holds) : null,
        u.at,
        u.previous.id,
        u.previous.balance,
        u.previous.frozenBalance,
        u.previous.lastSeq,
      ).changes === 1,
    insertEntry(e) {
      insertEntry.run(
        e.id,
        e.seq,
        e.walletId,
        e.type,
        e.amount,
        e.balanceAfter,
        e.frozenAfter,
        e.referenceType,
        e.referenceId,
        e.description,
        e.createdAt,
      )
    },
    creditUnread(e) {
      const row = credit.get(e.amount, e.amount, e.createdAt, e.walletId)
      if (!row) return false
      const [seq, balanceAfter, frozenAfter] = row
      this.insertEntry({ ...e, seq, balanceAfter, frozenAfter })
      return true
    },
    freeze: (next, previous, at) =>
      freeze.run(next.balance, next.frozenBalance, at, previous.id, previous.balance, previous.frozenBalance)
        .changes === 1,
    recordEarnings(walletId, day, earned, at) {
      recordEarnings.run(day, earned, at, walletId)
    },
    usersWithFrozen: () => withFrozen.all(),
  }
})

/** node-postgres reads bigint as text: an opened wallet's numbers as numbers. */
interface PgOpenedRow {
  id: string
  balance: string
  frozen_balance: string
  last_seq: string
  earnings_day: string | null
  earned_on_day: string
  holds_json: Holds
}

const openedFromPg = (row: PgOpenedRow): OpenedWallet => ({
  id: row.id,
  balance: Number(row.balance),
  frozenBalance: Number(row.frozen_balance),
  lastSeq: Number(row.last_seq),
  earningsDay: row.earnings_day,
  earnedOnDay: Number(row.earned_on_day),
  holds: row.holds_json,
})

const NUMERIC_WALLET_FIELDS = [
  'balance',
  'frozenBalance',
  'totalEarned',
  'totalSpent',
  'lastSeq',
  'earnedOnDay',
]

function pgStatements(tx: EngineDb): WalletStatements {
  // A statement that is not deferred sends the purchase's deferred writes first (deferred-writes.ts).
  const run = async <T>(query: SQL) => {
    await sendDeferredWrites(tx)
    return runSql<T>(tx, query)
  }
  const one = async <T>(query: SQL) => (await run<T>(query))[0] ?? null
  const opened = async (where: SQL) => {
    const row = await one<PgOpenedRow>(
      sql`SELECT ${sql.raw(OPENED_COLUMNS)} FROM wallet WHERE ${where} FOR UPDATE`,
    )
    return row ? openedFromPg(row) : null
  }
  /** A ledger write: held back while the transaction defers its writes, else run at once. */
  const write = (add: (writes: Writes) => void): Maybe<boolean> => {
    const held = deferredWritesOf(tx)
    if (held) {
      add(held)
      return true
    }
    const now = noWrites()
    add(now)
    return runWrites(tx, now)
  }
  return {
    async lockWallets(userIds) {
      if (userIds.length === 0) return
      await run(
        sql`SELECT id FROM wallet WHERE user_id IN (${sql.join(
          userIds.map((id) => sql`${id}`),
          sql`, `,
        )}) ORDER BY id FOR UPDATE`,
      )
    },
    async lockedByUsers(userIds) {
      const rows = await run<PgOpenedRow & { user_id: string }>(
        sql`SELECT user_id, ${sql.raw(OPENED_COLUMNS)} FROM wallet WHERE user_id IN (${sql.join(
          userIds.map((id) => sql`${id}`),
          sql`, `,
        )}) ORDER BY id FOR UPDATE`,
      )
      return new Map(rows.map((row) => [row.user_id, openedFromPg(row)]))
    },
    openedByUser: (userId) => opened(sql`user_id = ${userId}`),
    async walletById(walletId) {
      const row = await one<Record<string, unknown>>(
        sql`SELECT ${sql.raw(WALLET_COLUMNS)} FROM wallet WHERE id = ${walletId}`,
      )
      if (!row) return null
      for (const field of NUMERIC_WALLET_FIELDS) row[field] = Number(row[field])
      return row as WalletRow
    },
    async insertWallet(id, userId, at) {
      // A wallet made by a transaction running alongside: the insert waits for it, then the row is read.
      const made = await one<PgOpenedRow>(
        sql`INSERT INTO wallet (id, user_id, created_at, updated_at) VALUES (${id}, ${userId}, ${at}, ${at})
            ON CONFLICT (user_id) DO NOTHING RETURNING ${sql.raw(OPENED_COLUMNS)}`,
      )
      if (made) return openedFromPg(made)
      const existing = await opened(sql`user_id = ${userId}`)
      if (!existing) throw new Error(`wallet of ${userId} neither made nor found`)
      return existing
    },
    applyEntry: (u) => write((writes) => addWalletUpdate(writes, u)),
    insertEntry: (e) =>
      andThen(
        write((writes) => writes.entries.push(e)),
        () => undefined,
      ),
    creditUnread: (e) => write((writes) => writes.unread.push(e)),
    // Moves no totals and no seq: the wallet's update with only its balances changed.
    freeze: (next, previous, at) =>
      write((writes) =>
        addWalletUpdate(writes, {
          ...next,
          earnedDelta: 0,
          spentDelta: 0,
          lastSeq: previous.lastSeq,
          earningsDay: previous.earningsDay,
          earnedOnDay: previous.earnedOnDay,
          holds: null,
          at,
          previous,
        }),
      ),
    async recordEarnings(walletId, day, earned, at) {
      await run(sql`UPDATE wallet SET earnings_day = ${day}, earned_on_day = ${earned}, updated_at = ${at}
          WHERE id = ${walletId}`)
    },
    async usersWithFrozen() {
      const rows = await run<{ user_id: string }>(sql`SELECT user_id FROM wallet WHERE frozen_balance > 0`)
      return rows.map((row) => row.user_id)
    },
  }
}

/** The statements on the engine of `tx` (a transaction on PostgreSQL, the writer on SQLite). */
export const walletStatements = (tx: EngineDb): WalletStatements =>
  isPostgres(tx) ? pgStatements(tx) : sqliteStatements(tx as unknown as Db)
