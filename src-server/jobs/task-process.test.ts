import { describe, expect, it } from 'vitest'
import { TaskProcess } from './task-process'

describe('task process', () => {
  it('runs a task in a child process, ends a task past its timeout with its process, and starts a new one', async () => {
    const tasks = new TaskProcess(60_000)
    try {
      const bytes = new Uint8Array([1, 2, 3])
      const digest = await tasks.run<string>(
        'sha256',
        { bytes },
        { timeoutMs: 60_000, timeoutMessage: 'slow' },
      )
      expect(digest).toMatch(/^[0-9a-f]{64}$/)
      // A hung task is ended with its process, and named.
      const hung = tasks.run('sha256', { bytes: null }, { timeoutMs: 1, timeoutMessage: 'took too long' })
      await expect(hung).rejects.toThrow(/took too long|task process stopped/)
      await expect(
        tasks.run<string>('sha256', { bytes }, { timeoutMs: 60_000, timeoutMessage: 'slow' }),
      ).resolves.toBe(digest)
      await expect(
        tasks.run('no-such-task', {}, { timeoutMs: 60_000, timeoutMessage: 'slow' }),
      ).rejects.toThrow(/Unknown task/)
    } finally {
      tasks.close()
    }
  }, 60_000)
})
