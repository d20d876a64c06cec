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

  it('stays bounded under 100,000 distinct usernames and keeps the locked-out one locked through them', () => {
    const limiter = new FailureLimiter(10, 15 * 60_000)
    for (let i = 0; i < 10; i++) limiter.recordFailure('admin', 0)
    for (let i = 0; i < 100_000; i++) limiter.recordFailure(`made-up-${i}`, 1_000 + i)
    // One failure each: the made-up names only count, so they never push a lockout out.
    expect(limiter.size).toBe(MAX_TRACKED_KEYS + 1)
    expect(limiter.retryAfter('admin', 101_000)).toBe(900 - 101)
    expect(limiter.retryAfter('admin', 15 * 60_000)).toBe(0)
  })

  it('keeps a lockout the attacker stopped asking about, then counts the key afresh after its window', () => {
    const limiter = new FailureLimiter(2, 1_000, 3)
    limiter.recordFailure('ann', 0)
    limiter.recordFailure('ann', 10)
    for (let i = 0; i < 10; i++) limiter.recordFailure(`made-up-${i}`, 20 + i)
    expect(limiter.retryAfter('ann', 500)).toBe(1)
    // Failures while locked out do not stretch the lockout.
    limiter.recordFailure('ann', 600)
    expect(limiter.retryAfter('ann', 1_000)).toBe(0)
    limiter.recordFailure('ann', 1_100)
    expect(limiter.retryAfter('ann', 1_200)).toBe(0)
    limiter.recordFailure('ann', 1_300)
    expect(limiter.retryAfter('ann', 1_400)).toBe(1)
  })

  it('bounds the lockouts too, letting the oldest go only when as many other keys are locked out', () => {
    const limiter = new FailureLimiter(1, 60_000, 3)
    for (const key of ['a', 'b', 'c']) limiter.recordFailure(key, 0)
    expect(['a', 'b', 'c'].map((key) => limiter.retryAfter(key, 1))).toEqual([60, 60, 60])
    limiter.recordFailure('d', 2)
    expect(['a', 'b', 'c', 'd'].map((key) => limiter.retryAfter(key, 3) > 0)).toEqual([
      false,
      true,
      true,
      true,
    ])
    expect(limiter.size).toBe(3)
  })

  it('forgets the counting key that failed longest ago when full, never a lockout', () => {
    const limiter = new FailureLimiter(2, 1_000, 3)
    limiter.recordFailure('old', 0)
    limiter.recordFailure('live-1', 5_000)
    limiter.recordFailure('live-1', 5_001)
    limiter.recordFailure('live-2', 5_002)
    limiter.recordFailure('new', 5_003)
    limiter.recordFailure('newer', 5_004)
    expect(limiter.size).toBe(4)
    expect(limiter.retryAfter('live-1', 5_005)).toBeGreaterThan(0)
    // `live-2` is still counted: its second failure locks it.
    limiter.recordFailure('live-2', 5_006)
    expect(limiter.retryAfter('live-2', 5_007)).toBeGreaterThan(0)
    // `old` was forgotten: its next failure is its first again, and locks nothing.
    limiter.recordFailure('old', 5_008)
    expect(limiter.retryAfter('old', 5_009)).toBe(0)
  })
})

describe('an address limiter that leaves new keys uncounted when full', () => {
  it('keeps a limited key counting through a flood of other keys, and refuses none of the newcomers', () => {
    const limiter = new FailureLimiter(3, 1_000, 3, 'skip-new')
    limiter.recordFailure('victim', 0)
    limiter.recordFailure('victim', 10)
    for (let i = 0; i < 10; i++) limiter.recordFailure(`flood-${i}`, 20 + i)
    // Two flood keys fit; the rest may try, uncounted, rather than be counted over the victim's window.
    expect(limiter.size).toBe(3)
    expect(limiter.retryAfter('flood-9', 100)).toBe(0)
    limiter.recordFailure('flood-9', 101)
    limiter.recordFailure('flood-9', 102)
    expect(limiter.retryAfter('flood-9', 103)).toBe(0)
    limiter.recordFailure('victim', 200)
    expect(limiter.retryAfter('victim', 300)).toBe(1)
  })

  it('counts new keys again once the windows that filled the table have ended', () => {
    const limiter = new FailureLimiter(2, 1_000, 2, 'skip-new')
    limiter.recordFailure('a', 0)
    limiter.recordFailure('b', 0)
    limiter.recordFailure('late', 500)
    limiter.recordFailure('late', 501)
    expect(limiter.retryAfter('late', 502)).toBe(0)
    limiter.recordFailure('late', 1_000)
    limiter.recordFailure('late', 1_001)
    expect(limiter.retryAfter('late', 1_002)).toBe(1)
  })

  it('forgets the limited key’s count under the same flood when it forgets the oldest instead', () => {
    const limiter = new FailureLimiter(3, 1_000, 3)
    limiter.recordFailure('victim', 0)
    limiter.recordFailure('victim', 10)
    for (let i = 0; i < 10; i++) limiter.recordFailure(`flood-${i}`, 20 + i)
    limiter.recordFailure('victim', 200)
    expect(limiter.retryAfter('victim', 300)).toBe(0)
  })
})

describe('reserving attempts before their outcome is known', () => {
  it('admits only as many parallel attempts as failures remain, and gives a success its place back', () => {
    const limiter = new FailureLimiter(3, 60_000)
    const admitted = Array.from({ length: 10 }, () => limiter.reserve('ann', 0)).filter((wait) => wait === 0)
    expect(admitted).toHaveLength(3)
    limiter.settle('ann', false, 1)
    expect(limiter.reserve('ann', 2)).toBe(0)
    for (let i = 0; i < 3; i++) limiter.settle('ann', true, 3)
    expect(limiter.failures('ann', 4)).toBe(3)
    expect(limiter.reserve('ann', 5)).toBe(60)
  })
})
