/**
 * A server's job runner that dies right after it commits giving up on an evaluation job, for the test that kills it
 * there: `node --import tsx test/helpers/evaluation-give-up-process.ts <data dir> [database url]`. It runs the
 * evaluation module's job registration on the server's database (SQLite in the data directory, or PostgreSQL); the
 * first thing after the commit that fails the job prints `committed` and blocks the process, so the test's SIGKILL
 * finds it before anything after that transaction has run.
 */

import { registerEvaluationJob } from '../../src-server/evaluation/run-job'
import { EVALUATION_JOB } from '../../src-server/evaluation/runs.service'
import type { AppContext } from '../../src-server/platform/app-context'
import { findAppRoot } from '../../src-server/platform/config'
import {
  afterCommit,
  type Database,
  openDatabase,
  openPostgresEngine,
  sqliteEngine,
  sqliteFileIn,
} from '../../src-server/platform/db'
import { JobRunner, WorkerPool } from '../../src-server/platform/jobs'

const [dataDir, url] = process.argv.slice(2)
if (!dataDir) throw new Error('usage: evaluation-give-up-process.ts <data dir> [database url]')

const database: Database = url
  ? await openPostgresEngine(url, findAppRoot())
  : sqliteEngine(openDatabase(sqliteFileIn(dataDir)))
const jobs = new JobRunner(database, new WorkerPool(1), { pollMs: 20 })
// Heard before the evaluation module's listener: what that one leaves for after the commit never runs.
jobs.onJobChange((tx, job) => {
  if (job.type !== EVALUATION_JOB || job.status !== 'failed') return
  afterCommit(tx, () => {
    // Pipes are written synchronously on Linux: the line is out before the process blocks.
    process.stdout.write('committed\n')
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0)
  })
})
const log = { error: (...args: unknown[]) => console.error(...args) }
// The give-up path runs no handler: nothing of the chat pipeline or the models is reached.
registerEvaluationJob({ database, jobs, log } as unknown as AppContext, {
  chat: { complete: () => Promise.reject(new Error('not used')) },
  models: {
    completeJson: () => Promise.reject(new Error('not used')),
    resolve: () => {
      throw new Error('not used')
    },
  },
})
await jobs.start()
