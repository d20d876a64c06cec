import { describe, expect, it } from 'vitest'
import { FailureLimiter, MAX_TRACKED_KEYS } from './rate-limit'

describe('login failure limiter', () => {
  it('locks a key out after its failures within the window, and lets it in after the window', () => {
    const limiter = new FailureLimiter(3, 60_000)
    for (let i = 0; i < 3; i++) limiter.recordFailure('ann', 1_000)
    expect(limiter.retryAfter('ann', 2_000)).toBe(59)
    expect(limiter.retryAfter('bob', 2_000)).toBe(0)
    expect(limiter.retryAfter('ann', 61_000)).toBe(0)
  })

  it('stays bounded under 100,000 distinct usernames and still locks out the one being attacked', () => {
    const limiter = new FailureLimiter(10, 15 * 60_000)
    for (let i = 0; i < 10; i++) limiter.recordFailure('admin', 0)
    for (let i = 0; i < 100_000; i++) limiter.recordFailure(`made-up-${i}`, 1_000 + i)
    expect(limiter.size).toBeLessThanOrEqual(MAX_TRACKED_KEYS)
    // The flood pushed the oldest window out; a fresh attack on the same name is counted again from scratch.
    for (let i = 0; i < 10; i++) limiter.recordFailure('admin', 200_000)
    expect(limiter.retryAfter('admin', 200_001)).toBeGreaterThan(0)
    expect(limiter.size).toBeLessThanOrEqual(MAX_TRACKED_KEYS)
  })

  it('drops the key that failed longest ago, not a live lockout, when full', () => {
    const limiter = new FailureLimiter(2, 1_000, 3)
    limiter.recordFailure('old', 0)
    limiter.recordFailure('live-1', 5_000)
    limiter.recordFailure('live-1', 5_001)
    limiter.recordFailure('live-2', 5_002)
    limiter.recordFailure('new', 5_003)
    expect(limiter.size).toBe(3)
    expect(limiter.retryAfter('live-1', 5_004)).toBeGreaterThan(0)
  })
})
