import { randomUUID } from 'node:crypto'
import { EventEmitter } from 'node:events'
import { eq } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import { type Db, nowIso, type Queryable } from '../db'
import { job } from './jobs.tables'
import type { WorkerPool } from './worker-pool'

export type JobRow = typeof job.$inferSelect

export interface JobContext<P> {
  job: JobRow
  payload: P
  /** Aborted when the job is cancelled, its lease is lost or the server shuts down. */
  signal: AbortSignal
  progress(progress: Record<string, unknown>): void
  workers: WorkerPool
}

export type JobHandler<P = unknown> = (context: JobContext<P>) => Promise<unknown>

interface Registration {
  handler: JobHandler<never>
  maxAttempts: number
  onGiveUp?: (job: JobRow, reason: string) => void
}

export interface RegisterOptions {
  maxAttempts?: number
  /**
   * Called when the runner fails a job without running its handler (every attempt used, the last ones ended by
   * the process dying), so what the job stands for can be failed too.
   */
  onGiveUp?: (job: JobRow, reason: string) => void
}

export interface JobRunnerOptions {
  leaseMs?: number
  pollMs?: number
  concurrency?: number
  log?: FastifyBaseLogger
}

/** Insert a job; usable inside a caller's transaction so a row and its job are created together. */
export function enqueueJob(
  db: Queryable,
  type: string,
  payload: unknown,
  options: { maxAttempts?: number } = {},
): JobRow {
  return db
    .insert(job)
    .values({ type, payload, runAfter: nowIso(), maxAttempts: options.maxAttempts ?? 3 })
    .returning()
    .get()
}

/**
 * Runs durable jobs from the `job` table. Claiming is one atomic UPDATE ... RETURNING, so a job is held by one
 * runner at a time; the lease is renewed while the handler runs. A runner that dies stops renewing, its lease
 * expires, and the next poll claims the job again (attempts + 1). Results are written only by the lease holder.
 */
export class JobRunner extends EventEmitter {
  readonly owner = randomUUID()
  private readonly registrations = new Map<string, Registration>()
  private readonly running = new Map<string, { controller: AbortController; done: Promise<void> }>()
  private readonly leaseMs: number
  private readonly pollMs: number
  private readonly concurrency: number
  private timer: NodeJS.Timeout | null = null
  private stopped = true

  constructor(
    private readonly db: Db,
    readonly workers: WorkerPool,
    options: JobRunnerOptions = {},
  ) {
    super()
    this.leaseMs = options.leaseMs ?? 30_000
    this.pollMs = options.pollMs ?? 250
    this.concurrency = options.concurrency ?? 2
    this.log = options.log
  }

  private readonly log: FastifyBaseLogger | undefined

  register<P>(type: string, handler: JobHandler<P>, options: RegisterOptions = {}): void {
    this.registrations.set(type, {
      handler: handler as JobHandler<never>,
      maxAttempts: options.maxAttempts ?? 3,
      onGiveUp: options.onGiveUp,
    })
  }

  enqueue(type: string, payload: unknown): JobRow {
    const row = enqueueJob(this.db, type, payload, { maxAttempts: this.registrations.get(type)?.maxAttempts })
    this.kick()
    return row
  }

  get(id: string): JobRow | null {
    return this.db.select().from(job).where(eq(job.id, id)).get() ?? null
  }

  /** Cancels a queued job at once; a running one is asked to stop and ends `cancelled`. */
  cancel(id: string): JobRow | null {
    const now = nowIso()
    this.db.$client
      .prepare(
        `UPDATE job SET status = 'cancelled', finished_at = @now, updated_at = @now, lease_owner = NULL
         WHERE id = @id AND status = 'queued'`,
      )
      .run({ id, now })
    this.db.$client
      .prepare(`UPDATE job SET cancel_requested = 1, updated_at = @now WHERE id = @id AND status = 'running'`)
      .run({ id, now })
    this.running.get(id)?.controller.abort(new Error('cancelled'))
    const row = this.get(id)
    if (row) this.emit('job', row)
    return row
  }

  /**
   * Starts polling. `resumeOrphans` makes jobs left `running` by a previous process claimable at once instead of
   * after their lease runs out (the server owns its data directory alone, so such a job's worker is gone), and
   * counts the crash in `crashes`, which its handler sees.
   */
  start(options: { resumeOrphans?: boolean } = {}): void {
    if (!this.stopped) return
    this.stopped = false
    if (options.resumeOrphans) {
      const now = nowIso()
      // A job left running was running when its process died (a clean stop hands jobs back): counted as a crash.
      this.db.$client
        .prepare(
          `UPDATE job SET lease_expires_at = @now, crashes = crashes + 1
           WHERE status = 'running' AND lease_owner IS NOT @owner`,
        )
        .run({ now, owner: this.owner })
    }
    this.schedule(0)
  }

  /** Stops claiming, asks running handlers to stop, waits for them, and hands their jobs back to the queue. */
  async stop(graceMs = 5_000): Promise<void> {
    this.stopped = true
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    const inFlight = [...this.running.values()]
    for (const entry of inFlight) entry.controller.abort(new Error('shutdown'))
    await Promise.race([
      Promise.all(inFlight.map((entry) => entry.done)),
      new Promise((r) => setTimeout(r, graceMs)),
    ])
  }

  /** Poll now rather than at the next tick (after an enqueue). */
  kick(): void {
    if (!this.stopped) this.schedule(0)
  }

