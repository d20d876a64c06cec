import { accessSync, constants, existsSync, rmSync, statfsSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { type Database, expectedMigrationCount } from './db'

export type GuardState = 'ok' | 'warning' | 'failed'

export interface GuardFinding {
  state: Exclude<GuardState, 'ok'>
  message: string
}

/**
 * A check returns null when all is well, or a finding with one sentence a person can act on. A check that asks the
 * database answers with a promise: the watcher's evaluation counts it once it settles.
 */
export type GuardCheck = () => GuardFinding | null | Promise<GuardFinding | null>

const CACHE_MS = 5_000
/**
 * An asynchronous check that has not settled by then counts as failed: a database that does not answer (a
 * PostgreSQL server gone silent) would otherwise hold the server's start, which awaits the first run, for ever.
 */
const ANSWER_WITHIN_MS = 10_000

/**
 * The health guard: checks run at start and on request (cached briefly). With `enforce`, a `failed` state makes
 * write endpoints answer 503 GUARD_FAILED; with `warn` it is only reported.
 */
export class Guard {
  private readonly checks = new Map<string, GuardCheck>()
  /** Each check's last finding (an asynchronous one's once it settled). */
  private readonly latest = new Map<string, GuardFinding | null>()
  /** The run each check's latest finding came from: a slow earlier run settling later never replaces it. */
  private readonly latestRun = new Map<string, number>()
  private runs = 0
  private cached: { at: number; state: GuardState; messages: string[] } | null = null

  constructor(
    readonly mode: 'enforce' | 'warn',
    private readonly answerWithinMs = ANSWER_WITHIN_MS,
  ) {}

  register(name: string, check: GuardCheck): void {
    this.checks.set(name, check)
    this.cached = null
  }

  /**
   * The state of the checks' findings, run now when `fresh` or the cache is old: an asynchronous check counts as it
   * last settled (the watcher's evaluations wait for it).
   */
  evaluate(fresh = false): { state: GuardState; messages: string[] } {
    if (!fresh && this.cached && Date.now() - this.cached.at < CACHE_MS) return this.cached
    this.runChecks()
    return this.record()
  }

  /**
   * Runs every check and records the state at once, then again when the asynchronous checks have settled, so that
   * state counts what they found on this run. Resolves with it.
   */
  async refresh(): Promise<{ state: GuardState; messages: string[] }> {
    const pending = this.runChecks()
    this.record()
    await Promise.all(pending)
    return this.record()
  }

  /**
   * Runs the checks, awaiting the asynchronous ones, and then again every `intervalMs` (shorter than the cache) off
   * any request, so `/healthz` and the write guard always find findings in the cache, the first evaluation already
   * counts every check, and no reader touches the file system. Resolves with the stop.
   */
  async watch(intervalMs = CACHE_MS / 2): Promise<() => void> {
    await this.refresh()
    const timer = setInterval(() => void this.refresh(), intervalMs)
    timer.unref()
    return () => clearInterval(timer)
  }

  /** Runs every check: a synchronous one's finding is kept at once, an asynchronous one's when it settles. */
  private runChecks(): Promise<void>[] {
    const run = ++this.runs
    const pending: Promise<void>[] = []
    for (const [name, check] of this.checks) {
      const keep = (finding: GuardFinding | null) => {
        if (run < (this.latestRun.get(name) ?? 0)) return
        this.latestRun.set(name, run)
        this.latest.set(name, finding)
      }
      const couldNotRun = (error: unknown): GuardFinding => ({
        state: 'failed',
        message: `The ${name} check could not run: ${(error as Error).message}`,
      })
      try {
        const finding = check()
        if (finding instanceof Promise) pending.push(this.settling(finding, keep, couldNotRun))
        else keep(finding)
      } catch (error) {
        keep(couldNotRun(error))
      }
    }
    return pending
  }

  /**
   * Keeps an asynchronous check's finding when it settles; one still unsettled after `answerWithinMs` is kept as
   * failed meanwhile (its answer, if it comes, replaces that). Resolves at whichever comes first.
   */
  private settling(
    answer: Promise<GuardFinding | null>,
    keep: (finding: GuardFinding | null) => void,
    couldNotRun: (error: unknown) => GuardFinding,
  ): Promise<void> {
    return new Promise((resolve) => {
      const late = setTimeout(() => {
        keep(couldNotRun(new Error(`it did not answer within ${this.answerWithinMs / 1000} s`)))
        resolve()
      }, this.answerWithinMs)
      late.unref()
      const settle = (finding: GuardFinding | null) => {
        clearTimeout(late)
        keep(finding)
        resolve()
      }
      answer.then(settle, (error) => settle(couldNotRun(error)))
    })
  }

  /** Caches the state of the checks' latest findings, in the order the checks were registered. */
  private record(): { state: GuardState; messages: string[] } {
    const findings = [...this.checks.keys()].flatMap((name) => this.latest.get(name) ?? [])
    const state: GuardState = findings.some((f) => f.state === 'failed')
      ? 'failed'
      : findings.length > 0
        ? 'warning'
        : 'ok'
    this.cached = { at: Date.now(), state, messages: findings.map((f) => f.message) }
    return this.cached
  }

  blocksWrites(): boolean {
    return this.mode === 'enforce' && this.evaluate().state === 'failed'
  }
}

const GIB = 1024 ** 3

export function dataDirWritable(dataDir: string): GuardCheck {
  return () => {
    try {
      accessSync(dataDir, constants.W_OK)
      const probe = path.join(dataDir, '.write-probe')
      writeFileSync(probe, 'ok', { mode: 0o600 })
      rmSync(probe, { force: true })
      return null
    } catch {
      return { state: 'failed', message: 'The data directory is not writable.' }
    }
  }
}

export function freeDisk(dataDir: string): GuardCheck {
  return () => {
    const stats = statfsSync(dataDir)
    const free = stats.bavail * stats.bsize
    if (free < 0.1 * GIB)
      return { state: 'failed', message: `Only ${Math.round(free / 1024 ** 2)} MB of disk left for data.` }
    if (free < 1 * GIB)
      return {
        state: 'warning',
        message: `Less than 1 GB of disk left for data (${(free / GIB).toFixed(2)} GB).`,
      }
    return null
  }
}

export function migrationsApplied(database: Database, appRoot: string): GuardCheck {
  const expected = expectedMigrationCount(database.engine, appRoot)
  return async () => {
    const count = await database.appliedMigrations()
    return count >= expected
      ? null
      : { state: 'failed', message: `The database has ${count} of ${expected} migrations applied.` }
  }
}

export function secretKeyPresent(dataDir: string, fromEnv: boolean): GuardCheck {
  return () =>
    fromEnv || existsSync(path.join(dataDir, 'secret.key'))
      ? null
      : { state: 'failed', message: 'The secret key is missing: encrypted credentials cannot be read.' }
}
