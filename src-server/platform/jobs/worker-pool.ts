import { createRequire } from 'node:module'
import { cpus } from 'node:os'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Piscina } from 'piscina'

export interface RunOptions {
  /** Past this, the task fails with `timeoutMessage` and its thread is terminated and replaced. */
  timeoutMs?: number
  timeoutMessage?: string
  /**
   * Bytes that move to the thread instead of being copied: unusable here once the task is posted. A view into
   * shared memory (`sharedBytes`) or into a larger buffer (Node's Buffer pool) is passed as usual instead.
   */
  transfer?: Uint8Array[]
}

/**
 * A copy of `bytes` in shared memory: tasks read it in place, so bytes several tasks need (a PDF parsed, then
 * rendered page by page) are copied once instead of once per task.
 */
export function sharedBytes(bytes: Uint8Array): Uint8Array {
  const shared = new Uint8Array(new SharedArrayBuffer(bytes.byteLength))
  shared.set(bytes)
  return shared
}

/** Buffers that can move whole: a view that spans its own, unshared buffer (never a slice of a pool). */
function movableBuffers(views: Uint8Array[]): ArrayBuffer[] {
  return views.flatMap((view) =>
    view.buffer instanceof ArrayBuffer && view.byteOffset === 0 && view.byteLength === view.buffer.byteLength
      ? [view.buffer]
      : [],
  )
}

/**
 * The thread's entry file, by default `worker.js` beside a bundle, or from source (tests, `npm start`)
 * `src-server/worker.ts`, which the thread loads through tsx (given as its `--import`, since a loader registered
 * here does not reach worker threads).
 */
function threadEntry(entry?: URL): { filename: string; execArgv?: string[] } {
  const fromSource = fileURLToPath(import.meta.url).endsWith('.ts')
  const script = entry ?? new URL(fromSource ? '../../worker.ts' : './worker.js', import.meta.url)
  const filename = fileURLToPath(script)
  if (!filename.endsWith('.ts')) return { filename }
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href
  return { filename, execArgv: ['--import', tsx] }
}

/**
 * A small pool of worker threads for CPU-heavy tasks (PDF parsing, embedding, rendering), so the event loop
 * stays free for requests: piscina, threads started on first use and kept. A thread that dies fails its task and
 * is replaced, and so is one whose task outlives its timeout (aborting a running task terminates its thread: a
 * hung parser cannot be interrupted any other way). Piscina refs a thread only while it works, so an idle pool
 * never keeps the process alive.
 */
export class WorkerPool {
  private readonly pool: Piscina<{ task: string; input: unknown }, unknown>
  /**
   * Tasks wait here rather than in piscina's queue, and enter it only when a thread is free: a timeout then
   * counts a task's own run, not the time it waited behind others.
   */
  private readonly waiting: (() => void)[] = []
  private running = 0
  private closed = false

  constructor(
    private readonly size = Math.max(1, Math.min(4, cpus().length - 1)),
    /** The thread's entry module (the app's task table unless a test brings its own). */
    entry?: URL,
    /** How long an idle thread is kept: a thread that holds a large model can give its memory back. */
    idleTimeoutMs = Number.POSITIVE_INFINITY,
  ) {
    this.pool = new Piscina({
      ...threadEntry(entry),
      minThreads: 0,
      maxThreads: size,
      idleTimeout: idleTimeoutMs,
    })
  }

  async run<T>(task: string, input: unknown, options: RunOptions = {}): Promise<T> {
    if (this.closed) throw new Error('The worker pool is closed.')
    await this.freeThread()
    // Woken by close(): it holds no thread to release.
    if (this.closed) throw new Error('The worker pool is closed.')
    try {
      const signal = options.timeoutMs === undefined ? undefined : AbortSignal.timeout(options.timeoutMs)
      const transferList = movableBuffers(options.transfer ?? [])
      return (await this.pool.run({ task, input }, { signal, transferList }).catch((error: unknown) => {
        throw signal?.aborted ? new Error(options.timeoutMessage ?? `The task ${task} took too long.`) : error
      })) as T
    } finally {
      this.release()
    }
  }

  /** Threads alive now (for tests of replacement). */
  get threadCount(): number {
    return this.pool.threads.length
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    for (const wake of this.waiting.splice(0)) wake()
    await this.pool.destroy()
  }

  private async freeThread(): Promise<void> {
    if (this.running < this.size) this.running++
    else await new Promise<void>((resolve) => this.waiting.push(resolve))
  }

  /** Hands the thread to the next waiting task, if any. */
  private release(): void {
    const next = this.waiting.shift()
    if (next) next()
    else this.running--
  }
}