  private schedule(delay: number): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = setTimeout(() => this.poll(), delay)
    this.timer.unref()
  }

  private poll(): void {
    this.timer = null
    if (this.stopped) return
    try {
      while (this.running.size < this.concurrency) {
        const claimed = this.claim()
        if (!claimed) break
        this.execute(claimed)
      }
    } catch (error) {
      this.log?.error({ err: error }, 'job poll failed')
    }
    this.schedule(this.pollMs)
  }

  /** Atomically takes the oldest claimable job of a registered type: queued and due, or running with a dead lease. */
  claim(): JobRow | null {
    if (this.registrations.size === 0) return null
    const now = new Date()
    const row = this.db.$client
      .prepare(
        `UPDATE job SET status = 'running', lease_owner = @owner, lease_expires_at = @lease,
           attempts = attempts + 1, started_at = coalesce(started_at, @now), updated_at = @now
         WHERE id = (
           SELECT id FROM job
           WHERE type IN (SELECT value FROM json_each(@types))
             AND ((status = 'queued' AND run_after <= @now) OR (status = 'running' AND lease_expires_at < @now))
           ORDER BY created_at LIMIT 1)
         RETURNING id`,
      )
      .get({
        owner: this.owner,
        lease: new Date(now.getTime() + this.leaseMs).toISOString(),
        now: now.toISOString(),
        types: JSON.stringify([...this.registrations.keys()]),
      }) as { id: string } | undefined
    return row ? this.get(row.id) : null
  }

  private execute(row: JobRow): void {
    const registration = this.registrations.get(row.type) as Registration
    const controller = new AbortController()
    const heartbeat = setInterval(() => this.renew(row.id, controller), Math.max(50, this.leaseMs / 3))
    heartbeat.unref()
    const done = (async () => {
      if (row.cancelRequested) return this.finish(row.id, 'cancelled', null, null)
      if (row.attempts > row.maxAttempts) {
        const reason = `Gave up after ${row.maxAttempts} attempts.`
        registration.onGiveUp?.(row, reason)
        return this.finish(row.id, 'failed', null, reason)
      }
      this.emit('job', row)
      try {
        const result = await registration.handler({
          job: row,
          payload: row.payload as never,
          signal: controller.signal,
          progress: (progress) => this.recordProgress(row.id, progress),
          workers: this.workers,
        })
        if (controller.signal.aborted) this.afterAbort(row, controller.signal.reason)
        else this.finish(row.id, 'succeeded', result ?? null, null)
      } catch (error) {
        if (controller.signal.aborted) this.afterAbort(row, controller.signal.reason)
        else this.afterFailure(row, error)
      }
    })().finally(() => {
      clearInterval(heartbeat)
      this.running.delete(row.id)
      this.kick()
    })
    this.running.set(row.id, { controller, done: done.then(() => undefined) })
  }

  private renew(id: string, controller: AbortController): void {
    const now = Date.now()
    const result = this.db.$client
      .prepare(
        `UPDATE job SET lease_expires_at = @lease WHERE id = @id AND lease_owner = @owner AND status = 'running'
         RETURNING cancel_requested`,
      )
      .get({ id, owner: this.owner, lease: new Date(now + this.leaseMs).toISOString() }) as
      | { cancel_requested: number }
      | undefined
    if (!result) controller.abort(new Error('lease lost'))
    else if (result.cancel_requested) controller.abort(new Error('cancelled'))
  }

  private afterAbort(row: JobRow, reason: unknown): void {
    const why = reason instanceof Error ? reason.message : String(reason)
    if (why === 'cancelled') this.finish(row.id, 'cancelled', null, null)
    else if (why === 'shutdown') this.requeue(row.id, 0, null)
    // 'lease lost': another runner owns the job now; write nothing.
  }

  private afterFailure(row: JobRow, error: unknown): void {
    const message = error instanceof Error ? error.message : String(error)
    this.log?.warn(
      { jobId: row.id, type: row.type, attempt: row.attempts, err: message },
      'job attempt failed',
    )
    if (row.attempts < row.maxAttempts) this.requeue(row.id, 500 * 2 ** (row.attempts - 1), message)
    else this.finish(row.id, 'failed', null, message)
  }

  private requeue(id: string, delayMs: number, error: string | null): void {
    const now = new Date()
    this.db.$client
      .prepare(
        `UPDATE job SET status = 'queued', lease_owner = NULL, lease_expires_at = NULL, run_after = @runAfter,
           error = @error, updated_at = @now
         WHERE id = @id AND lease_owner = @owner AND status = 'running'`,
      )
      .run({
        id,
        owner: this.owner,
        runAfter: new Date(now.getTime() + delayMs).toISOString(),
        error,
        now: now.toISOString(),
      })
    const row = this.get(id)
    if (row) this.emit('job', row)
  }

  private finish(
    id: string,
    status: 'succeeded' | 'failed' | 'cancelled',
    result: unknown,
    error: string | null,
  ): void {
    const now = nowIso()
    const changed = this.db.$client
      .prepare(
        `UPDATE job SET status = @status, result_json = @result, error = @error, finished_at = @now, updated_at = @now,
           lease_owner = NULL, lease_expires_at = NULL
         WHERE id = @id AND lease_owner = @owner AND status = 'running'`,
      )
      .run({
        id,
        owner: this.owner,
        status,
        result: result === null ? null : JSON.stringify(result),
        error,
        now,
      }).changes
    const row = changed ? this.get(id) : null
    if (row) this.emit('job', row)
  }

  private recordProgress(id: string, progress: Record<string, unknown>): void {
    this.db.$client
      .prepare(
        `UPDATE job SET progress_json = @progress, updated_at = @now WHERE id = @id AND lease_owner = @owner`,
      )
      .run({ id, owner: this.owner, progress: JSON.stringify(progress), now: nowIso() })
    const row = this.get(id)
    if (row) this.emit('job', row)
  }
}
