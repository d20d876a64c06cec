import type { Db } from '../platform/db'

/**
 * Every money rule that must hold at every instant: conservation (holdings equal top-ups minus withdrawals),
 * no negative balance, every wallet equal to the sum of its entries, its entries numbered 1..last_seq, its last
 * entry agreeing with it, and (at rest, outside a purchase) its frozen balance exactly its holds.
 */
export function ledgerViolations(db: Db): string[] {
  const sqlite = db.$client
  const violations: string[] = []
  const holdings = sqlite
    .prepare('SELECT coalesce(sum(balance + frozen_balance), 0) AS n FROM wallet')
    .get() as {
    n: number
  }
  const flows = sqlite
    .prepare(
      `SELECT coalesce(sum(CASE WHEN type = 'topup' THEN amount ELSE 0 END), 0) AS topups,
              coalesce(sum(CASE WHEN type = 'withdraw' THEN -amount ELSE 0 END), 0) AS withdrawals
       FROM wallet_transaction`,
    )
    .get() as { topups: number; withdrawals: number }
  if (holdings.n !== flows.topups - flows.withdrawals)
    violations.push(`conservation: holdings ${holdings.n} != ${flows.topups} - ${flows.withdrawals}`)
  const wallets = sqlite
    .prepare(
      `SELECT w.id, w.balance, w.frozen_balance,
              (SELECT coalesce(sum(value), 0) FROM json_each(w.holds_json)) AS held,
              (SELECT coalesce(sum(amount), 0) FROM wallet_transaction t WHERE t.wallet_id = w.id) AS entries,
              (SELECT count(*) FROM wallet_transaction t WHERE t.wallet_id = w.id) AS entry_count,
              (SELECT coalesce(max(seq), 0) FROM wallet_transaction t WHERE t.wallet_id = w.id) AS max_seq, w.last_seq,
              (SELECT balance_after FROM wallet_transaction t WHERE t.wallet_id = w.id ORDER BY seq DESC LIMIT 1) AS last_balance,
              (SELECT frozen_after FROM wallet_transaction t WHERE t.wallet_id = w.id ORDER BY seq DESC LIMIT 1) AS last_frozen
       FROM wallet w`,
    )
    .all() as {
    id: string
    balance: number
    frozen_balance: number
    held: number
    entries: number
    entry_count: number
    max_seq: number
    last_seq: number
    last_balance: number | null
    last_frozen: number | null
  }[]
  for (const w of wallets) {
    if (w.balance < 0 || w.frozen_balance < 0) violations.push(`wallet ${w.id} is negative`)
    if (w.frozen_balance !== w.held)
      violations.push(`wallet ${w.id}: frozen ${w.frozen_balance} != held ${w.held}`)
    if (w.balance + w.frozen_balance !== w.entries)
      violations.push(`wallet ${w.id}: holdings ${w.balance + w.frozen_balance} != entries ${w.entries}`)
    // Entries are numbered 1..last_seq with none missing: the ledger history's total relies on it.
    if (w.entry_count !== w.last_seq || w.max_seq !== w.last_seq)
      violations.push(
        `wallet ${w.id}: ${w.entry_count} entries up to seq ${w.max_seq}, last_seq ${w.last_seq}`,
      )
    if ((w.last_balance ?? 0) !== w.balance || (w.last_frozen ?? 0) !== w.frozen_balance)
      violations.push(
        `wallet ${w.id}: last entry ${w.last_balance}/${w.last_frozen} != ${w.balance}/${w.frozen_balance}`,
      )
  }
  return violations
}
