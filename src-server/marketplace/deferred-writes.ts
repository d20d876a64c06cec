/**
 * PostgreSQL: a purchase's writes, held back and sent as ONE statement once its checks have passed. Each statement
 * is a round trip, and a purchase holds the seller's and the platform's wallet rows (which every purchase of that
 * seller takes) from its lock to its commit: every round trip in between is time no other purchase of that seller
 * can use. So the purchase's wallet updates, ledger entries and order rows are collected here (`deferWrites`)
 * and sent together (`sendDeferredWrites`) as data-modifying CTEs of one statement.
 *
 * The CTEs of one statement all see the database as it was before it (none sees another's rows), so two updates of
 * one wallet are merged into one: its last state, the sum of its totals' deltas, guarded by the state the first
 * was computed from (as every ledger write is: a wallet that changed behind the ledger throws). Statements that
 * are not deferred send what is held first (wallet.repository.ts), so nothing reads around a deferred write.
 * On SQLite nothing is deferred: its statements run at once, one transaction at a time.
 */
import { type SQL, sql } from 'drizzle-orm'
import { type EngineDb, isPostgres, runSql } from '../platform/db'
import type { TransactionRow, WalletUpdate } from './wallet.repository'

/** Writes to send in one statement. */
export interface Writes {
  /** Per wallet id, its updates merged; the guard is the state the first was computed from. */
  wallets: Map<string, WalletUpdate>
  entries: TransactionRow[]
  /**
   * Entries on wallets the transaction has not read (the platform's commission): each moves its wallet by its
   * amount relative to the stored row, which its update locks, and records the state that update returns.
   */
  unread: UnreadEntry[]
  /** Other data-modifying statements (the order's rows), in the order they were deferred. */
  statements: SQL[]
}

/**
 * An earning credited to a wallet not read (`WalletStatements.creditUnread`): its balance and total earned move by
 * `amount`; the entry's seq and balances are the row's after that.
 */
export type UnreadEntry = Omit<TransactionRow, 'seq' | 'balanceAfter' | 'frozenAfter'>

export const noWrites = (): Writes => ({ wallets: new Map(), entries: [], unread: [], statements: [] })

const deferred = new WeakMap<EngineDb, Writes>()

/** The writes held back on `tx`, or undefined when its writes run at once. */
export const deferredWritesOf = (tx: EngineDb): Writes | undefined => deferred.get(tx)

/**
 * Runs `work` with the writes of `tx` held back (PostgreSQL), then sends them in one statement. When `work` throws,
 * nothing held is sent: the caller's transaction rolls back.
 */
export async function withDeferredWrites<T>(tx: EngineDb, work: () => Promise<T>): Promise<T> {
  if (!isPostgres(tx)) return work()
  deferred.set(tx, noWrites())
  try {
    const result = await work()
    await sendDeferredWrites(tx)
    return result
  } finally {
    deferred.delete(tx)
  }
}

/** Adds a wallet's update, merged with one there already for the same wallet. */
export function addWalletUpdate(writes: Writes, update: WalletUpdate): void {
  const { id, balance, frozenBalance, lastSeq } = update.previous
  const held = writes.wallets.get(id)
  writes.wallets.set(
    id,
    held
      ? {
          ...update,
          earnedDelta: held.earnedDelta + update.earnedDelta,
          spentDelta: held.spentDelta + update.spentDelta,
          holds: update.holds ?? held.holds,
          previous: held.previous,
        }
      : // A copy of the guard: the ledger's wallet state moves on as it posts.
        { ...update, previous: { id, balance, frozenBalance, lastSeq } },
  )
}

/** Sends what is held back on `tx`, if anything: a wallet that changed behind the ledger throws. */
export async function sendDeferredWrites(tx: EngineDb): Promise<void> {
  const writes = deferred.get(tx)
  if (!writes) return
  deferred.set(tx, noWrites())
  if (!(await runWrites(tx, writes))) throw new Error('a wallet changed behind its ledger state')
}

/** Runs `writes` in one statement: whether every wallet update found the state it was computed from. */
export async function runWrites(tx: EngineDb, writes: Writes): Promise<boolean> {
  const wallets = [...writes.wallets.values()]
  const ctes: SQL[] = wallets.map(
    (u, i) => sql`${sql.raw(`w${i}`)} AS (UPDATE wallet SET balance = ${u.balance},
        frozen_balance = ${u.frozenBalance}, total_earned = total_earned + ${u.earnedDelta},
        total_spent = total_spent + ${u.spentDelta}, last_seq = ${u.lastSeq}, earnings_day = ${u.earningsDay},
        earned_on_day = ${u.earnedOnDay},
        holds_json = coalesce(${u.holds ? JSON.stringify(u.holds) : null}::jsonb, holds_json), updated_at = ${u.at}
      WHERE id = ${u.previous.id} AND balance = ${u.previous.balance}
        AND frozen_balance = ${u.previous.frozenBalance} AND last_seq = ${u.previous.lastSeq}
      RETURNING id)`,
  )
  if (writes.entries.length > 0)
    ctes.push(sql`entries AS (INSERT INTO wallet_transaction (id, seq, wallet_id, type, amount, balance_after,
        frozen_after, reference_type, reference_id, description, created_at)
      VALUES ${sql.join(
        writes.entries.map(
          (e) => sql`(${e.id}, ${e.seq}, ${e.walletId}, ${e.type}, ${e.amount}, ${e.balanceAfter},
            ${e.frozenAfter}, ${e.referenceType}, ${e.referenceId}, ${e.description}, ${e.createdAt})`,
        ),
        sql`, `,
      )})`)
  writes.unread.forEach((e, i) => {
    const updated = `u${i}`
    ctes.push(
      sql`${sql.raw(updated)} AS (UPDATE wallet SET balance = balance + ${e.amount},
          total_earned = total_earned + ${e.amount}, last_seq = last_seq + 1, updated_at = ${e.createdAt}
        WHERE id = ${e.walletId} RETURNING id, last_seq, balance, frozen_balance)`,
      sql`${sql.raw(`${updated}e`)} AS (INSERT INTO wallet_transaction (id, seq, wallet_id, type, amount,
          balance_after, frozen_after, reference_type, reference_id, description, created_at)
        SELECT ${e.id}, last_seq, id, ${e.type}, ${e.amount}, balance, frozen_balance, ${e.referenceType},
          ${e.referenceId}, ${e.description}, ${e.createdAt} FROM ${sql.raw(updated)})`,
    )
  })
  writes.statements.forEach((statement, i) => {
    ctes.push(sql`${sql.raw(`s${i}`)} AS (${statement})`)
  })
  if (ctes.length === 0) return true
  // Each wallet update's count of rows written: 1 where its guard held (or its wallet was there).
  const updates = [...wallets.map((_, i) => `w${i}`), ...writes.unread.map((_, i) => `u${i}`)]
  const written = sql.raw(updates.map((name) => `(SELECT count(*) FROM ${name})`).join(' + ') || '0')
  const [row] = await runSql<{ written: number | string }>(
    tx,
    sql`WITH ${sql.join(ctes, sql`, `)} SELECT ${written} AS written`,
  )
  return Number(row?.written) === updates.length
}
