import { randomUUID } from 'node:crypto'
import { and, asc, eq, inArray, isNull, lt, lte, ne, or, sql } from 'drizzle-orm'
import type { PgSelect } from 'drizzle-orm/pg-core'
import type { SQLiteUpdateSetSource } from 'drizzle-orm/sqlite-core'
import type { FastifyBaseLogger } from 'fastify'
import { afterCommit, type Database, type EngineDb, engineTables, isPostgres, nowIso } from '../db'
import type { EventBus } from '../events'
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

/**
 * Told of each change to a job inside the transaction that makes it, with the row as it now reads: to announce it
 * with the change (`events.publishIn(tx, ...)`) or to act once it commits (`afterCommit(tx, ...)`). Database work
 * only (the transaction may run again on PostgreSQL).
 */
export type JobChangeListener = (tx: EngineDb, job: JobRow) => void | Promise<void>

interface Registration {
  handler: JobHandler<never>
  maxAttempts: number
  onGiveUp?: (job: JobRow, reason: string) => void | Promise<void>
}

export interface RegisterOptions {
  maxAttempts?: number
  /**
   * Called when the runner fails a job without running its handler (every attempt used, the last ones ended by
   * the process dying), so what the job stands for can be failed too.
   */
  onGiveUp?: (job: JobRow, reason: string) => void | Promise<void>
}

export interface JobRunnerOptions {
  leaseMs?: number
  pollMs?: number
  concurrency?: number
  log?: FastifyBaseLogger
  /**
   * The bus that jobs queued are announced on, in the transaction that queues them, so every instance's runner polls
   * at once rather than at its next poll (the jobs an instance hands back when it stops too).
   */
  events?: EventBus
}

/** The bus event that wakes every instance's runner: jobs were queued (or handed back) just now. */
export const JOBS_QUEUED = 'jobs.queued'

const tablesOf = engineTables({ job })
type JobTable = typeof job

/** A job row's ending: written only by the runner holding its lease. */
type Ending = 'succeeded' | 'failed' | 'cancelled'

/**
 * Runs durable jobs from the `job` table, on either engine and from any number of processes. A claim is one
 * UPDATE of the oldest claimable row (on PostgreSQL the row is picked `FOR UPDATE SKIP LOCKED`, so concurrent
 * claims take different rows without waiting; on SQLite claims run one at a time in `transact`). The claimer's
 * lease is renewed by a heartbeat while the handler runs; a runner that dies stops renewing, its lease expires,
 * and the next poll of any runner claims the job again (attempts + 1). Results are written only by the lease
 * holder (`WHERE lease_owner = me`), so a runner that lost its lease writes nothing.
 */
export class JobRunner {
  readonly owner = randomUUID()
  private readonly registrations = new Map<string, Registration>()
  private readonly running = new Map<string, { controller: AbortController; done: Promise<void> }>()
  private readonly leaseMs: number
  private readonly pollMs: number
  private readonly concurrency: number
  private readonly log: FastifyBaseLogger | undefined
  private readonly events: EventBus | undefined
  private readonly listeners = new Set<JobChangeListener>()
  private timer: NodeJS.Timeout | null = null
  private stopped = true
  /** The poll in progress, and whether jobs were queued meanwhile (then the next poll follows at once). */
  private polling: Promise<void> | null = null
  private pollAgain = false

  constructor(
    private readonly database: Database,
    readonly workers: WorkerPool,
    options: JobRunnerOptions = {},
  ) {
    this.leaseMs = options.leaseMs ?? 30_000
    this.pollMs = options.pollMs ?? 250
    this.concurrency = options.concurrency ?? 2
    this.log = options.log
    this.events = options.events
    // Another instance's enqueue wakes this runner; after a dropped listener, a poll finds what was missed.
    this.events?.subscribe({
      event: (event) => {
        if (event.kind === JOBS_QUEUED) this.pollSoon()
      },
      resync: () => this.pollSoon(),
    })
  }

  register<P>(type: string, handler: JobHandler<P>, options: RegisterOptions = {}): void {
    this.registrations.set(type, {
      handler: handler as JobHandler<never>,
      maxAttempts: options.maxAttempts ?? 3,
      onGiveUp: options.onGiveUp,
    })
  }

