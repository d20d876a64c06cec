import { createRequire } from 'node:module'
import { cpus } from 'node:os'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'

interface Pending {
  resolve: (value: unknown) => void
  reject: (error: Error) => void
}

interface Slot {
  worker: Worker
  busy: boolean
  pending: Map<number, Pending>
}

interface QueuedTask {
  task: string
  input: unknown
  transferList: ArrayBuffer[]
  pending: Pending
}

/**
 * A new worker thread: `worker.js` beside a bundle; from source (tests, `npm start`), `src-server/worker.ts`
 * loaded after registering tsx in the thread, since loader flags do not reach worker threads.
 */
function spawnWorker(): Worker {
  if (!fileURLToPath(import.meta.url).endsWith('.ts'))
    return new Worker(new URL('./worker.js', import.meta.url))
  const tsxApi = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href
  const entry = new URL('../worker.ts', import.meta.url).href
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}) })`
  return new Worker(bootstrap, { eval: true })
}

/**
 * A small pool of worker threads for CPU-heavy tasks (PDF parsing, embedding, rendering), so the event loop
 * stays free for requests. Threads start on first use; a thread that dies fails its task and is replaced.
 */
export class WorkerPool {
  private readonly slots: Slot[] = []
  private readonly queue: QueuedTask[] = []
  private nextId = 1
  private closed = false

  constructor(private readonly size = Math.max(1, Math.min(4, cpus().length - 1))) {}

  run<T>(task: string, input: unknown, transferList: ArrayBuffer[] = []): Promise<T> {
    if (this.closed) return Promise.reject(new Error('The worker pool is closed.'))
    return new Promise<T>((resolve, reject) => {
      this.queue.push({
        task,
        input,
        transferList,
        pending: { resolve: resolve as (v: unknown) => void, reject },
      })
      this.dispatch()
    })
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
      slot.pending.set(id, queued.pending)
      slot.worker.postMessage({ id, task: queued.task, input: queued.input }, queued.transferList)
    }
  }

  private spawn(): Slot | null {
    if (this.slots.length >= this.size) return null
    const worker = spawnWorker()
    const slot: Slot = { worker, busy: false, pending: new Map() }
    worker.on('message', (message: { id: number; ok: boolean; result?: unknown; error?: string }) => {
      const pending = slot.pending.get(message.id)
      if (!pending) return
      slot.pending.delete(message.id)
      slot.busy = false
      if (message.ok) pending.resolve(message.result)
      else pending.reject(new Error(message.error ?? 'The worker task failed.'))
      this.dispatch()
    })
    const fail = (error: Error) => {
      for (const pending of slot.pending.values()) pending.reject(error)
      slot.pending.clear()
      const index = this.slots.indexOf(slot)
      if (index >= 0) this.slots.splice(index, 1)
      if (!this.closed) this.dispatch()
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
