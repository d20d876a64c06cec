import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { findAppRoot } from '../config'
import { applyMigrations, type Database, type Db, openDatabase, sqliteEngine } from '../db'
import { JobRunner } from './job-runner'
import { WorkerPool } from './worker-pool'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

function freshDb(): { db: Db; file: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'switchboard-jobs-'))
  const file = path.join(dir, 'jobs.db')
  const db = openDatabase(file)
  applyMigrations(db, findAppRoot())
  cleanups.push(() => {
    db.$client.close()
    rmSync(dir, { recursive: true, force: true })
  })
  return { db, file }
}

function runnerOn(db: Db, options: { leaseMs?: number } = {}, database = sqliteEngine(db)) {
  const workers = new WorkerPool(1)
  const runner = new JobRunner(database, workers, { pollMs: 10, leaseMs: options.leaseMs ?? 1_000 })
  cleanups.push(async () => {
    await runner.stop(1_000)
    await workers.close()
    await database.close()
  })
  engines.set(runner, database)
  return runner
}

/** Each runner's database, to queue its jobs in a transaction (as every caller of `enqueue` does). */
const engines = new WeakMap<JobRunner, Database>()
const enqueue = (runner: JobRunner, type: string, payload: unknown) =>
  (engines.get(runner) as Database).transact((tx) => runner.enqueue(tx, type, payload))

