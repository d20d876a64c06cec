import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { TaskProcess } from './task-process'

/**
 * A task process entry with a task that answers (at once or after a while), one that never does, one that ends its
 * process and one that keeps memory.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'switchboard-task-process-'))
const entry = path.join(dir, 'entry.mjs')
writeFileSync(
  entry,
  `const tasks = {
    pid: async () => process.pid,
    pidAfter: (ms) => new Promise((resolve) => setTimeout(() => resolve(process.pid), ms)),
    hang: () => new Promise(() => setInterval(() => {}, 1000)),
    crash: () => process.exit(3),
    hold: async (mb) => { globalThis.held = Buffer.alloc(mb * 1024 * 1024, 1); return process.pid },
  }
  const rssMb = () => Math.round(process.memoryUsage.rss() / 1048576)
  process.on('message', async ({ id, task, input }) => {
    try { process.send({ id, result: await tasks[task](input), rssMb: rssMb() }) }
    catch (error) { process.send({ id, error: String(error), rssMb: rssMb() }) }
  })
  process.on('disconnect', () => process.exit(0))`,
)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const options = { timeoutMs: 30_000, timeoutMessage: 'took too long' }

describe('task process', () => {
  it('runs tasks in a child process; a hung or dying one fails alone and the next runs in a new process', async () => {
    const tasks = new TaskProcess(60_000, { entry: pathToFileURL(entry) })
    try {
      const first = await tasks.run<number>('pid', {}, options)
      expect(first).not.toBe(process.pid)
      expect(await tasks.run<number>('pid', {}, options)).toBe(first)
      await expect(tasks.run('hang', {}, { ...options, timeoutMs: 300 })).rejects.toThrow('took too long')
      const second = await tasks.run<number>('pid', {}, options)
      expect(second).not.toBe(first)
      await expect(tasks.run('crash', {}, options)).rejects.toThrow('the task process stopped (exit code 3)')
      expect(await tasks.run<number>('pid', {}, options)).not.toBe(second)
    } finally {
      tasks.close()
    }
  }, 60_000)

  it('is not idle while a task waits its turn: the process outlives the idle time between queued tasks', async () => {
    const tasks = new TaskProcess(200, { entry: pathToFileURL(entry) })
    try {
      // The second waits behind the first and runs longer than the idle time after the first ends.
      const [first, second] = await Promise.all([
        tasks.run<number>('pidAfter', 50, options),
        tasks.run<number>('pidAfter', 1000, options),
      ])
      expect(second).toBe(first)
    } finally {
      tasks.close()
    }
  })

  it('ends a process that holds more than its limit after a task, and runs the next task in a new one', async () => {
    const tasks = new TaskProcess(60_000, { entry: pathToFileURL(entry), recycleAboveMb: 250 })
    try {
      const small = await tasks.run<number>('hold', 10, options)
      expect(await tasks.run<number>('pid', {}, options)).toBe(small)
      const large = await tasks.run<number>('hold', 400, options)
      expect(large).toBe(small)
      const next = await tasks.run<number>('pid', {}, options)
      expect(next).not.toBe(large)
      await expect.poll(() => isAlive(large), { timeout: 10_000 }).toBe(false)
    } finally {
      tasks.close()
    }
  })

  it('ends its process when idle', async () => {
    const tasks = new TaskProcess(200, { entry: pathToFileURL(entry) })
    const pid = await tasks.run<number>('pid', {}, options)
    await expect.poll(() => isAlive(pid), { timeout: 10_000 }).toBe(false)
  })
})

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
