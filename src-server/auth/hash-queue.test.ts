import { describe, expect, it } from 'vitest'
import { HashQueue } from './hash-queue'

/** A task the test finishes by hand, recording when it started. */
function gate(started: string[], name: string) {
  let finish: () => void = () => {}
  const done = new Promise<string>((resolve) => {
    finish = () => resolve(name)
  })
  return {
    task: () => {
      started.push(name)
      return done
    },
    finish: () => finish(),
  }
}

describe('a bounded hashing queue', () => {
  it('runs at most its concurrency, starts waiters in order, and refuses at once past its line', async () => {
    const queue = new HashQueue(1, 2)
    const started: string[] = []
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((name) => gate(started, name))
    const runs = [a, b, c].map((g) => queue.tryRun(g!.task))
    expect(queue.tryRun(d!.task)).toBeNull()
    expect(started).toEqual(['a'])
    a!.finish()
    await runs[0]
    // The freed slot goes to the first waiter, not to a newcomer.
    const late = gate(started, 'late')
    expect(queue.tryRun(late.task)).not.toBeNull()
    await Promise.resolve()
    expect(started).toEqual(['a', 'b'])
    b!.finish()
    c!.finish()
    late.finish()
    expect(await Promise.all(runs)).toEqual(['a', 'b', 'c'])
    expect(started).toEqual(['a', 'b', 'c', 'late'])
  })

  it('gives its slot back when a task fails', async () => {
    const queue = new HashQueue(1, 0)
    await expect(queue.tryRun(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom')
    expect(await queue.tryRun(async () => 'next')).toBe('next')
  })
})
