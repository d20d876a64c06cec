import { afterCommitMark } from './after-commit'
import { type Db, perHandle } from './client'
import type { Database, EngineDb } from './engine'

interface Queued {
  work: (tx: EngineDb) => Promise<unknown>
  recover: ((tx: EngineDb, error: unknown) => Promise<unknown>) | undefined
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown }

export interface CommitGroup {
  /**
   * Runs `work` in the next group commit and settles with its result once that commit is done. When `work` throws,
   * its writes are undone and `recover` (when given) runs in their place in the same transaction: its result, or
   * its error, is the outcome. `work` may run twice (see below), so it must do nothing but database work.
   */
  run<T>(
    work: (tx: EngineDb) => Promise<T>,
    recover?: (tx: EngineDb, error: unknown) => Promise<T>,
  ): Promise<T>
}

/** SQLite's count of rows written on the connection. */
const totalChanges = perHandle((db: Db) => db.$client.prepare<[], number>('SELECT total_changes()').pluck())

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
 * whole group in either run. The group's transaction is the engine's (`Database.transact`, under its mutex), and
 * its pieces await only SQLite's statements, so it commits within one run of the microtask queue.
 *
 * On PostgreSQL, where many connections commit side by side, each piece is a transaction of its own.
 */
export function createCommitGroup(database: Database): CommitGroup {
  if (database.engine === 'postgres')
    // Many connections commit side by side: each piece is a transaction of its own (row locks order them).
    return {
      async run(work, recover) {
        try {
          return await database.transact(work)
        } catch (error) {
          if (!recover) throw error
          return database.transact((tx) => recover(tx, error))
        }
      },
    }
  let queue: Queued[] = []

  function runAll(batch: Queued[], withSavepoints: boolean): Promise<Outcome[]> {
    return database.transact(async (tx) => {
      const sqlite = (tx as unknown as Db).$client
      const rowsWritten = totalChanges(tx as unknown as Db)
      /** Runs `step` bare (its outcome, or WROTE_THEN_FAILED thrown when it failed after writing) or in a savepoint. */
      async function attempt(step: () => Promise<unknown>): Promise<Outcome> {
        const before = rowsWritten.get()
        const dropAfterCommitWork = afterCommitMark(tx)
        if (withSavepoints) sqlite.exec('SAVEPOINT piece')
        try {
          const value = await step()
          if (withSavepoints) sqlite.exec('RELEASE piece')
          return { ok: true, value }
        } catch (error) {
          // Some errors (a full disk, I/O) end the whole transaction: then nothing of the group is kept.
          if (!sqlite.inTransaction) throw error
          if (withSavepoints) sqlite.exec('ROLLBACK TO piece; RELEASE piece')
          else if (rowsWritten.get() !== before) throw WROTE_THEN_FAILED
          // What the failed piece meant to announce after the commit goes with its writes.
          dropAfterCommitWork()
          return { ok: false, error }
        }
      }
      const outcomes: Outcome[] = []
      for (const { work, recover } of batch) {
        const outcome = await attempt(() => work(tx))
        outcomes.push(outcome.ok || !recover ? outcome : await attempt(() => recover(tx, outcome.error)))
      }
      return outcomes
    })
  }

  async function flush() {
    const batch = queue
    queue = []
    let outcomes: Outcome[]
    try {
      try {
        outcomes = await runAll(batch, false)
      } catch (error) {
        if (error !== WROTE_THEN_FAILED) throw error
        outcomes = await runAll(batch, true)
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
    run<T>(work: (tx: EngineDb) => Promise<T>, recover?: (tx: EngineDb, error: unknown) => Promise<T>) {
      return new Promise<T>((resolve, reject) => {
        if (queue.length === 0) setImmediate(flush)
        queue.push({
          work,
          recover: recover as Queued['recover'],
          resolve: resolve as (value: unknown) => void,
          reject,
        })
      })
    },
  }
}
