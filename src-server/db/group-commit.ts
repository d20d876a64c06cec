import type { Db } from './client'

interface Queued {
  work: () => unknown
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown }

export interface CommitGroup {
  /**
   * Runs `work` (synchronous, on this connection) in the next group commit and settles with its result once that
   * commit is done, or with its error.
   */
  run<T>(work: () => T): Promise<T>
}

/**
 * Group commit, as PostgreSQL and MySQL do it: a commit costs SQLite a write of every page the transaction
 * touched, and consecutive writes touch mostly the same pages (the seller's and the platform's wallets, the tails
 * of the tables and indexes). Work queued during one turn of the event loop runs in ONE transaction when the turn
 * ends, each piece in its own savepoint: a piece that throws rolls back only its own writes and gets its own
 * error, the others go on and see each other's writes in the order they were queued. Nobody hears back before
 * the commit, so no answer reports a write that could still be lost.
 */
export function createCommitGroup(db: Db): CommitGroup {
  const sqlite = db.$client
  let queue: Queued[] = []

  function flush() {
    const batch = queue
    queue = []
    let outcomes: Outcome[]
    try {
      outcomes = sqlite.transaction(() =>
        batch.map(({ work }): Outcome => {
          try {
            // Nested in the group's transaction, better-sqlite3 runs it in a savepoint.
            return { ok: true, value: sqlite.transaction(work)() }
          } catch (error) {
            // Some errors (a full disk, I/O) end the whole transaction: then nothing of the group is kept.
            if (!sqlite.inTransaction) throw error
            return { ok: false, error }
          }
        }),
      )()
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
    run<T>(work: () => T) {
      return new Promise<T>((resolve, reject) => {
        if (queue.length === 0) setImmediate(flush)
        queue.push({ work, resolve: resolve as (value: unknown) => void, reject })
      })
    },
  }
}
