import type { EngineDb } from './engine'

/** What runs once a transaction has committed (it cannot undo the commit; a failure is only reported). */
export type AfterCommitWork = () => void | Promise<void>

/** A transaction callback's result, and the work it registered to run once the transaction has committed. */
export interface Collected<T> {
  result: T
  afterwards: AfterCommitWork[]
}

/** The work registered on each open transaction, by the handle its callback was given. */
const pending = new WeakMap<object, AfterCommitWork[]>()

/**
 * Runs `work` once the transaction `tx` commits, before `transact` settles with its result; never when it rolls
 * back (or when `transact` runs its callback again, for the attempt that failed). In registration order.
 */
export function afterCommit(tx: EngineDb, work: AfterCommitWork): void {
  const list = pending.get(tx)
  if (!list) throw new Error('afterCommit needs the handle of an open transaction (the one transact gives)')
  list.push(work)
}

/**
 * For the engines: `work` on the transaction `tx` with an after-commit list of its own, and that list (run it once
 * the transaction has committed). A failed `work` leaves nothing behind.
 */
export async function collectingAfterCommit<T>(
  tx: EngineDb,
  work: (tx: EngineDb) => Promise<T>,
): Promise<Collected<T>> {
  const afterwards: AfterCommitWork[] = []
  pending.set(tx, afterwards)
  try {
    return { result: await work(tx), afterwards }
  } finally {
    pending.delete(tx)
  }
}

/** Where a failure of after-commit work goes: the server's log; a warning on stderr where none is given. */
export type AfterCommitFailure = (error: unknown) => void

export const warnAfterCommitFailure: AfterCommitFailure = (error) =>
  process.emitWarning(`Work after a commit failed: ${error instanceof Error ? error.message : String(error)}`)

/**
 * Runs what a committed transaction registered, one after the other. A piece that fails is reported and the next
 * runs: the change is committed, and failing `transact` now would answer a stored change with an error (a client
 * would send it again).
 */
export async function runAfterCommit(
  afterwards: AfterCommitWork[],
  onFailure: AfterCommitFailure,
): Promise<void> {
  for (const work of afterwards)
    try {
      await work()
    } catch (error) {
      onFailure(error)
    }
}

/**
 * How much after-commit work `tx` holds, and the undoing of what was registered since: a savepoint rolled back
 * (the group commit's piece that failed) takes its work with it.
 */
export function afterCommitMark(tx: EngineDb): () => void {
  const list = pending.get(tx)
  const length = list?.length ?? 0
  return () => {
    if (list) list.length = length
  }
}