  /** Hears every change to a job (queued, claimed, progress, requeued, handed back, finished, cancelled). */
  onJobChange(listener: JobChangeListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Hands a change made in `tx` to the listeners, in that transaction. */
  private async changed(tx: EngineDb, row: JobRow): Promise<void> {
    for (const listener of this.listeners) await listener(tx, row)
  }

  /**
   * Inserts a job inside the caller's transaction (`transact`), so a row and its job are created together. Once it
   * commits, this runner polls at once, and every other instance's (`announceQueued`).
   */
  async enqueue(
    tx: EngineDb,
    type: string,
    payload: unknown,
    options: { maxAttempts?: number } = {},
  ): Promise<JobRow> {
    const { job } = tablesOf(tx)
    const [row] = await tx
      .insert(job)
      .values(this.newJob(type, payload, options))
      .returning()
    await this.announceQueued(tx)
    await this.changed(tx, row as JobRow)
    return row as JobRow
  }

  /**
   * In the transaction that queues a job or hands one back: once it commits, this runner polls at once, and on
   * PostgreSQL every other instance's, told through the bus (one process needs no bus).
   */
  private async announceQueued(tx: EngineDb): Promise<void> {
    afterCommit(tx, () => this.pollSoon())
    if (this.database.engine === 'postgres') await this.events?.publishIn(tx, { kind: JOBS_QUEUED })
  }

  private newJob(type: string, payload: unknown, options: { maxAttempts?: number }) {
    const maxAttempts = options.maxAttempts ?? this.registrations.get(type)?.maxAttempts ?? 3
    return { type, payload, runAfter: nowIso(), maxAttempts }
  }

  async get(id: string): Promise<JobRow | null> {
    const db = this.database.reader
    const { job } = tablesOf(db)
    const [row] = await db.select().from(job).where(eq(job.id, id)).limit(1)
    return row ?? null
  }

  /**
   * Cancels a queued job at once; a running one is asked to stop and ends `cancelled` (the runner holding it,
   * here or in another process, sees the request at its next heartbeat).
   */
  async cancel(id: string): Promise<JobRow | null> {
    const now = nowIso()
    const row = await this.database.transact(async (tx) => {
      const { job } = tablesOf(tx)
      await tx
        .update(job)
        .set({ status: 'cancelled', finishedAt: now, updatedAt: now, leaseOwner: null })
        .where(and(eq(job.id, id), eq(job.status, 'queued')))
      await tx
        .update(job)
        .set({ cancelRequested: true, updatedAt: now })
        .where(and(eq(job.id, id), eq(job.status, 'running')))
      const [row] = await tx.select().from(job).where(eq(job.id, id)).limit(1)
      if (row) await this.changed(tx, row)
      return row ?? null
    })
    this.running.get(id)?.controller.abort(new Error('cancelled'))
    return row
  }

  /**
   * Starts polling. `resumeOrphans` makes jobs left `running` by a previous process claimable at once instead of
   * after their lease runs out, and counts the crash in `crashes`, which their handler sees. SQLite only: a single
   * server owns its data directory, so such a job's worker is gone. On PostgreSQL another live instance may hold
   * them: there only an expired lease frees a job, and the option does nothing. Resolves once the first poll has
   * claimed what was due; later polls come every `pollMs`, or at once when jobs are queued (here or on another
   * instance).
   */
  async start(options: { resumeOrphans?: boolean } = {}): Promise<void> {
    if (!this.stopped) return
    this.stopped = false
    if (options.resumeOrphans && this.database.engine === 'sqlite') {
      const now = nowIso()
      await this.database.transact(async (tx) => {
        const { job } = tablesOf(tx)
        // A job left running was running when its process died (a clean stop hands jobs back): counted as a crash.
        await tx
          .update(job)
          .set({ leaseExpiresAt: now, crashes: sql`${job.crashes} + 1` })
          .where(and(eq(job.status, 'running'), or(isNull(job.leaseOwner), ne(job.leaseOwner, this.owner))))
      })
    }
    await this.pollNow()
  }

  /**
   * Stops claiming, asks running handlers to stop and waits for them (at most `graceMs`), and hands their jobs back
   * to the queue: a handler that stopped hands its job back itself; for one still running past the grace,
   * `closeExecutors` (the worker threads) ends what it runs on first, then it loses its job here (what it writes to
   * the job later is fenced off by the lease). Each job handed back is announced in its transaction, so another
   * instance takes it at once instead of after its lease.
   */
  async stop(graceMs = 5_000, closeExecutors?: () => Promise<void>): Promise<void> {
    // Never started (or stopped already): it holds no job.
    if (this.stopped) return
    this.stopped = true
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    await this.polling
    const inFlight = [...this.running.entries()]
    for (const [, entry] of inFlight) entry.controller.abort(new Error('shutdown'))
    await settledWithin(inFlight, graceMs)
    const stubborn = inFlight.filter(([id]) => this.running.has(id))
    // A handler past the grace may still write its domain's rows: what it runs on closes first, so another instance
    // never runs the job while this one still works on it.
    if (stubborn.length > 0 && closeExecutors) {
      await closeExecutors()
      await settledWithin(stubborn, graceMs)
    }
    for (const [id] of stubborn) if (this.running.has(id)) await this.release(id)
  }

  private pollSoon(): void {
    if (this.stopped) return
    if (this.polling) this.pollAgain = true
    else this.schedule(0)
  }

  private schedule(delay: number): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = setTimeout(() => void this.pollNow(), delay)
    this.timer.unref()
  }

