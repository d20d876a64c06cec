import type { AuthUser } from '../platform/identity'

/** Why a live connection ended: its caller's authentication is gone (401) or a permission it needs (403). */
export interface Revocation {
  status: 401 | 403
  code: 'UNAUTHORIZED' | 'FORBIDDEN'
  reason: string
}

/** The WebSocket close code of a revocation: 4401 or 4403 (application codes that mirror the HTTP status). */
export const closeCodeOf = (revocation: Revocation): number => 4000 + revocation.status

const PERMISSION_GONE = 'Your access to this was withdrawn.'
const SIGNED_OUT = 'You are signed out.'

export interface HoldOptions {
  /** Whether the caller, as they are now, may keep this connection; a valid token is always required. */
  allows?: (user: AuthUser) => boolean
  /** Ends the connection (closes the socket, ends the stream). Called at most once, synchronously. */
  end: (revocation: Revocation) => void
}

export interface HeldConnection {
  /** The caller as the last check found them; null, with the connection ended, once revoked. */
  current(): AuthUser | null
  /**
   * Runs `use` for an inbound message with the caller as they are now: at once when the caller is cached, else
   * after one read of the database (a revocation drops the cache, on PostgreSQL an old entry is read again), never
   * with a caller a revocation may have ended; messages keep their order. Not at all once the connection ended.
   */
  withCurrent(use: (user: AuthUser) => void): void
  /** The connection closed by itself: forget it. */
  release(): void
}

/** How a held connection's token resolves to its caller now. */
export interface CallerLookup {
  /** From memory: the caller, null once the token expired, undefined when not cached. */
  cached(): AuthUser | null | undefined
  /** From the database (and cached again): the caller, or null when the token no longer authenticates. */
  read(): Promise<AuthUser | null>
}

interface Entry {
  tokenId: string
  recheck(goneReason: string): Promise<void>
}

/**
 * Every open WebSocket and event stream, by user, so a revocation reaches connections that outlive the request
 * that authenticated them. Auth's revocation paths (sign-out, token deletion, disabling, role change, password
 * reset) re-check the connections of the callers they changed, after the change is stored, on every instance
 * (through the event bus); a connection whose token no longer authenticates ends with 401, one whose caller lost
 * the permission it needs ends with 403.
 */
export class LiveConnections {
  private readonly byUser = new Map<string, Set<Entry>>()

  /**
   * `caller` resolves the connection's token as it is now. Each inbound message takes the cached caller (dropped by
   * every revocation), or the one the last check found when it is not cached; revocations check against the database.
   */
  hold(user: AuthUser, caller: CallerLookup, options: HoldOptions): HeldConnection {
    let ended = false
    let last = user
    let entries = this.byUser.get(user.id)
    if (!entries) {
      entries = new Set()
      this.byUser.set(user.id, entries)
    }
    const own = entries
    const release = () => {
      own.delete(entry)
      if (own.size === 0 && this.byUser.get(user.id) === own) this.byUser.delete(user.id)
    }
    const end = (revocation: Revocation) => {
      ended = true
      release()
      options.end(revocation)
    }
    /** The caller if it may keep the connection; otherwise the connection ends and null. */
    const judge = (current: AuthUser | null, goneReason: string) => {
      if (ended) return null
      if (!current) end({ status: 401, code: 'UNAUTHORIZED', reason: goneReason })
      else if (options.allows && !options.allows(current))
        end({ status: 403, code: 'FORBIDDEN', reason: PERMISSION_GONE })
      else {
        last = current
        return current
      }
      return null
    }
    const entry: Entry = {
      tokenId: user.tokenId,
      recheck: async (goneReason) => {
        if (!ended) judge(await caller.read(), goneReason)
      },
    }
    own.add(entry)
    const current = () => {
      const cached = caller.cached()
      return judge(cached === undefined ? last : cached, SIGNED_OUT)
    }
    /** Messages waiting for a read of the caller, in their order; null while the caller is cached. */
    let waiting: Promise<void> | null = null
    const withCurrent = (use: (user: AuthUser) => void) => {
      if (ended) return
      if (!waiting) {
        const cached = caller.cached()
        if (cached !== undefined) {
          const user = judge(cached, SIGNED_OUT)
          if (user) use(user)
          return
        }
        // A failed read leaves the caller of the last check: the database being away revokes no one.
        waiting = caller.read().then(
          (fresh) => void judge(fresh, SIGNED_OUT),
          () => undefined,
        )
      }
      const next: Promise<void> = waiting.then(() => {
        if (!ended) use(last)
      })
      waiting = next
      void next.finally(() => {
        if (waiting === next) waiting = null
      })
    }
    return { current, withCurrent, release }
  }

  /**
   * After a change to a user (or to one of their tokens, with `tokenId`) is stored: ends what it revoked, once
   * every connection concerned is checked against the database.
   */
  async recheck(userId: string, goneReason: string, tokenId?: string): Promise<void> {
    const concerned = [...(this.byUser.get(userId) ?? [])].filter(
      (entry) => tokenId === undefined || entry.tokenId === tokenId,
    )
    await Promise.all(concerned.map((entry) => entry.recheck(goneReason)))
  }

  /** Checks every connection against the database: revocations may have happened unheard (the bus lost events). */
  async recheckAll(goneReason: string): Promise<void> {
    const all = [...this.byUser.values()].flatMap((entries) => [...entries])
    await Promise.all(all.map((entry) => entry.recheck(goneReason)))
  }
}
