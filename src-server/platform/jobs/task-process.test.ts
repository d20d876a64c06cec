import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { TaskProcess } from './task-process'

/**
 * A task process entry with a task that answers (at once or after a while), one that never does, one that ends its
 * process, one that keeps memory and one that readies a process (and says when it did).
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
    prepare: async () => { globalThis.preparedAt = Date.now(); return null },
    preparedAt: async () => globalThis.preparedAt ?? null,
    prepareLarge: async () => { globalThis.held = Buffer.alloc(400 * 1024 * 1024, 1); return null },
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

  it('readies a new process as soon as one is ended for its memory, before the next task is sent', async () => {
    const tasks = new TaskProcess(60_000, {
      entry: pathToFileURL(entry),
      recycleAboveMb: 250,
      prepareTask: 'prepare',
    })
    try {
      const small = await tasks.run<number>('hold', 10, options)
      expect(await tasks.run<number | null>('preparedAt', {}, options)).toBeNull()
      const large = await tasks.run<number>('hold', 400, options)
      expect(large).toBe(small)
      await new Promise((resolve) => setTimeout(resolve, 500))
      const sent = Date.now()
      const preparedAt = await tasks.run<number | null>('preparedAt', {}, options)
      expect(preparedAt).not.toBeNull()
      expect(preparedAt as number).toBeLessThan(sent)
      expect(await tasks.run<number>('pid', {}, options)).not.toBe(large)
    } finally {
      tasks.close()
    }
  })

  it('does not ready a process again that is over its limit once readied', async () => {
    const tasks = new TaskProcess(60_000, {
      entry: pathToFileURL(entry),
      recycleAboveMb: 250,
      prepareTask: 'prepareLarge',
    })
    try {
      await tasks.run<number>('hold', 400, options)
      // The readied process is ended too, and then none is started until a task comes.
      await expect.poll(() => childProcesses().length, { timeout: 10_000 }).toBe(0)
      await new Promise((resolve) => setTimeout(resolve, 1000))
      expect(childProcesses()).toHaveLength(0)
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

/** The processes this test process started that are still running. */
function childProcesses(): number[] {
  return readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8')
    .split(/\s+/)
    .filter(Boolean)
    .map(Number)
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
