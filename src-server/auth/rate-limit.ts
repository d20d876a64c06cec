/** Keys remembered at most: enough for every real user and address, bounded against a flood of made-up names. */
export const MAX_TRACKED_KEYS = 10_000

/**
 * Fixed-window failure counter kept in memory: login failures per username and per address. A restart clears
 * it, which is acceptable for a desktop server; the window is short anyway. The map keeps keys in the order their
 * windows started, so when it is full the expired (then the oldest) windows go first.
 */
export class FailureLimiter {
  private readonly failures = new Map<string, { count: number; windowStart: number }>()

  constructor(
    private readonly maxFailures: number,
    private readonly windowMs: number,
    private readonly maxKeys = MAX_TRACKED_KEYS,
  ) {}

  /** Seconds until the key may try again, or 0 if it may try now. */
  retryAfter(key: string, now = Date.now()): number {
    const entry = this.failures.get(key)
    if (!entry) return 0
    if (now - entry.windowStart >= this.windowMs) {
      this.failures.delete(key)
      return 0
    }
    return entry.count >= this.maxFailures ? Math.ceil((entry.windowStart + this.windowMs - now) / 1000) : 0
  }

  recordFailure(key: string, now = Date.now()): void {
    const entry = this.failures.get(key)
    if (entry && now - entry.windowStart < this.windowMs) {
      entry.count += 1
      return
    }
    // A new window goes to the end of the map, keeping the map ordered by window start.
    this.failures.delete(key)
    this.makeRoom(now)
    this.failures.set(key, { count: 1, windowStart: now })
  }

  reset(key: string): void {
    this.failures.delete(key)
  }

  /** How many keys are remembered (for tests of the bound). */
  get size(): number {
    return this.failures.size
  }

  private makeRoom(now: number): void {
    for (const [key, entry] of this.failures) {
      if (this.failures.size < this.maxKeys && now - entry.windowStart < this.windowMs) return
      this.failures.delete(key)
    }
  }
}
