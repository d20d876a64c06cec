import { createRequire } from 'node:module'
import { cpus } from 'node:os'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'

interface Pending {
  resolve: (value: unknown) => void
  reject: (error: Error) => void
  timer?: NodeJS.Timeout
}

function settle(pending: Pending, outcome: { result: unknown } | { error: Error }): void {
  clearTimeout(pending.timer)
  if ('error' in outcome) pending.reject(outcome.error)
  else pending.resolve(outcome.result)
}

interface Slot {
  worker: Worker
  busy: boolean
  pending: Map<number, Pending>
}

interface QueuedTask {
  task: string
  input: unknown
  timeout?: { ms: number; message: string }
  pending: Pending
}

export interface RunOptions {
  /** Past this, the task fails with `timeoutMessage` and its thread is terminated and replaced. */
  timeoutMs?: number
  timeoutMessage?: string
}

/**
 * A new worker thread running `entry`, by default `worker.js` beside a bundle, or from source (tests,
 * `npm start`) `src-server/worker.ts`. A TypeScript entry is loaded after registering tsx in the thread, since
 * loader flags do not reach worker threads.
 */
function spawnWorker(entry?: URL): Worker {
  const fromSource = fileURLToPath(import.meta.url).endsWith('.ts')
  const script = entry ?? new URL(fromSource ? '../worker.ts' : './worker.js', import.meta.url)
  if (!script.pathname.endsWith('.ts')) return new Worker(script)
  const tsxApi = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(script.href)}) })`
  return new Worker(bootstrap, { eval: true })
}

/**
 * A small pool of worker threads for CPU-heavy tasks (PDF parsing, embedding, rendering), so the event loop
 * stays free for requests. Threads start on first use; a thread that dies fails its task and is replaced, and so
 * is one whose task outlives its timeout (a hung parser cannot be interrupted any other way).
 */
export class WorkerPool {
  private readonly slots: Slot[] = []
  private readonly queue: QueuedTask[] = []
  private nextId = 1
  private closed = false

  constructor(
    private readonly size = Math.max(1, Math.min(4, cpus().length - 1)),
    /** The thread's entry module (the app's task table unless a test brings its own). */
    private readonly entry?: URL,
  ) {}

  run<T>(task: string, input: unknown, options: RunOptions = {}): Promise<T> {
    if (this.closed) return Promise.reject(new Error('The worker pool is closed.'))
    const timeout =
      options.timeoutMs === undefined
        ? undefined
        : { ms: options.timeoutMs, message: options.timeoutMessage ?? `The task ${task} took too long.` }
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ task, input, timeout, pending: { resolve: resolve as (v: unknown) => void, reject } })
      this.dispatch()
    })
  }

  /** Threads alive now (for tests of replacement). */
  get threadCount(): number {
    return this.slots.length
  }

  async close(): Promise<void> {
    this.closed = true
    for (const queued of this.queue.splice(0)) queued.pending.reject(new Error('The worker pool is closed.'))
    await Promise.all(this.slots.splice(0).map((slot) => slot.worker.terminate()))
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const slot = this.slots.find((candidate) => !candidate.busy) ?? this.spawn()
      if (!slot) return
      const queued = this.queue.shift() as QueuedTask
      const id = this.nextId++
      slot.busy = true
      // A thread at work keeps the process alive (a CLI or a benchmark awaiting it has nothing else); idle, it does not.
      slot.worker.ref()
      slot.pending.set(id, queued.pending)
      if (queued.timeout) this.armTimeout(slot, id, queued.timeout)
      slot.worker.postMessage({ id, task: queued.task, input: queued.input })
    }
  }

  private armTimeout(slot: Slot, id: number, timeout: { ms: number; message: string }): void {
    const pending = slot.pending.get(id) as Pending
    pending.timer = setTimeout(() => {
      slot.pending.delete(id)
      pending.reject(new Error(timeout.message))
      void slot.worker.terminate()
      this.retire(slot)
    }, timeout.ms)
    pending.timer.unref()
  }

  /** Takes a slot out of the pool; queued tasks go to the others or to a new thread. */
  private retire(slot: Slot): void {
    const index = this.slots.indexOf(slot)
    if (index >= 0) this.slots.splice(index, 1)
    if (!this.closed) this.dispatch()
  }

  private spawn(): Slot | null {
    if (this.slots.length >= this.size) return null
    const worker = spawnWorker(this.entry)
    const slot: Slot = { worker, busy: false, pending: new Map() }
    worker.on('message', (message: { id: number; ok: boolean; result?: unknown; error?: string }) => {
      const pending = slot.pending.get(message.id)
      if (!pending) return
      slot.pending.delete(message.id)
      slot.busy = false
      slot.worker.unref()
      settle(
        pending,
        message.ok
          ? { result: message.result }
          : { error: new Error(message.error ?? 'The worker task failed.') },
      )
      this.dispatch()
    })
    const fail = (error: Error) => {
      for (const pending of slot.pending.values()) settle(pending, { error })
      slot.pending.clear()
      this.retire(slot)
    }
    worker.on('error', fail)
    worker.on('exit', (code) => {
      if (code !== 0 || slot.pending.size > 0) fail(new Error(`A worker thread stopped (exit code ${code}).`))
    })
    worker.unref()
    this.slots.push(slot)
    return slot
  }
}
