import { afterEach, describe, expect, it } from 'vitest'
import { WorkerPool } from './worker-pool'

const testWorker = new URL('../../test/helpers/test-worker.ts', import.meta.url)
let pool: WorkerPool | undefined
afterEach(async () => pool?.close())

describe('worker pool', () => {
  it('fails a task that outlives its timeout, kills its thread and serves the next task on a new one', async () => {
    pool = new WorkerPool(1, testWorker)
    expect(await pool.run('echo', 'warm')).toBe('warm')
    const hung = pool.run('hang', null, { timeoutMs: 300, timeoutMessage: 'Parsing took too long.' })
    // Queued behind the hung task on the only thread: it runs once that thread is replaced.
    const next = pool.run('echo', 'after')
    await expect(hung).rejects.toThrow('Parsing took too long.')
    expect(await next).toBe('after')
    expect(pool.threadCount).toBe(1)
  })

  it('leaves a task that finishes in time alone', async () => {
    pool = new WorkerPool(1, testWorker)
    expect(await pool.run('echo', { a: 1 }, { timeoutMs: 10_000 })).toEqual({ a: 1 })
    expect(pool.threadCount).toBe(1)
  })
})