const until = async (condition: () => boolean, timeoutMs = 10_000) => {
  const start = Date.now()
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not reached')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

const rowOf = (db: Db, id: string) =>
  db.$client
    .prepare('SELECT status, attempts, error, result_json, lease_owner FROM job WHERE id = ?')
    .get(id) as {
    status: string
    attempts: number
    error: string | null
    result_json: string | null
    lease_owner: string | null
  }

describe('durable job runner', () => {
  it('runs a queued job once and stores its result', async () => {
    const { db } = freshDb()
    const runner = runnerOn(db)
    const seen: unknown[] = []
    runner.register<{ n: number }>('double', async ({ payload }) => {
      seen.push(payload)
      return { doubled: payload.n * 2 }
    })
    const job = await enqueue(runner, 'double', { n: 21 })
    await runner.start()
    await until(() => rowOf(db, job.id).status === 'succeeded')
    expect(seen).toEqual([{ n: 21 }])
    expect(rowOf(db, job.id)).toMatchObject({ attempts: 1, result_json: '{"doubled":42}', lease_owner: null })
  })

  it('picks up a job whose worker died (expired lease) exactly once, even with two runners polling', async () => {
    const { db, file } = freshDb()
    // Two runners, each with its own connection, race for it.
    const second = openDatabase(file)
    cleanups.push(() => {
      second.$client.close()
    })
    const calls: string[] = []
    const runners = [runnerOn(db), runnerOn(second)]
    // A job left running by a process that crashed: its lease ran out a minute ago.
    const job = await enqueue(runners[0]!, 'resume-me', { step: 'b' })
    db.$client
      .prepare(
        `UPDATE job SET status = 'running', attempts = 1, lease_owner = 'dead-process', lease_expires_at = ? WHERE id = ?`,
      )
      .run(new Date(Date.now() - 60_000).toISOString(), job.id)
    for (const [index, runner] of runners.entries())
      runner.register('resume-me', async () => {
        calls.push(`runner-${index}`)
        await new Promise((resolve) => setTimeout(resolve, 50))
        return 'done'
      })
    for (const runner of runners) await runner.start()
    await until(() => rowOf(db, job.id).status === 'succeeded')
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(calls).toHaveLength(1)
    expect(rowOf(db, job.id).attempts).toBe(2)
  })

  it('gives each of 50 jobs to exactly one of 70 parallel claims by two runners', async () => {
    const { db } = freshDb()
    // One engine, as in a server: its transactions take turns (two writers in one process would block each other).
    const database = sqliteEngine(db)
    const runners = [runnerOn(db, {}, database), runnerOn(db, {}, database)]
    for (const runner of runners) runner.register('once', async () => null)
    const ids: string[] = []
    for (let n = 0; n < 50; n++) ids.push((await enqueue(runners[0]!, 'once', { n })).id)
    const claims = await Promise.all(
      Array.from({ length: 70 }, (_, n) => (runners[n % 2] as JobRunner).claim()),
    )
    const claimed = claims.flatMap((row) => (row ? [row.id] : []))
    expect(claimed.sort()).toEqual([...ids].sort())
    const owners = db.$client
      .prepare(
        `SELECT lease_owner AS owner, count(*) AS n, max(attempts) AS attempts FROM job GROUP BY lease_owner`,
      )
      .all() as { owner: string; n: number; attempts: number }[]
    expect(owners.every((row) => runners.some((runner) => runner.owner === row.owner))).toBe(true)
    expect(owners.reduce((sum, row) => sum + row.n, 0)).toBe(50)
    expect(owners.map((row) => row.attempts)).toEqual(owners.map(() => 1))
  })

  it('does not take a job whose lease is still fresh', async () => {
    const { db } = freshDb()
    const runner = runnerOn(db)
    const job = await enqueue(runner, 'busy', {})
    db.$client
      .prepare(
        `UPDATE job SET status = 'running', attempts = 1, lease_owner = 'live-process', lease_expires_at = ? WHERE id = ?`,
      )
      .run(new Date(Date.now() + 60_000).toISOString(), job.id)
    let called = false
    runner.register('busy', async () => {
      called = true
    })
    expect(await runner.claim()).toBeNull()
    expect(called).toBe(false)
    expect(rowOf(db, job.id)).toMatchObject({ status: 'running', lease_owner: 'live-process' })
  })

  it('retries a failing handler and fails with its message after max attempts', async () => {
    const { db } = freshDb()
    const runner = runnerOn(db)
    let calls = 0
    runner.register(
      'flaky',
      async () => {
        calls += 1
        throw new Error(`attempt ${calls} broke`)
      },
      { maxAttempts: 2 },
    )
    const job = await enqueue(runner, 'flaky', {})
    await runner.start()
    await until(() => rowOf(db, job.id).status === 'failed')
    expect(calls).toBe(2)
    expect(rowOf(db, job.id)).toMatchObject({ attempts: 2, error: 'attempt 2 broke' })
  })

  it('cancels a queued job at once and a running job through its signal', async () => {
    const { db } = freshDb()
    const runner = runnerOn(db, { leaseMs: 90 })
    runner.register('long', async ({ signal }) => {
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()))
    })
    const queued = await enqueue(runner, 'long', {})
    expect((await runner.cancel(queued.id))?.status).toBe('cancelled')

    const running = await enqueue(runner, 'long', {})
    await runner.start()
    await until(() => rowOf(db, running.id).status === 'running')
    await runner.cancel(running.id)
    await until(() => rowOf(db, running.id).status === 'cancelled')
  })

  it('hands running jobs back to the queue on shutdown and resumes them on the next start', async () => {
    const { db } = freshDb()
    const first = runnerOn(db)
    first.register('slow', async ({ signal }) => {
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()))
    })
    const job = await enqueue(first, 'slow', {})
    await first.start()
    await until(() => rowOf(db, job.id).status === 'running')
    await first.stop()
    // Handed back uncounted: a shutdown is not the job's failed attempt.
    expect(rowOf(db, job.id)).toMatchObject({ status: 'queued', attempts: 0, lease_owner: null })

    const next = runnerOn(db)
    next.register('slow', async () => 'finished')
    await next.start({ resumeOrphans: true })
    await until(() => rowOf(db, job.id).status === 'succeeded')
    expect(rowOf(db, job.id).attempts).toBe(1)
  })

  it('hands back at shutdown a job whose handler outlives the grace, and fences off what it writes later', async () => {
    const { db } = freshDb()
    // A lease far longer than the test: only the hand-back can free the job.
    const first = runnerOn(db, { leaseMs: 600_000 })
    let finishStubborn: () => void = () => {}
    first.register('stubborn', async () => {
      // Ignores the abort: stops only when the test lets it.
      await new Promise<void>((resolve) => {
        finishStubborn = resolve
      })
      return 'written too late'
    })
    const job = await enqueue(first, 'stubborn', {})
    await first.start()
    await until(() => rowOf(db, job.id).status === 'running')
    await first.stop(50)
    expect(rowOf(db, job.id)).toMatchObject({ status: 'queued', attempts: 0, lease_owner: null })

    const next = runnerOn(db, { leaseMs: 600_000 })
    next.register('stubborn', async () => 'finished by the next runner')
    finishStubborn()
    await next.start()
    await until(() => rowOf(db, job.id).status === 'succeeded')
    expect(rowOf(db, job.id)).toMatchObject({
      attempts: 1,
      result_json: '"finished by the next runner"',
      lease_owner: null,
    })
  })

  it('closes what a handler past the grace runs on before handing its job back', async () => {
    const { db } = freshDb()
    const runner = runnerOn(db, { leaseMs: 600_000 })
    const seen: string[] = []
    let executorsClosed: () => void = () => {}
    runner.register('stubborn', async () => {
      // Ignores the abort; ends only once what it runs on is gone, as a task on a closed worker pool does.
      await new Promise<void>((resolve) => {
        executorsClosed = resolve
      })
      seen.push(`handler ended, job ${rowOf(db, jobId).status}`)
      throw new Error('The worker pool is closed.')
    })
    const jobId = (await enqueue(runner, 'stubborn', {})).id
    await runner.start()
    await until(() => rowOf(db, jobId).status === 'running')
    await runner.stop(50, async () => {
      seen.push(`executors closed, job ${rowOf(db, jobId).status}`)
      executorsClosed()
    })
    // The job stayed held until its handler ended; then it went back to the queue uncounted.
    expect(seen).toEqual(['executors closed, job running', 'handler ended, job running'])
    expect(rowOf(db, jobId)).toMatchObject({ status: 'queued', attempts: 0, lease_owner: null })
  })

  it('runs CPU work on a worker thread', async () => {
    const pool = new WorkerPool(1)
    cleanups.push(() => pool.close())
    const digest = await pool.run<string>('sha256', { bytes: new TextEncoder().encode('switchboard') })
    expect(digest).toBe('487537935c922e003caf22a9e8b0108e8b13ff4b350a2a2e83e290c48314cd3c')
    await expect(pool.run('no-such-task', {})).rejects.toThrow('Unknown worker task')
  })
})
