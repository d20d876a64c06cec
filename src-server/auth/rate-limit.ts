import { LRUCache } from 'lru-cache'

/** Keys remembered at most: enough for every real user and address, bounded against a flood of made-up names. */
export const MAX_TRACKED_KEYS = 10_000

/**
 * Fixed-window failure counter kept in memory: login failures per username and per address. A restart clears
 * it, which is acceptable for a desktop server; the window is short anyway. The table is an LRU of bounded size,
 * so a flood of made-up names pushes out the keys that failed longest ago, never the one under attack right now.
 */
export class FailureLimiter {
  private readonly failures: LRUCache<string, { count: number; windowStart: number }>

  constructor(
    private readonly maxFailures: number,
    private readonly windowMs: number,
    maxKeys = MAX_TRACKED_KEYS,
  ) {
    this.failures = new LRUCache({ max: maxKeys })
  }

  /** Seconds until the key may try again, or 0 if it may try now. */
  retryAfter(key: string, now = Date.now()): number {
    const entry = this.failures.peek(key)
    if (!entry) return 0
    if (now - entry.windowStart >= this.windowMs) {
      this.failures.delete(key)
      return 0
    }
    return entry.count >= this.maxFailures ? Math.ceil((entry.windowStart + this.windowMs - now) / 1000) : 0
  }

  recordFailure(key: string, now = Date.now()): void {
    const entry = this.failures.get(key)
    if (entry && now - entry.windowStart < this.windowMs) entry.count += 1
    else this.failures.set(key, { count: 1, windowStart: now })
  }

  reset(key: string): void {
    this.failures.delete(key)
  }

  /** How many keys are remembered (for tests of the bound). */
  get size(): number {
    return this.failures.size
  }
}
