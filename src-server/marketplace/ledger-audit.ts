import { sql } from 'drizzle-orm'
import { type EngineDb, isPostgres, runSql } from '../platform/db'

/**
 * Every money rule that must hold at every instant: conservation (holdings equal top-ups minus withdrawals),
 * no negative balance, every wallet equal to the sum of its entries, its entries numbered 1..last_seq, its last
 * entry agreeing with it, and (at rest, outside a purchase) its frozen balance exactly its holds. Read on either
 * engine (PostgreSQL gives its sums and bigints as text: each is read as a number).
 */
export async function ledgerViolations(db: EngineDb): Promise<string[]> {
  const violations: string[] = []
  const [totals] = await runSql<Record<'holdings' | 'topups' | 'withdrawals', string | number>>(
    db,
    sql`SELECT (SELECT coalesce(sum(balance + frozen_balance), 0) FROM wallet) AS holdings,
          coalesce(sum(CASE WHEN type = 'topup' THEN amount ELSE 0 END), 0) AS topups,
          coalesce(sum(CASE WHEN type = 'withdraw' THEN -amount ELSE 0 END), 0) AS withdrawals
        FROM wallet_transaction`,
  )
  const holdings = Number(totals?.holdings ?? 0)
  const topups = Number(totals?.topups ?? 0)
  const withdrawals = Number(totals?.withdrawals ?? 0)
  if (holdings !== topups - withdrawals)
    violations.push(`conservation: holdings ${holdings} != ${topups} - ${withdrawals}`)
  const held = isPostgres(db)
    ? sql`(SELECT coalesce(sum(value::bigint), 0) FROM jsonb_each_text(w.holds_json))`
    : sql`(SELECT coalesce(sum(value), 0) FROM json_each(w.holds_json))`
  const rows = await runSql<Record<string, string | number | null>>(
    db,
    sql`SELECT w.id, w.balance, w.frozen_balance, ${held} AS held,
          (SELECT coalesce(sum(amount), 0) FROM wallet_transaction t WHERE t.wallet_id = w.id) AS entries,
          (SELECT count(*) FROM wallet_transaction t WHERE t.wallet_id = w.id) AS entry_count,
          (SELECT coalesce(max(seq), 0) FROM wallet_transaction t WHERE t.wallet_id = w.id) AS max_seq, w.last_seq,
          (SELECT balance_after FROM wallet_transaction t WHERE t.wallet_id = w.id ORDER BY seq DESC LIMIT 1) AS last_balance,
          (SELECT frozen_after FROM wallet_transaction t WHERE t.wallet_id = w.id ORDER BY seq DESC LIMIT 1) AS last_frozen
        FROM wallet w`,
  )
  const number = (value: string | number | null | undefined) => (value == null ? null : Number(value))
  for (const row of rows) {
    const id = row.id
    const [balance = 0, frozen = 0, heldSum, entries, entryCount, maxSeq, lastSeq] = [
      row.balance,
      row.frozen_balance,
      row.held,
      row.entries,
      row.entry_count,
      row.max_seq,
      row.last_seq,
    ].map((value) => number(value) ?? 0)
    const lastBalance = number(row.last_balance)
    const lastFrozen = number(row.last_frozen)
    if (balance < 0 || frozen < 0) violations.push(`wallet ${id} is negative`)
    if (frozen !== heldSum) violations.push(`wallet ${id}: frozen ${frozen} != held ${heldSum}`)
    if (balance + frozen !== entries)
      violations.push(`wallet ${id}: holdings ${balance + frozen} != entries ${entries}`)
    // Entries are numbered 1..last_seq with none missing: the ledger history's total relies on it.
    if (entryCount !== lastSeq || maxSeq !== lastSeq)
      violations.push(`wallet ${id}: ${entryCount} entries up to seq ${maxSeq}, last_seq ${lastSeq}`)
    if ((lastBalance ?? 0) !== balance || (lastFrozen ?? 0) !== frozen)
      violations.push(`wallet ${id}: last entry ${lastBalance}/${lastFrozen} != ${balance}/${frozen}`)
  }
  return violations
}
