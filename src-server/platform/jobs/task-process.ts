import { type ChildProcess, fork } from 'node:child_process'
import { createRequire } from 'node:module'
import { fileURLToPath, pathToFileURL } from 'node:url'

interface Pending {
  task: string
  child: ChildProcess
  resolve(value: unknown): void
  reject(error: Error): void
}

/** How long a process may take to ready itself (`prepareTask`) before it is ended. */
const PREPARE_TIMEOUT_MS = 60_000

/**
 * Worker tasks run in a child process of their own, one at a time: for native code whose memory a thread cannot
 * give back (freed native memory stays in the process's allocator after a thread ends: PaddleOCR's ~0.6 GB per
 * page read, and the decoded images and tesseract heaps of a document's pages, stayed resident after their
 * threads were gone) and whose crash must not take the server with it. The
 * process starts on first use and exits when idle `idleMs`, returning all its memory; a task past its timeout
 * kills it, and one that dies fails its task; the next task starts a new one.
 */
export class TaskProcess {
  private child: ChildProcess | null = null
  private readonly pending = new Map<number, Pending>()
  private nextId = 0
  /** Tasks running or waiting their turn. */
  private queued = 0
  private queue: Promise<unknown> = Promise.resolve()
  private idle: NodeJS.Timeout | null = null

  private readonly entry: URL
  private readonly recycleAboveMb: number
  private readonly prepareTask: string | undefined
  private readonly name: string

  constructor(
    private readonly idleMs: number,
    options: {
      /** The process's entry module (the app's task table unless a test brings its own). */
      entry?: URL
      /**
       * After a task that leaves the process holding more than this (MB resident), it is ended and the next task
       * starts a new one: memory a process frees is not given back to the system (allocator arenas, a
       * WebAssembly heap), so a process that reads page after page only grows.
       */
      recycleAboveMb?: number
      /**
       * A task that readies a new process (loads its models), run in a new one as soon as a process is ended for
       * its memory, so that the next task does not wait for the loading.
       */
      prepareTask?: string
      /** What the process is, in the error of a task it stopped under ("PaddleOCR's process stopped (SIGKILL)"). */
      name?: string
    } = {},
  ) {
    this.entry =
      options.entry ??
      new URL(
        fileURLToPath(import.meta.url).endsWith('.ts') ? '../../task-process.ts' : './task-process.js',
        import.meta.url,
      )
    this.recycleAboveMb = options.recycleAboveMb ?? Number.POSITIVE_INFINITY
    this.prepareTask = options.prepareTask
    this.name = options.name ?? 'the task process'
  }

  run<T>(task: string, input: unknown, options: { timeoutMs: number; timeoutMessage: string }): Promise<T> {
    if (this.idle) clearTimeout(this.idle)
    this.queued++
    const result = this.queue.then(() => this.send<T>(task, input, options))
    this.queue = result
      .catch(() => undefined)
      .finally(() => {
        // Idle once no task is running or waiting: a task queued behind this one is not cut off by the timer.
        if (--this.queued === 0) this.idle = setTimeout(() => this.close(), this.idleMs).unref()
      })
    return result
  }

  /** Ends the process (its task, if any, fails); the next task starts a new one. */
  close(): void {
    const child = this.child
    this.child = null
    child?.kill('SIGKILL')
  }

  private send<T>(task: string, input: unknown, options: { timeoutMs: number; timeoutMessage: string }) {
    const child = this.child ?? this.start()
    const id = this.nextId++
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(options.timeoutMessage))
        if (this.child === child) this.close()
      }, options.timeoutMs)
      this.pending.set(id, {
        task,
        child,
        resolve: (value) => {
          clearTimeout(timer)
          resolve(value as T)
        },
        reject: (error) => {
          clearTimeout(timer)
          reject(error)
        },
      })
      // The limit goes with the task: the process collects its garbage only when it would be ended for holding it.
      child.send({
        id,
        task,
        input,
        recycleAboveMb: Number.isFinite(this.recycleAboveMb) ? this.recycleAboveMb : undefined,
      })
    }).finally(() => this.pending.delete(id))
  }

  /** Starts a new process and readies it; a failed preparation is met again, and reported, by the next task. */
  private prepare(task: string): void {
    this.run(task, null, {
      timeoutMs: PREPARE_TIMEOUT_MS,
      timeoutMessage: `${this.name} took too long to start.`,
    }).catch(() => undefined)
  }

  private start(): ChildProcess {
    const filename = fileURLToPath(this.entry)
    // `--expose-gc`: a process over its limit after a task collects its garbage before it reports (`task-process.ts`),
    // so it is ended for what it keeps, not for a task's dead arrays the next collection would free.
    const execArgv = [
      '--expose-gc',
      ...(filename.endsWith('.ts')
        ? ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href]
        : []),
    ]
    const child = fork(filename, [], {
      execArgv,
      serialization: 'advanced',
      stdio: 'inherit',
      // Two malloc arenas instead of one per thread that allocated (8 per core): the native libraries' threads
      // (libvips, ONNX Runtime) each kept an arena of freed pages resident.
      env: { ...process.env, MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2' },
    })
    child.on('message', (message: { id: number; result?: unknown; error?: string; rssMb?: number }) => {
      const waiting = this.pending.get(message.id)
      // Between tasks (the next is sent once this one is answered): the process leaves with what it held.
      if ((message.rssMb ?? 0) > this.recycleAboveMb && this.child === child) {
        this.child = null
        child.disconnect()
        // Not after a preparation itself: a process over its limit once readied would be replaced for ever.
        if (this.prepareTask && waiting?.task !== this.prepareTask) this.prepare(this.prepareTask)
      }
      if (message.error !== undefined) waiting?.reject(new Error(message.error))
      else waiting?.resolve(message.result)
    })
    child.on('exit', (code, signal) => {
      if (this.child === child) this.child = null
      for (const waiting of this.pending.values())
        if (waiting.child === child)
          waiting.reject(new Error(`${this.name} stopped (${signal ?? `exit code ${code}`})`))
    })
    // The server's exit never waits for an idle child.
    child.unref()
    child.channel?.unref()
    this.child = child
    return child
  }
}
