import { afterEach, describe, expect, it, vi } from 'vitest'
import { Guard } from './guard'

afterEach(() => {
  vi.useRealTimers()
})

describe('the health guard', () => {
  it('re-runs its checks on a timer while watched, so a reader never runs them itself', async () => {
    vi.useFakeTimers()
    const guard = new Guard('enforce')
    let runs = 0
    let failing = false
    guard.register('probe', () => {
      runs += 1
      return failing ? { state: 'failed', message: 'The probe failed.' } : null
    })
    const stop = await guard.watch(1_000)
    expect(runs).toBe(1)
    failing = true
    vi.advanceTimersByTime(1_000)
    expect(runs).toBe(2)
    // Readers get the timer's findings from the cache: no check runs on their account.
    expect(guard.evaluate()).toMatchObject({ state: 'failed', messages: ['The probe failed.'] })
    expect(guard.blocksWrites()).toBe(true)
    expect(runs).toBe(2)
    stop()
    vi.advanceTimersByTime(10_000)
    expect(runs).toBe(2)
  })

  it('counts an asynchronous check by its last settled finding, and one that rejects as failed', async () => {
    const guard = new Guard('enforce')
    let answer: Promise<null | { state: 'failed'; message: string }> = Promise.resolve(null)
    guard.register('database', () => answer)
    expect(guard.evaluate(true).state).toBe('ok')
    answer = Promise.resolve({ state: 'failed', message: 'The database is behind.' })
    guard.evaluate(true)
    await answer
    expect(guard.evaluate(true)).toMatchObject({ state: 'failed', messages: ['The database is behind.'] })
    answer = Promise.reject(new Error('connection refused'))
    guard.evaluate(true)
    await answer.catch(() => undefined)
    expect(guard.evaluate(true)).toMatchObject({
      state: 'failed',
      messages: ['The database check could not run: connection refused'],
    })
    answer = Promise.resolve(null)
    guard.evaluate(true)
    await answer
    expect(guard.evaluate(true).state).toBe('ok')
  })

  it('counts an asynchronous check in the first evaluation, and in each watched one what it found then', async () => {
    const guard = new Guard('enforce')
    let behind = true
    guard.register('migrations', async () =>
      behind ? { state: 'failed', message: 'The database has 40 of 41 migrations applied.' } : null,
    )
    const stop = await guard.watch(60_000)
    // The first reader already finds the database behind, and writes refused.
    expect(guard.evaluate()).toMatchObject({
      state: 'failed',
      messages: ['The database has 40 of 41 migrations applied.'],
    })
    expect(guard.blocksWrites()).toBe(true)
    stop()

    vi.useFakeTimers()
    const watched = new Guard('enforce')
    watched.register('migrations', async () =>
      behind ? { state: 'failed', message: 'The database is behind.' } : null,
    )
    const stopWatched = await watched.watch(1_000)
    behind = false
    await vi.advanceTimersByTimeAsync(1_000)
    expect(watched.evaluate().state).toBe('ok')
    behind = true
    await vi.advanceTimersByTimeAsync(1_000)
    expect(watched.evaluate()).toMatchObject({ state: 'failed', messages: ['The database is behind.'] })
    stopWatched()
  })

  it('starts when an asynchronous check never answers, and counts that check as failed', async () => {
    const guard = new Guard('enforce', 50)
    guard.register('database', () => new Promise(() => {}))
    const stop = await guard.watch(60_000)
    expect(guard.evaluate()).toMatchObject({
      state: 'failed',
      messages: ['The database check could not run: it did not answer within 0.05 s'],
    })
    expect(guard.blocksWrites()).toBe(true)
    stop()
  })

  it("keeps a newer run's finding when an older run of an asynchronous check settles after it", async () => {
    const guard = new Guard('enforce')
    const settles: ((finding: { state: 'failed'; message: string } | null) => void)[] = []
    guard.register('database', () => new Promise((resolve) => settles.push(resolve)))
    const older = guard.refresh()
    const newer = guard.refresh()
    settles[1]?.(null)
    await newer
    settles[0]?.({ state: 'failed', message: 'The database is behind.' })
    await older
    expect(guard.evaluate()).toMatchObject({ state: 'ok', messages: [] })
    expect(guard.blocksWrites()).toBe(false)
  })
})
