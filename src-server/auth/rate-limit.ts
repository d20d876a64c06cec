import { LRUCache } from 'lru-cache'

/** Keys counted at most: enough for every real user and address, bounded against a flood of made-up names. */
export const MAX_TRACKED_KEYS = 10_000

/**
 * What a full table of counting keys does with a key it does not hold. A bounded limiter either forgets a live
 * window (nginx `limit_req` and HAProxy stick tables by default drop the least recently used) or leaves the new
 * key uncounted (HAProxy's `nopurge`: no new entry while the table is full). Forgetting hands the forgotten key
 * fresh attempts: whoever can fail from more keys than the table holds can flood a limited key's count away.
 * Not counting lets the new keys try uncounted until a window ends, and takes nobody's attempts away.
 * - `forget-oldest` suits usernames: made-up names are free to invent, and each failure of a made-up name also
 *   counts against its address.
 * - `skip-new` suits addresses: a limited address must not get its attempts back because others failed, and an
 *   address must not be refused because others failed either (refusing unseen addresses would let a flood lock
 *   every new client out). Whoever holds that many addresses is past what an address limit can stop; each
 *   attempt is still counted against its username.
 */
export type WhenFull = 'forget-oldest' | 'skip-new'

/**
 * A fixed-window counter of attempts per key, for a limit: in this process's memory (`FailureLimiter`, SQLite: one
 * process serves the data), or in the database, shared by every instance (`storedCounters`, PostgreSQL).
 */
export interface AttemptCounter {
  /**
   * Admits an attempt before its outcome is known, counting it as a failure until `settle`: attempts sent in
   * parallel cannot all pass a check made before any of them has failed. 0 when admitted, else seconds to wait.
   */
  reserve(key: string): number | Promise<number>
  /** Ends a reserved attempt: a failure stays counted, a success only gives its place back. */
  settle(key: string, failed: boolean): void | Promise<void>
  /** Failures counted in the key's current window. */
  failures(key: string): number | Promise<number>
  /** Counts a failure that was not reserved. */
  recordFailure(key: string): void | Promise<void>
  reset(key: string): void | Promise<void>
}

/** One limit: its name (what its keys are), how many failures its window holds, and a full memory table's rule. */
export interface LimitSpec {
  name: string
  maxFailures: number
  windowMs: number
  whenFull?: WhenFull
}

/** Makes the counter of a limit. */
export type AttemptCounters = (limit: LimitSpec) => AttemptCounter

/** Counters in this process's memory. */
export const inMemoryCounters: AttemptCounters = (limit) =>
  new FailureLimiter(limit.maxFailures, limit.windowMs, MAX_TRACKED_KEYS, limit.whenFull)

/**
 * Fixed-window failure counter kept in memory (login failures per user and address, per address, per user). A
 * restart clears it, which is acceptable for a desktop server; the window is short anyway. Keys still counting live in an LRU of
 * bounded size; when it is full, `whenFull` decides (above). A key that reached the limit moves to a lockout
 * table of its own, which failures of other keys never touch: only its window's end lifts it. That table is
 * bounded too, by evicting its oldest lockout, but filling it takes `maxFailures` failures for every entry, each
 * costing the attacker a password hash.
 */
export class FailureLimiter implements AttemptCounter {
  private readonly counting: LRUCache<string, { count: number; windowStart: number }>
  /** Locked-out key → end of its window, oldest lockout first (Map insertion order). */
  private readonly lockedUntil = new Map<string, number>()
  /** With `skip-new`, when the earliest counted window ends: a full table has no room before then. */
  private nextWindowEnd = 0
  /** Attempts admitted by `reserve` and not settled yet; as many as requests in flight, so unbounded is safe. */
  private readonly pending = new Map<string, number>()

  constructor(
    private readonly maxFailures: number,
    private readonly windowMs: number,
    private readonly maxKeys = MAX_TRACKED_KEYS,
    private readonly whenFull: WhenFull = 'forget-oldest',
  ) {
    this.counting = new LRUCache({ max: maxKeys })
  }

  /** Seconds until the key may try again, or 0 if it may try now. */
  retryAfter(key: string, now = Date.now()): number {
    const until = this.lockedUntil.get(key)
    if (until === undefined) return 0
    if (now >= until) {
      this.lockedUntil.delete(key)
      return 0
    }
    return Math.ceil((until - now) / 1000)
  }

  /** `AttemptCounter.reserve`; 1 second while the places are held by attempts still being checked. */
  reserve(key: string, now = Date.now()): number {
    const locked = this.retryAfter(key, now)
    if (locked > 0) return locked
    const pending = this.pending.get(key) ?? 0
    if (this.failures(key, now) + pending >= this.maxFailures) return 1
    this.pending.set(key, pending + 1)
    return 0
  }

  settle(key: string, failed: boolean, now = Date.now()): void {
    const pending = (this.pending.get(key) ?? 1) - 1
    if (pending > 0) this.pending.set(key, pending)
    else this.pending.delete(key)
    if (failed) this.recordFailure(key, now)
  }

  /** Failures counted in the key's current window (the limit itself while it is locked out). */
  failures(key: string, now = Date.now()): number {
    if (this.retryAfter(key, now) > 0) return this.maxFailures
    const window = this.counting.peek(key)
    return window && now - window.windowStart < this.windowMs ? window.count : 0
  }

  recordFailure(key: string, now = Date.now()): void {
    if (this.retryAfter(key, now) > 0) return
    const entry = this.counting.get(key)
    const window = entry && now - entry.windowStart < this.windowMs ? entry : { count: 0, windowStart: now }
    if (!entry && !this.hasRoom(now)) return
    window.count += 1
    if (window.count < this.maxFailures) {
      this.counting.set(key, window)
      return
    }
    this.counting.delete(key)
    this.lock(key, window.windowStart + this.windowMs, now)
  }

  reset(key: string): void {
    this.counting.delete(key)
    this.lockedUntil.delete(key)
  }

  /** How many keys are remembered, counting and locked out (for tests of the bound). */
  get size(): number {
    return this.counting.size + this.lockedUntil.size
  }

  /**
   * Whether a key the table does not hold can be counted. With `skip-new` a full table first drops its ended
   * windows (they hold nothing), scanning at most once per window end; `forget-oldest` always has room.
   */
  private hasRoom(now: number): boolean {
    if (this.whenFull !== 'skip-new' || this.counting.size < this.maxKeys) return true
    if (now < this.nextWindowEnd) return false
    this.nextWindowEnd = Number.POSITIVE_INFINITY
    for (const [counted, window] of [...this.counting.entries()]) {
      const end = window.windowStart + this.windowMs
      if (end <= now) this.counting.delete(counted)
      else this.nextWindowEnd = Math.min(this.nextWindowEnd, end)
    }
    return this.counting.size < this.maxKeys
  }

  private lock(key: string, until: number, now: number): void {
    // Drop ended lockouts from the front (a later one that ended goes when it is next asked about), and the
    // oldest one when the table is full.
    for (const [locked, end] of this.lockedUntil) {
      if (end > now && this.lockedUntil.size < this.maxKeys) break
      this.lockedUntil.delete(locked)
    }
    this.lockedUntil.set(key, until)
  }
}
