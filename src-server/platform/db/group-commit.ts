import type { Db } from './client'

interface Queued {
  work: () => unknown
  recover: ((error: unknown) => unknown) | undefined
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown }

export interface CommitGroup {
  /**
   * Runs `work` (synchronous, on this connection) in the next group commit and settles with its result once that
   * commit is done. When `work` throws, its writes are undone and `recover` (when given) runs in their place in
   * the same transaction: its result, or its error, is the outcome. `work` may run twice (see below), so it must
   * act on nothing but this connection's tables (rows it inserts, updates or deletes).
   */
  run<T>(work: () => T, recover?: (error: unknown) => T): Promise<T>
}

/** Thrown out of a group's transaction to roll it back and run the group again with a savepoint per piece. */
const WROTE_THEN_FAILED = Symbol('a piece failed after writing')

/**
 * Group commit, as PostgreSQL and MySQL do it: a commit costs SQLite a write of every page the transaction
 * touched, and consecutive writes touch mostly the same pages (the seller's and the platform's wallets, the tails
 * of the tables and indexes). Work queued during one turn of the event loop runs in ONE transaction when the turn
 * ends: a piece that throws gets its own error (or its `recover`'s outcome), its writes are undone, the others go
 * on and see each other's writes in the order they were queued. Nobody hears back before the commit, so no
 * answer reports a write that could still be lost.
 *
 * Undoing a failed piece's writes alone needs a savepoint around each piece, and the savepoints (open, release,
 * the sub-journal of the pages they change) were a sixth of a purchase's database time. Yet a piece that fails
 * usually fails on a check before it writes anything (a purchase reads the listing, the order and the balance
 * first): then there is nothing to undo, and the group goes on without a savepoint. So a group first runs its
 * pieces bare, and SQLite's count of rows written on this connection (`total_changes()`, which counts every row
 * an INSERT, UPDATE or DELETE writes, those of triggers too) tells, when a piece throws, whether it wrote
 * anything. If it did, the group could not undo that piece alone: the whole transaction is rolled back (nothing
 * of it was committed or answered yet) and the group runs again from the start, each piece in its own savepoint,
 * as it would have without the shortcut. A failure that ends the transaction itself (a full disk, I/O) fails the
 * whole group in either run.
 */
export function createCommitGroup(db: Db): CommitGroup {
  const sqlite = db.$client
  const rowsWritten = sqlite.prepare<[], number>('SELECT total_changes()').pluck()
  let queue: Queued[] = []

  /** Runs `step` bare: its outcome, or WROTE_THEN_FAILED thrown when it failed after writing. */
  function bare(step: () => unknown): Outcome {
    const before = rowsWritten.get()
    try {
      return { ok: true, value: step() }
    } catch (error) {
      // Some errors (a full disk, I/O) end the whole transaction: then nothing of the group is kept.
      if (!sqlite.inTransaction) throw error
      if (rowsWritten.get() !== before) throw WROTE_THEN_FAILED
      return { ok: false, error }
    }
  }

  /** Runs `step` in a savepoint, which undoes its writes when it fails. */
  function inSavepoint(step: () => unknown): Outcome {
    try {
      // Nested in the group's transaction, better-sqlite3 runs it in a savepoint.
      return { ok: true, value: sqlite.transaction(step)() }
    } catch (error) {
      if (!sqlite.inTransaction) throw error
      return { ok: false, error }
    }
  }

  function runAll(batch: Queued[], attempt: (step: () => unknown) => Outcome): Outcome[] {
    return sqlite.transaction(() =>
      batch.map(({ work, recover }) => {
        const outcome = attempt(work)
        return outcome.ok || !recover ? outcome : attempt(() => recover(outcome.error))
      }),
    )()
  }

  function flush() {
    const batch = queue
    queue = []
    let outcomes: Outcome[]
    try {
      try {
        outcomes = runAll(batch, bare)
      } catch (error) {
        if (error !== WROTE_THEN_FAILED) throw error
        outcomes = runAll(batch, inSavepoint)
      }
    } catch (error) {
      outcomes = batch.map(() => ({ ok: false, error }))
    }
    batch.forEach(({ resolve, reject }, i) => {
      const outcome = outcomes[i] as Outcome
      if (outcome.ok) resolve(outcome.value)
      else reject(outcome.error)
    })
  }

  return {
    run<T>(work: () => T, recover?: (error: unknown) => T) {
      return new Promise<T>((resolve, reject) => {
        if (queue.length === 0) setImmediate(flush)
        queue.push({ work, recover, resolve: resolve as (value: unknown) => void, reject })
      })
    },
  }
}