  /** One poll, then the next one scheduled: at once if jobs were queued meanwhile, else after `pollMs`. */
  private pollNow(): Promise<void> {
    this.timer = null
    this.polling = this.poll().finally(() => {
      this.polling = null
      if (!this.stopped) this.schedule(this.pollAgain ? 0 : this.pollMs)
      this.pollAgain = false
    })
    return this.polling
  }

  private async poll(): Promise<void> {
    try {
      while (!this.stopped && this.running.size < this.concurrency) {
        const claimed = await this.claim()
        if (!claimed) break
        // Stopped while claiming: the job goes back rather than start.
        if (this.stopped) await this.release(claimed.id)
        else this.execute(claimed)
      }
    } catch (error) {
      this.log?.error({ err: error }, 'job poll failed')
    }
  }

  /** Atomically takes the oldest claimable job of a registered type: queued and due, or running with a dead lease. */
  async claim(): Promise<JobRow | null> {
    if (this.registrations.size === 0) return null
    const now = new Date()
    const at = now.toISOString()
    const lease = new Date(now.getTime() + this.leaseMs).toISOString()
    const types = [...this.registrations.keys()]
    return this.database.transact(async (tx) => {
      const { job } = tablesOf(tx)
      const oldestClaimable = tx
        .select({ id: job.id })
        .from(job)
        .where(
          and(
            inArray(job.type, types),
            or(
              and(eq(job.status, 'queued'), lte(job.runAfter, at)),
              and(eq(job.status, 'running'), lt(job.leaseExpiresAt, at)),
            ),
          ),
        )
        .orderBy(asc(job.createdAt))
        .limit(1)
      // PostgreSQL: concurrent claims skip a row another one has locked instead of waiting for it and then taking
      // the same row (READ COMMITTED rechecks only `id = ...` after the wait).
      const picked = isPostgres(tx)
        ? (oldestClaimable as unknown as PgSelect).for('update', { skipLocked: true }).getSQL()
        : oldestClaimable.getSQL()
      const [row] = await tx
        .update(job)
        .set({
          status: 'running',
          leaseOwner: this.owner,
          leaseExpiresAt: lease,
          attempts: sql`${job.attempts} + 1`,
          startedAt: sql`coalesce(${job.startedAt}, ${at})`,
          updatedAt: at,
        })
        .where(eq(job.id, sql`(${picked})`))
        .returning()
      if (row) await this.changed(tx, row)
      return row ?? null
    })
  }

  private execute(row: JobRow): void {
    const registration = this.registrations.get(row.type) as Registration
    const controller = new AbortController()
    const heartbeat = setInterval(() => this.renew(row.id, controller), Math.max(50, this.leaseMs / 3))
    heartbeat.unref()
    // Progress is written in the order the handler reports it.
    let progressWritten: Promise<void> = Promise.resolve()
    const done = (async () => {
      if (row.cancelRequested) return this.finish(row.id, 'cancelled', null, null)
      if (row.attempts > row.maxAttempts) {
        const reason = `Gave up after ${row.maxAttempts} attempts.`
        await registration.onGiveUp?.(row, reason)
        return this.finish(row.id, 'failed', null, reason)
      }
      let outcome: { result: unknown } | { error: unknown }
      try {
        outcome = {
          result: await registration.handler({
            job: row,
            payload: row.payload as never,
            signal: controller.signal,
            progress: (progress) => {
              progressWritten = progressWritten.then(() => this.recordProgress(row.id, progress))
            },
            workers: this.workers,
          }),
        }
      } catch (error) {
        outcome = { error }
      }
      await progressWritten
      if (controller.signal.aborted) await this.afterAbort(row, controller.signal.reason)
      else if ('error' in outcome) await this.afterFailure(row, outcome.error)
      else await this.finish(row.id, 'succeeded', outcome.result ?? null, null)
    })()
      .catch((error) => this.log?.error({ err: error, jobId: row.id }, 'job result not written'))
      .finally(() => {
        clearInterval(heartbeat)
        this.running.delete(row.id)
        this.pollSoon()
      })
    this.running.set(row.id, { controller, done })
  }

