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

export interface HoldOptions {
  /** Whether the caller, as they are now, may keep this connection; a valid token is always required. */
  allows?: (user: AuthUser) => boolean
  /** Ends the connection (closes the socket, ends the stream). Called at most once, synchronously. */
  end: (revocation: Revocation) => void
}

export interface HeldConnection {
  /** The caller as they are now, for each inbound message; null, with the connection ended, once revoked. */
  current(): AuthUser | null
  /** The connection closed by itself: forget it. */
  release(): void
}

interface Entry {
  tokenId: string
  check(goneReason: string): AuthUser | null
}

/**
 * Every open WebSocket and event stream, by user, so a revocation reaches connections that outlive the request
 * that authenticated them. Auth's revocation paths (sign-out, token deletion, disabling, role change, password
 * reset) re-check the connections of the callers they changed, after the change is stored; a connection whose
 * token no longer authenticates ends with 401, one whose caller lost the permission it needs ends with 403.
 */
export class LiveConnections {
  private readonly byUser = new Map<string, Set<Entry>>()

  /** `authenticate` resolves the connection's token as it is now (the cached caller, invalidated exactly). */
  hold(user: AuthUser, authenticate: () => AuthUser | null, options: HoldOptions): HeldConnection {
    let ended = false
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
    const entry: Entry = {
      tokenId: user.tokenId,
      check(goneReason) {
        if (ended) return null
        const current = authenticate()
        if (!current) end({ status: 401, code: 'UNAUTHORIZED', reason: goneReason })
        else if (options.allows && !options.allows(current))
          end({ status: 403, code: 'FORBIDDEN', reason: PERMISSION_GONE })
        else return current
        return null
      },
    }
    own.add(entry)
    return { current: () => entry.check('You are signed out.'), release }
  }

  /** After a change to a user (or to one of their tokens, with `tokenId`) is stored: ends what it revoked. */
  recheck(userId: string, goneReason: string, tokenId?: string): void {
    for (const entry of [...(this.byUser.get(userId) ?? [])])
      if (tokenId === undefined || entry.tokenId === tokenId) entry.check(goneReason)
  }
}
