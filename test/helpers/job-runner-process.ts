/**
 * A job runner as its own process on a PostgreSQL database, for tests that run several and kill one:
 * `node --import tsx test/helpers/job-runner-process.ts <database url> <lease ms>`. Prints `ready <owner>` once
 * polling. Its two job types write what they do to the test's `job_effect` table:
 * - `count`: one row (job, runner), then done: the side effect counted by the exactly-once test;
 * - `halfway`: a `started` row, then waits until the test writes a `job_release` row for the job, then a
 *   `finished` row: a job to kill its runner in the middle of.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { sql } from 'drizzle-orm'
import { findAppRoot } from '../../src-server/platform/config'
import { type EngineDb, openPostgresEngine, runSql } from '../../src-server/platform/db'
import { JobRunner, WorkerPool } from '../../src-server/platform/jobs'

const [url, leaseMs] = process.argv.slice(2)
if (!url || !leaseMs) throw new Error('usage: job-runner-process.ts <database url> <lease ms>')

const database = await openPostgresEngine(url, findAppRoot())
const workers = new WorkerPool(1)
const runner = new JobRunner(database, workers, { leaseMs: Number(leaseMs), pollMs: 20, concurrency: 2 })

const effect = (jobId: string, attempt: number, step: string) =>
  database.transact((tx) =>
    runSql(
      tx,
      sql`INSERT INTO job_effect (job_id, runner, attempt, step) VALUES (${jobId}, ${runner.owner}, ${attempt}, ${step})`,
    ),
  )
const released = async (db: EngineDb, jobId: string) =>
  (await runSql(db, sql`SELECT 1 FROM job_release WHERE job_id = ${jobId}`)).length > 0

runner.register('count', async ({ job }) => {
  await effect(job.id, job.attempts, 'ran')
  return { runner: runner.owner }
})
runner.register('halfway', async ({ job, signal }) => {
  await effect(job.id, job.attempts, 'started')
  while (!(await released(database.reader, job.id))) {
    if (signal.aborted) throw signal.reason
    await sleep(20)
  }
  await effect(job.id, job.attempts, 'finished')
  return { runner: runner.owner }
})

await runner.start()
process.stdout.write(`ready ${runner.owner}\n`)

process.once('SIGTERM', async () => {
  await runner.stop(1_000)
  await workers.close()
  await database.close()
  process.exit(0)
})
