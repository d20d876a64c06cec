/**
 * Fixed-window failure counter kept in memory: login failures per username and per address. A restart clears
 * it, which is acceptable for a desktop server; the window is short anyway.
 */
export class FailureLimiter {
  private readonly failures = new Map<string, { count: number; windowStart: number }>()

  constructor(
    private readonly maxFailures: number,
    private readonly windowMs: number,
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
    if (!entry || now - entry.windowStart >= this.windowMs)
      this.failures.set(key, { count: 1, windowStart: now })
    else entry.count += 1
  }

  reset(key: string): void {
    this.failures.delete(key)
  }
}