  /** The heartbeat: extends the lease while this runner holds it; a lost lease or a cancel request stops the job. */
  private async renew(id: string, controller: AbortController): Promise<void> {
    const lease = new Date(Date.now() + this.leaseMs).toISOString()
    try {
      const [held] = await this.database.transact(async (tx) => {
        const { job } = tablesOf(tx)
        return tx
          .update(job)
          .set({ leaseExpiresAt: lease })
          .where(and(eq(job.id, id), eq(job.leaseOwner, this.owner), eq(job.status, 'running')))
          .returning({ cancelRequested: job.cancelRequested })
      })
      if (!held) controller.abort(new Error('lease lost'))
      else if (held.cancelRequested) controller.abort(new Error('cancelled'))
    } catch (error) {
      // The next beat tries again; the lease lasts three beats.
      this.log?.warn({ err: error, jobId: id }, 'job lease not renewed')
    }
  }

  private async afterAbort(row: JobRow, reason: unknown): Promise<void> {
    const why = reason instanceof Error ? reason.message : String(reason)
    if (why === 'cancelled') await this.finish(row.id, 'cancelled', null, null)
    else if (why === 'shutdown') await this.release(row.id)
    // 'lease lost': another runner owns the job now; write nothing.
  }

  private async afterFailure(row: JobRow, error: unknown): Promise<void> {
    const message = error instanceof Error ? error.message : String(error)
    this.log?.warn(
      { jobId: row.id, type: row.type, attempt: row.attempts, err: message },
      'job attempt failed',
    )
    if (row.attempts < row.maxAttempts) await this.requeue(row.id, 500 * 2 ** (row.attempts - 1), message)
    else await this.finish(row.id, 'failed', null, message)
  }

  /**
   * Writes the changes to the job while this runner holds it, and tells listeners (and, for a job `handedBack` to be
   * claimed now, every runner) in the same transaction; nothing once the lease is lost. `changes` is given the
   * engine's job table, from which a change naming a column takes it.
   */
  private async writeHeld(
    id: string,
    changes: (job: JobTable) => SQLiteUpdateSetSource<JobTable>,
    handedBack = false,
  ): Promise<void> {
    await this.database.transact(async (tx) => {
      const { job } = tablesOf(tx)
      const [row] = await tx
        .update(job)
        .set(changes(job))
        .where(and(eq(job.id, id), eq(job.leaseOwner, this.owner), eq(job.status, 'running')))
        .returning()
      if (!row) return
      if (handedBack) await this.announceQueued(tx)
      await this.changed(tx, row)
    })
  }

  private requeue(id: string, delayMs: number, error: string | null): Promise<void> {
    const now = new Date()
    return this.writeHeld(id, () => ({
      status: 'queued',
      leaseOwner: null,
      leaseExpiresAt: null,
      runAfter: new Date(now.getTime() + delayMs).toISOString(),
      error,
      updatedAt: now.toISOString(),
    }))
  }

  /**
   * Hands a job this runner holds back to the queue, due now, without counting its attempt: a shutdown is not
   * the job's failure (rolling restarts never use up its attempts).
   */
  private release(id: string): Promise<void> {
    const now = nowIso()
    return this.writeHeld(
      id,
      (job) => ({
        status: 'queued',
        leaseOwner: null,
        leaseExpiresAt: null,
        attempts: sql`${job.attempts} - 1`,
        runAfter: now,
        updatedAt: now,
      }),
      true,
    )
  }

  private finish(id: string, status: Ending, result: unknown, error: string | null): Promise<void> {
    const now = nowIso()
    return this.writeHeld(id, () => ({
      status,
      result,
      error,
      finishedAt: now,
      updatedAt: now,
      leaseOwner: null,
      leaseExpiresAt: null,
    }))
  }

  private async recordProgress(id: string, progress: Record<string, unknown>): Promise<void> {
    try {
      await this.writeHeld(id, () => ({ progress, updatedAt: nowIso() }))
    } catch (error) {
      this.log?.warn({ err: error, jobId: id }, 'job progress not written')
    }
  }
}

/** Waits until the jobs' handlers settle, or `ms` passes. */
async function settledWithin(jobs: [string, { done: Promise<unknown> }][], ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  await Promise.race([
    Promise.all(jobs.map(([, entry]) => entry.done)),
    new Promise((resolve) => {
      timer = setTimeout(resolve, ms)
    }),
  ])
  clearTimeout(timer)
}
