import { type ChildProcess, spawn } from 'node:child_process'
import { sql } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type PostgresCluster, postgresUnavailable, startPostgres } from '../../../test/helpers/postgres'
import { until } from '../../../test/helpers/server-process'
import { findAppRoot } from '../config'
import { type Database, openPostgresEngine, type PgDb, runSql } from '../db'
import { type EventBus, postgresEventBus } from '../events'
import { JobRunner } from './job-runner'
import { WorkerPool } from './worker-pool'

/** A runner process (`test/helpers/job-runner-process.ts`) with its own pool on the test's database. */
interface RunnerProcess {
  owner: string
  kill(): Promise<void>
}

interface Effect {
  job_id: string
  runner: string
  attempt: number
  step: string
}

const unavailable = postgresUnavailable()
describe.skipIf(unavailable)(
  `jobs across runner processes on PostgreSQL${unavailable ? ` (skipped: ${unavailable})` : ''}`,
  () => {
    let cluster: PostgresCluster
    const children: ChildProcess[] = []
    const opened: Database[] = []
    /** In-process instances: each runner stops before its bus and its pool close. */
    const instances: (() => Promise<void>)[] = []
    const workers = new WorkerPool(1)

    beforeAll(async () => {
      cluster = await startPostgres()
    })
    afterEach(async () => {
      for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL')
      for (const close of instances.splice(0)) await close()
      for (const database of opened.splice(0)) await database.close()
    })
    afterAll(async () => {
      await workers.close()
      await cluster?.stop()
    })

    /** A migrated database with the tables the runner processes record their side effects in. */
    async function migratedDatabase(name: string) {
      const url = await cluster.createDatabase(name)
      const database = await openPostgresEngine(url, findAppRoot())
      opened.push(database)
      await database.transact(async (tx) => {
        await runSql(
          tx,
          sql`CREATE TABLE job_effect (id serial PRIMARY KEY, job_id text NOT NULL, runner text NOT NULL,
                attempt integer NOT NULL, step text NOT NULL)`,
        )
        await runSql(tx, sql`CREATE TABLE job_release (job_id text PRIMARY KEY)`)
      })
      // Enqueues and reads only: never started.
      return { url, database, jobs: new JobRunner(database, workers) }
    }

    async function startRunner(url: string, leaseMs: number): Promise<RunnerProcess> {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', 'test/helpers/job-runner-process.ts', url, String(leaseMs)],
        { cwd: findAppRoot(), stdio: ['ignore', 'pipe', 'pipe'] },
      )
      children.push(child)
      let output = ''
      child.stdout?.on('data', (chunk) => (output += chunk))
      child.stderr?.on('data', (chunk) => (output += chunk))
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
      const ready = await until(
        async () => {
          if (child.exitCode !== null) throw new Error(`runner process exited:\n${output}`)
          return /^ready (\S+)$/m.exec(output)?.[1]
        },
        (owner) => owner !== undefined,
      )
      return {
        owner: ready as string,
        async kill() {
          child.kill('SIGKILL')
          await exited
        },
      }
    }

    const effects = (database: Database, where = sql`true`) =>
      runSql<Effect>(
        database.reader,
        sql`SELECT job_id, runner, attempt, step FROM job_effect WHERE ${where} ORDER BY id`,
      )

    it('runs each of 60 jobs exactly once while two runner processes claim them', async () => {
      const { url, database, jobs } = await migratedDatabase('exactly_once')
      const runners = await Promise.all([startRunner(url, 5_000), startRunner(url, 5_000)])
      const enqueued = await database.transact(async (tx) => {
        const rows = []
        for (let n = 0; n < 60; n++) rows.push(await jobs.enqueue(tx, 'count', { n }))
        return rows
      })
      const done = sql`status = 'succeeded'`
      await until(
        async () =>
          runSql<{ n: number }>(database.reader, sql`SELECT count(*)::int AS n FROM job WHERE ${done}`),
        ([row]) => row?.n === enqueued.length,
      )

      const ran = await effects(database)
      expect(ran.map((effect) => effect.job_id).sort()).toEqual(enqueued.map((job) => job.id).sort())
      // Both processes took jobs: the claims really raced.
      expect(new Set(ran.map((effect) => effect.runner))).toEqual(
        new Set(runners.map((runner) => runner.owner)),
      )
      for (const effect of ran) {
        const job = await jobs.get(effect.job_id)
        expect(job).toMatchObject({ status: 'succeeded', attempts: 1, result: { runner: effect.runner } })
      }
    })

    it('finishes a job on the other runner once the process running it is killed mid-way', async () => {
      const { url, database, jobs } = await migratedDatabase('takeover')
      const runners = await Promise.all([startRunner(url, 1_500), startRunner(url, 1_500)])
      const job = await database.transact((tx) => jobs.enqueue(tx, 'halfway', {}))
      const [started] = await until(
        () => effects(database, sql`job_id = ${job.id}`),
        (rows) => rows.length > 0,
      )
      const killed = runners.find((runner) => runner.owner === started?.runner)
      const survivor = runners.find((runner) => runner !== killed)
      if (!killed || !survivor)
        throw new Error(`the job was started by an unknown runner: ${started?.runner}`)
      await killed.kill()
      // Only now may the job go past its middle: the killed process never could.
      await database.transact((tx) => runSql(tx, sql`INSERT INTO job_release (job_id) VALUES (${job.id})`))

      const finished = await until(
        () => jobs.get(job.id),
        (row) => row?.status === 'succeeded',
      )
      expect(finished).toMatchObject({ attempts: 2, leaseOwner: null, result: { runner: survivor.owner } })
      expect(await effects(database, sql`job_id = ${job.id}`)).toEqual([
        { job_id: job.id, runner: killed.owner, attempt: 1, step: 'started' },
        { job_id: job.id, runner: survivor.owner, attempt: 2, step: 'started' },
        { job_id: job.id, runner: survivor.owner, attempt: 2, step: 'finished' },
      ])
    })

    /** A runner in this process on its own pool of `url`, announcing and hearing queued jobs on its own bus. */
    async function instance(url: string, options: { pollMs: number; leaseMs: number }) {
      const database = await openPostgresEngine(url, findAppRoot())
      let listening: () => void = () => {}
      const heard = new Promise<void>((resolve) => {
        listening = resolve
      })
      const events: EventBus = postgresEventBus({
        pool: (database.reader as unknown as PgDb).$client,
        onError: () => {},
        onListening: () => listening(),
      })
      await heard
      const runner = new JobRunner(database, workers, { ...options, events })
      instances.push(async () => {
        await runner.stop(100)
        await events.close()
        await database.close()
      })
      return { database, runner }
    }

    /** Far beyond the test's wait: a runner that claims a job sooner was woken up. */
    const NEVER_POLLS_MS = 3_600_000
    /** A generous wait for the effect on a loaded machine; no timing is asserted. */
    const WAIT_MS = 15_000

    it("starts a job enqueued on another instance at once, without waiting for this runner's next poll", async () => {
      const url = await cluster.createDatabase('wake_up')
      const a = await instance(url, { pollMs: NEVER_POLLS_MS, leaseMs: 30_000 })
      const b = await instance(url, { pollMs: NEVER_POLLS_MS, leaseMs: 30_000 })
      const ranOnB: string[] = []
      b.runner.register('wake', async ({ job }) => void ranOnB.push(job.id))
      // B's first poll is over (nothing was queued); A's runner is never started.
      await b.runner.start()

      const job = await a.database.transact((tx) => a.runner.enqueue(tx, 'wake', {}))
      const finished = await until(
        () => b.runner.get(job.id),
        (row) => row?.status === 'succeeded',
        WAIT_MS,
      )
      expect(finished).toMatchObject({ attempts: 1, leaseOwner: null })
      expect(ranOnB).toEqual([job.id])
    })

    it('hands the jobs of an instance that stops to another one at once, uncounted, without their lease expiring', async () => {
      const url = await cluster.createDatabase('hand_back')
      // Leases longer than the test: only the hand-back frees the job; B polls only when woken.
      const a = await instance(url, { pollMs: 10, leaseMs: 600_000 })
      const b = await instance(url, { pollMs: NEVER_POLLS_MS, leaseMs: 600_000 })
      let stubbornOnA = false
      a.runner.register('long', async () => {
        // Ignores the shutdown's abort, as a handler stuck in a call would.
        stubbornOnA = true
        await new Promise(() => {})
      })
      await b.runner.start()
      const job = await a.database.transact((tx) => a.runner.enqueue(tx, 'long', {}))
      await a.runner.start()
      await until(
        () => a.runner.get(job.id),
        (row) => row?.status === 'running' && stubbornOnA,
      )
      // Only now can B run the job: woken by the enqueue, it would otherwise race A for it (and on a loaded
      // machine win, leaving nothing on A to hand back).
      b.runner.register('long', async () => 'finished on B')

      await a.runner.stop(100)
      const finished = await until(
        () => b.runner.get(job.id),
        (row) => row?.status === 'succeeded',
        WAIT_MS,
      )
      expect(finished).toMatchObject({ attempts: 1, leaseOwner: null, result: 'finished on B' })
    })
  },
)
