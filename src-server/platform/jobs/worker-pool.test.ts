import { afterEach, describe, expect, it } from 'vitest'
import { sharedBytes, WorkerPool } from './worker-pool'

const testWorker = new URL('../../../test/helpers/test-worker.ts', import.meta.url)
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

  it('fails the task of a thread that dies and serves the next task on a new one', async () => {
    pool = new WorkerPool(1, testWorker)
    const dying = pool.run('die', null)
    const next = pool.run('echo', 'after')
    await expect(dying).rejects.toThrow('worker exited with code: 1')
    expect(await next).toBe('after')
    expect(pool.threadCount).toBe(1)
  })

  it('leaves a task that finishes in time alone', async () => {
    pool = new WorkerPool(1, testWorker)
    expect(await pool.run('echo', { a: 1 }, { timeoutMs: 10_000 })).toEqual({ a: 1 })
    expect(pool.threadCount).toBe(1)
  })

  it('moves handed-over bytes to the thread instead of copying them', async () => {
    pool = new WorkerPool(1, testWorker)
    const bytes = new Uint8Array([1, 2, 3])
    const echoed = await pool.run<{ bytes: Uint8Array }>('echo', { bytes }, { transfer: [bytes] })
    expect(echoed.bytes).toEqual(new Uint8Array([1, 2, 3]))
    // Moved, not copied: the caller's buffer is detached.
    expect(bytes.byteLength).toBe(0)
  })

  it('leaves shared bytes and slices of a larger buffer usable after the task', async () => {
    pool = new WorkerPool(1, testWorker)
    const shared = sharedBytes(new Uint8Array([4, 5, 6]))
    const slice = new Uint8Array(new ArrayBuffer(8), 2, 3)
    slice.set([7, 8, 9])
    const echoed = await pool.run<{ shared: Uint8Array; slice: Uint8Array }>(
      'echo',
      { shared, slice },
      { transfer: [shared, slice] },
    )
    expect(echoed.shared).toEqual(new Uint8Array([4, 5, 6]))
    expect(echoed.slice).toEqual(new Uint8Array([7, 8, 9]))
    expect([...shared, ...slice]).toEqual([4, 5, 6, 7, 8, 9])
  })
})
