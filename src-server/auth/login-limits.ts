import { CommonErrors } from '../platform/errors'
import type { HashQueue } from './hash-queue'
import { type AttemptCounter, type AttemptCounters, inMemoryCounters } from './rate-limit'

const WINDOW_MS = 15 * 60_000
/** Failures of one user from one address before that pair is locked out for the window. */
export const FAILURES_PER_USER_AT_ADDRESS = 5
/** Failures from one address, across every username it tries, before the address is locked out. */
export const FAILURES_PER_ADDRESS = 30
/** Failures of one user, from any address, before that user's checks are slowed down (never refused). */
export const FAILURES_BEFORE_SLOWDOWN = 10
/** While a user is slowed down, their password checks start one at a time, this far apart. */
const SLOWDOWN_SPACING_MS = 1_000
/** Waiting checks of a slowed user from addresses that already failed for them; past this those are refused. */
const SLOWED_WAITING_FROM_FAILED_ADDRESSES = 8

const rateLimited = (seconds: number) => CommonErrors.RATE_LIMITED({ retry_after_seconds: seconds })

/**
 * The limits on sign-in, shaped so that nobody can turn them against an account's owner:
 * - per (user, address), a lockout after a few failures: it stops guessing from one place and affects no other;
 * - per address, a cap on failures across every username (one address spraying many names);
 * - per user, across addresses, a slowdown: past a number of failures the user's checks run one at a time, spaced
 *   out, and attempts from addresses that never failed for this user go first and are never refused. Refusing
 *   here would let anyone lock the owner out.
 * Every attempt takes its places before its password is checked (`AttemptCounter.reserve`), so parallel attempts
 * are counted as they arrive rather than after their hashes. The counts are `counters`' (in memory, or in the
 * database shared by every instance); the slowdown's lanes are this process's.
 */
export class LoginLimits {
  private readonly perUserAtAddress: AttemptCounter
  private readonly perAddress: AttemptCounter
  private readonly perUser: AttemptCounter
  private readonly slowed: SlowLanes

  constructor(
    private readonly hashing: HashQueue,
    counters: AttemptCounters = inMemoryCounters,
    slowdownSpacingMs = SLOWDOWN_SPACING_MS,
  ) {
    this.perUserAtAddress = counters({
      name: 'sign-in user at address',
      maxFailures: FAILURES_PER_USER_AT_ADDRESS,
      windowMs: WINDOW_MS,
    })
    this.perAddress = counters({
      name: 'sign-in address',
      maxFailures: FAILURES_PER_ADDRESS,
      windowMs: WINDOW_MS,
      whenFull: 'skip-new',
    })
    this.perUser = counters({
      name: 'sign-in user',
      maxFailures: FAILURES_BEFORE_SLOWDOWN,
      windowMs: WINDOW_MS,
    })
    this.slowed = new SlowLanes(slowdownSpacingMs, SLOWED_WAITING_FROM_FAILED_ADDRESSES)
  }

  /**
   * Runs `check` (the password check: what signed in, or null when it failed) within the limits; throws 429
   * `RATE_LIMITED` when the attempt is refused, before anything is checked. `user` is the lower-cased username,
   * `address` a `clientKey`.
   */
  async attempt<T>(user: string, address: string, check: () => Promise<T | null>): Promise<T | null> {
    const pair = `${user}\n${address}`
    const cleanAddress = (await this.perUserAtAddress.failures(pair)) === 0
    const pairWait = await this.perUserAtAddress.reserve(pair)
    if (pairWait > 0) throw rateLimited(pairWait)
    const addressWait = await this.perAddress.reserve(address)
    if (addressWait > 0) {
      await this.perUserAtAddress.settle(pair, false)
      throw rateLimited(addressWait)
    }
    const unslowed = (await this.perUser.reserve(user)) === 0
    // Only a check that ran and did not pass is a failure; a refusal or an error gives the places back.
    let passed: boolean | null = null
    let lane: (() => void) | null = null
    try {
      if (!unslowed) lane = await this.slowed.enter(user, cleanAddress)
      const checked = this.hashing.tryRun(check)
      if (!checked) throw rateLimited(1)
      const outcome = await checked
      passed = outcome !== null
      return outcome
    } finally {
      lane?.()
      const failed = passed === false
      await this.perUserAtAddress.settle(pair, failed)
      await this.perAddress.settle(address, failed)
      if (unslowed) await this.perUser.settle(user, failed)
      else if (failed) await this.perUser.recordFailure(user)
      // The right password clears only its own pair's count: the address's and the user's stay, so signing in
      // to one's own account never hands back attempts against others, nor lifts a slowdown an attacker caused.
      if (passed) await this.perUserAtAddress.reset(pair)
    }
  }
}

/**
 * One lane per slowed-down user: checks start one at a time, `spacingMs` after the previous one ended. Attempts
 * from addresses with no failures for the user wait in a line of their own that always goes first and has no
 * bound (each address holds at most a few places, by its own limits); the other line is bounded.
 */
class SlowLanes {
  private readonly lanes = new Map<
    string,
    { clean: Array<() => void>; failed: Array<() => void>; busy: boolean }
  >()

  constructor(
    private readonly spacingMs: number,
    private readonly maxFailedWaiting: number,
  ) {}

  /** Resolves with the function that ends this check once it may start; throws 429 when the lane is full. */
  async enter(user: string, clean: boolean): Promise<() => void> {
    let lane = this.lanes.get(user)
    if (!lane) {
      lane = { clean: [], failed: [], busy: false }
      this.lanes.set(user, lane)
    }
    const line = clean ? lane.clean : lane.failed
    if (!clean && line.length >= this.maxFailedWaiting) throw rateLimited(Math.ceil(this.spacingMs / 1000))
    const current = lane
    await new Promise<void>((resolve) => {
      line.push(resolve)
      if (!current.busy) this.next(user, current)
    })
    return () => setTimeout(() => this.next(user, current), this.spacingMs).unref()
  }

  private next(user: string, lane: { clean: Array<() => void>; failed: Array<() => void>; busy: boolean }) {
    const start = lane.clean.shift() ?? lane.failed.shift()
    lane.busy = Boolean(start)
    if (start) start()
    else this.lanes.delete(user)
  }
}
