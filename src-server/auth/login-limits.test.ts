import { describe, expect, it } from 'vitest'
import { HashQueue } from './hash-queue'
import { FAILURES_BEFORE_SLOWDOWN, FAILURES_PER_USER_AT_ADDRESS, LoginLimits } from './login-limits'
import { inMemoryCounters } from './rate-limit'

const fail = async () => null

describe('the per-user slowdown', () => {
  it('lets an address with no failures go before the queued attempts of addresses that failed', async () => {
    // Checks of a slowed user 20 ms apart instead of a second: the order is what is asserted, not the spacing.
    const limits = new LoginLimits(new HashQueue(2, 64), inMemoryCounters, 20)
    const failing = ['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.4']
    // Three failures from each: past the slowdown threshold, no address locked out yet.
    for (const address of failing)
      for (let i = 0; i < 3; i++) await limits.attempt('lee', address, fail).catch(() => {})
    expect(failing.length * 3).toBeGreaterThanOrEqual(FAILURES_BEFORE_SLOWDOWN)

    const order: string[] = []
    const queued = failing.flatMap((address) =>
      [1, 2].map(() =>
        limits.attempt('lee', address, async () => {
          order.push(address)
          return null
        }),
      ),
    )
    const owner = limits.attempt('lee', '10.0.0.9', async () => {
      order.push('owner')
      return 'signed in'
    })
    expect(await owner).toBe('signed in')
    // At most the attempt already started ran before the owner's.
    expect(order.indexOf('owner')).toBeLessThanOrEqual(1)
    await Promise.allSettled(queued)
  })
})

describe('the per (user, address) lockout', () => {
  it('counts afresh after the right password, but not past the limit in one run', async () => {
    const limits = new LoginLimits(new HashQueue(2, 64))
    const attempts = (n: number) =>
      Promise.all(
        Array.from({ length: n }, () =>
          limits.attempt('kim', '10.0.0.5', fail).then(
            () => 'checked',
            () => 'refused',
          ),
        ),
      )
    expect(await attempts(FAILURES_PER_USER_AT_ADDRESS - 1)).not.toContain('refused')
    expect(await limits.attempt('kim', '10.0.0.5', async () => 'kim')).toBe('kim')
    expect(await attempts(FAILURES_PER_USER_AT_ADDRESS + 3)).toEqual([
      ...Array(FAILURES_PER_USER_AT_ADDRESS).fill('checked'),
      ...Array(3).fill('refused'),
    ])
    await expect(limits.attempt('kim', '10.0.0.5', async () => 'kim')).rejects.toMatchObject({
      statusCode: 429,
    })
  })
})
