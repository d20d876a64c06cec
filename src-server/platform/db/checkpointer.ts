import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import type { Db } from './client'

/**
 * WAL checkpoints off the request thread. SQLite's automatic checkpoint runs inside the commit that crosses its
 * threshold, on the writer's connection, and fsyncs the WAL and the database file: on this machine's disk two
 * fsyncs of several milliseconds each, every few dozen purchases, with no request served meanwhile. A worker
 * thread with its own connection runs a PASSIVE checkpoint (it never waits for the writer or for readers) every
 * `intervalMs`; the writer's automatic checkpoint stays as a backstop at a larger threshold.
 *
 * Under sustained writes the backstop still runs: a checkpoint can only start the WAL over once it has caught up
 * with the writer, which a writer committing every few milliseconds never lets it do. Its fsync then writes out
 * whatever WAL the worker has not synced yet, so the worker looks often: checkpointing once a second, a burst of
 * purchases left ~70 MB unsynced and the writer's fsync took 62-77 ms (purchases' p99 33-39 ms in those blocks);
 * every 50 ms, 5-6 ms. A look that finds nothing new costs the worker ~6 µs, and is not reported.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.driver)
const db = new Database(workerData.file)
db.pragma('busy_timeout = 5000')
db.pragma('synchronous = NORMAL')
let reported = ''
const timer = setInterval(() => {
  try {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)')
    const report = result.log + '/' + result.checkpointed
    if (report === reported) return
    reported = report
    parentPort.postMessage({ log: result.log, checkpointed: result.checkpointed })
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message) })
  }
}, workerData.intervalMs)
parentPort.on('message', () => {
  clearInterval(timer)
  db.close()
  parentPort.close()
})
`

/** Pages the writer may append before checkpointing by itself (SQLite's default is 1,000). */
const BACKSTOP_PAGES = 20_000

export interface CheckpointReport {
  /** Frames in the WAL, and how many of them are now in the database file. */
  log: number
  checkpointed: number
}

export interface Checkpointer {
  /** Called after each checkpoint the worker ran that found the WAL changed. */
  onCheckpoint(listener: (report: CheckpointReport) => void): void
  stop(): Promise<void>
}

export function startCheckpointer(db: Db, intervalMs = 50): Checkpointer {
  db.$client.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`)
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: {
      file: db.$client.name,
      intervalMs,
      driver: createRequire(import.meta.url).resolve('better-sqlite3'),
    },
  })
  // A failed checkpoint is retried on the next tick, and the backstop still bounds the WAL.
  const listeners: ((report: CheckpointReport) => void)[] = []
  worker.on('message', (message: CheckpointReport | { error: string }) => {
    if (!('error' in message)) for (const listener of listeners) listener(message)
  })
  // A worker that cannot run leaves checkpoints to the writer's backstop: slower commits, never a lost write.
  worker.on('error', () => {})
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()))
  worker.unref()
  return {
    onCheckpoint: (listener) => listeners.push(listener),
    stop: () => {
      // Held while it stops: a process with nothing else to do would otherwise end before the worker's exit
      // arrives, with the close still awaited (a script's `await app.close()` never returns).
      worker.ref()
      worker.postMessage('stop')
      return exited
    },
  }
}
