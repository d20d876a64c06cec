import { createHash } from 'node:crypto'
import type { Database } from '../platform/db'
import * as repo from './auth.repository'
import type { AttemptCounter, AttemptCounters, LimitSpec } from './rate-limit'

/** How often an instance deletes the windows that ended, at most. */
const SWEEP_INTERVAL_MS = 60_000

/**
 * Counters in the database (`rate_limit_window`), so the instances of a team server count one limit together: a
 * guesser spreading attempts over them gets no more than from one. Each attempt is one upsert that counts it only
 * while its window has room; an attempt still being checked counts as a failure until it settles, as in memory. A
 * refused key waits until its window ends (memory tells apart places held by attempts in flight; the table does
 * not). Each instance deletes ended windows as it goes, so the table holds only the windows still running.
 */
export function storedCounters(database: Database): AttemptCounters {
  let nextSweep = 0
  async function sweep(now: number) {
    if (now < nextSweep) return
    nextSweep = now + SWEEP_INTERVAL_MS
    // Only housekeeping: an attempt is not refused for it.
    await database.transact((tx) => repo.deleteEndedWindows(tx, now)).catch(() => undefined)
  }
  return (limit) => storedCounter(database, limit, sweep)
}

function storedCounter(
  database: Database,
  limit: LimitSpec,
  sweep: (now: number) => Promise<void>,
): AttemptCounter {
  // The limit's name keeps limits apart; the hash keeps what was typed as a username out of the table.
  const keyOf = (key: string) => createHash('sha256').update(`${limit.name}\n${key}`).digest('hex')
  const count = (key: string, now: number, max: number | null) =>
    database.transact((tx) => repo.countAttempt(tx, keyOf(key), { now, windowMs: limit.windowMs, max }))
  return {
    async reserve(key) {
      const now = Date.now()
      await sweep(now)
      if ((await count(key, now, limit.maxFailures)) !== null) return 0
      const window = await repo.runningWindow(database.reader, keyOf(key), now)
      return window ? Math.max(1, Math.ceil((window.windowEndsAt - now) / 1000)) : 1
    },
    async settle(key, failed) {
      if (!failed) await database.transact((tx) => repo.uncountAttempt(tx, keyOf(key), Date.now()))
    },
    async failures(key) {
      return (await repo.runningWindow(database.reader, keyOf(key), Date.now()))?.count ?? 0
    },
    async recordFailure(key) {
      await count(key, Date.now(), null)
    },
    async reset(key) {
      await database.transact((tx) => repo.deleteWindow(tx, keyOf(key)))
    },
  }
}
