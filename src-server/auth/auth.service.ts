import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { LRUCache } from 'lru-cache'
import { recordAdminAction } from '../admin-audit'
import type { Database, EngineDb } from '../platform/db'
import { CommonErrors } from '../platform/errors'
import type { BusEvent, EventBus } from '../platform/events'
import { type PageQuery, pageWindow, toPage } from '../platform/http'
import { type AuthUser, permissionsOf, type Role } from '../platform/identity'
import { AuthErrors } from './auth.errors'
import * as repo from './auth.repository'
import type { ChangePasswordBody, UpdateMeBody } from './auth.schemas'
import type { TokenKind } from './auth.tables'
import { checkAvatarUrl, decodeStoredAvatar } from './avatar'
import { clientKey } from './client-address'
import { HashQueue } from './hash-queue'
import { type HeldConnection, type HoldOptions, LiveConnections } from './live-connections'
import { LoginLimits } from './login-limits'
import { hashPassword as hashWithCost, type ScryptCost, verifyPassword } from './password'
import { inMemoryCounters } from './rate-limit'
import { storedCounters } from './stored-rate-limit'
import { hashToken, newToken } from './tokens'

const DAY_MS = 24 * 3600 * 1000
/** How long a token lives: sessions a month, the desktop window's a week (it is replaced at every start), API tokens until deleted. */
const TOKEN_TTL_MS: Record<TokenKind, number | null> = {
  session: 30 * DAY_MS,
  desktop: 7 * DAY_MS,
  api: null,
}
const PLATFORM_USERNAME = 'platform'

export type PublicUser = ReturnType<typeof presentUser>

export function presentUser(row: repo.UserRow) {
  return {
    id: row.id,
    username: row.username,
    avatar_url: row.avatarUrl,
    roles: row.roles,
    permissions: permissionsOf(row.roles),
    disabled: row.disabled,
    must_change_password: row.mustChangePassword,
    created_at: row.createdAt,
  }
}

export function presentToken(row: repo.TokenRow) {
  return {
    id: row.id,
    name: row.name ?? '',
    kind: row.kind === 'desktop' ? ('desktop' as const) : ('api' as const),
    created_at: row.createdAt,
    last_used_at: row.lastUsedAt,
    expires_at: row.expiresAt,
  }
}

/** Bearer tokens whose caller is remembered; past this, the least recently used are looked up again. */
const CACHED_CALLERS = 10_000
/** The last-use stamp is written at most this often per token: reads stay cheap. */
const TOUCH_INTERVAL_MS = 60_000

/**
 * On PostgreSQL, how long a cached caller is trusted before it is read again. Revocations reach every instance as
 * events; this bounds what a lost one (a `NOTIFY` that failed after its change committed, an instance that died
 * in between) can leave working. SQLite's one process hears every revocation, so there it is never read again.
 */
const CALLER_RECHECK_MS = 60_000

interface CachedCaller {
  user: AuthUser
  expiresAt: number | null
  touchedAt: number
  /** When this entry is read from the database again. */
  recheckAt: number
}

/** Registrations one address may attempt per minute. */
export const REGISTRATIONS_PER_ADDRESS = 3
/**
 * Hashes in flight and waiting, per queue. Together the running ones (3) stay under libuv's 4 threads, leaving one
 * for file reads; a full line answers 429 at once.
 */
const SIGN_IN_HASHING = { concurrency: 2, maxWaiting: 64 }
const REGISTRATION_HASHING = { concurrency: 1, maxWaiting: 16 }

/** The one answer to an anonymous registration, whether the name was free or not: it tells nobody which names exist. */
const REGISTRATION_ACCEPTED = {
  message:
    'If this username was free, the account now exists: sign in with it. If sign-in fails, choose another name.',
}

/**
 * Why a revocation happened, as the event names it (a code, never content): the reason a connection it ends is
 * given, on every instance.
 */
const GONE_REASONS = {
  signed_out: 'You signed out.',
  token_deleted: 'The token was deleted.',
  disabled: 'Your account was disabled.',
  password_reset: 'Your password was reset: sign in again.',
  password_changed: 'Your password was changed: sign in again.',
  desktop_restarted: 'The desktop app started again with a new token.',
} as const
type GoneReason = keyof typeof GONE_REASONS
/** Why a connection ends whose revocation was not heard (the bus lost events): only the database says what changed. */
const RECHECKED_AFTER_LOSS = 'You are signed out.'

/**
 * The bus event of a revocation: the user, the token when only one of theirs went, and the reason's code. Ids only:
 * never a token or its hash.
 */
const REVOKED = 'auth.revoked'
/** The bus event of a profile change (the avatar): every instance reads the profile again. */
const PROFILE_CHANGED = 'auth.profile_changed'

export interface AuthOptions {
  /** The server's event bus: a revocation made here reaches every instance's callers and connections. */
  events: EventBus
  /** Whether anyone may register (a setting of the settings domain). */
  registrationOpen: () => Promise<boolean>
  /** Tests only: a cheaper scrypt cost than `PASSWORD_COST` (each hash names its cost, so verifying needs no setting). */
  passwordCost?: ScryptCost
  /** Tests only: how long a cached caller is trusted on PostgreSQL (`CALLER_RECHECK_MS`). */
  callerRecheckMs?: number
}

/**
 * Accounts over `database` (either engine). Reads go to its reader, writes through `transact`; a user's callers
 * and profile are cached in memory, so an authenticated request whose caller is cached costs no query and no promise.
 */
export function createAuthService(database: Database, options: AuthOptions) {
  const { reader } = database
  const recheckMs =
    database.engine === 'postgres' ? (options.callerRecheckMs ?? CALLER_RECHECK_MS) : Number.POSITIVE_INFINITY
  const hashPassword = (password: string) => hashWithCost(password, options.passwordCost)
  /**
   * Callers by bearer token, so an authenticated request costs no query and no hash (the token's SHA-256 is
   * computed only on a miss). Every change that ends or alters a caller (logout, token deletion, role change,
   * disabling, password reset) is announced on the event bus in its transaction (`revoke`), and every instance,
   * this one before the change is answered, drops the entries it concerns; an instance that may have missed such
   * an event (its listener reconnected) drops them all. Keyed by the raw token rather than its hash: the process
   * holds every raw token anyway while it reads a request's header, a map in its memory is no easier to reach
   * than that header, and neither is ever written to disk or a log; the database keeps only the hash. Only
   * tokens that resolved to a caller are kept, so unknown tokens sent by anyone do not fill it.
   */
  const callers = new Map<string, CachedCaller>()
  /**
   * `GET /api/auth/me`'s answer per user, kept from the caller's lookup: the most frequent authenticated read
   * costs no query. Replaced when the user changes their profile, dropped with the user's callers.
   */
  const profiles = new LRUCache<string, PublicUser>({ max: CACHED_CALLERS })
  const remember = (profile: PublicUser) => profiles.set(profile.id, profile)
  /** Open WebSockets and event streams, so a revocation reaches them too. */
  const connections = new LiveConnections()
  /**
   * Counts revocations and profile changes: a caller or profile read while one happened may predate it, so it is
   * read again (`readSettled`).
   */
  let revocations = 0
  /**
   * `read`, again until no revocation happened while it ran: a read that began before a revocation's change was
   * committed could find what it revoked, and remembering that would keep a revoked token working.
   */
  async function readSettled<T>(read: () => Promise<T>): Promise<T> {
    for (;;) {
      const seen = revocations
      const value = await read()
      if (seen === revocations) return value
    }
  }
  /**
   * A revocation, on this instance: the user's cached callers (or the one token's) go, with the profile when the
   * user changed, and their open connections are checked against what is now stored (ended with 401 or 403
   * where access is gone).
   */
  const applyRevocation = (userId: string, reason: GoneReason, tokenId: string | null) => {
    revocations++
    for (const [token, cached] of callers)
      if (cached.user.id === userId && (tokenId === null || cached.user.tokenId === tokenId))
        callers.delete(token)
    if (tokenId === null) profiles.delete(userId)
    return connections.recheck(userId, GONE_REASONS[reason], tokenId ?? undefined)
  }
  /**
   * In the transaction that changes a user (or one of their tokens): once it commits, every instance applies it,
   * this one before the change is answered, the others as its event reaches them.
   */
  const revoke = (tx: EngineDb, userId: string, reason: GoneReason, tokenId: string | null = null) =>
    options.events.publishIn(tx, { kind: REVOKED, user_id: userId, token_id: tokenId, reason })
  options.events.subscribe({
    event: (event: BusEvent) => {
      if (typeof event.user_id !== 'string') return
      if (event.kind === PROFILE_CHANGED) {
        revocations++
        profiles.delete(event.user_id)
      }
      if (event.kind !== REVOKED || !Object.hasOwn(GONE_REASONS, String(event.reason))) return
      const tokenId = typeof event.token_id === 'string' ? event.token_id : null
      return applyRevocation(event.user_id, event.reason as GoneReason, tokenId)
    },
    // Events may have been lost: nothing remembered can be trusted, and every connection is checked again.
    resync: () => {
      revocations++
      callers.clear()
      profiles.clear()
      return connections.recheckAll(RECHECKED_AFTER_LOSS)
    },
  })
  /** Set by `bootstrap`, which makes the account: never replaced. */
  let platformId: string | null = null
  // One process counts in memory; the instances of a team server count together in the database.
  const counters = database.engine === 'postgres' ? storedCounters(database) : inMemoryCounters
  const loginLimits = new LoginLimits(
    new HashQueue(SIGN_IN_HASHING.concurrency, SIGN_IN_HASHING.maxWaiting),
    counters,
  )
  // Every registration counts here, not only failed ones: it limits attempts per address per minute.
  const registrationsByAddress = counters({
    name: 'registration address',
    maxFailures: REGISTRATIONS_PER_ADDRESS,
    windowMs: 60_000,
    whenFull: 'skip-new',
  })
  const registrationHashing = new HashQueue(REGISTRATION_HASHING.concurrency, REGISTRATION_HASHING.maxWaiting)
  // A throwaway hash so a login for an unknown user costs the same as one for a known user.
  const dummyHash = hashPassword(randomBytes(16).toString('hex'))

  async function issueToken(userId: string, kind: TokenKind, name?: string) {
    const token = newToken()
    const ttl = TOKEN_TTL_MS[kind]
    const expiresAt = ttl === null ? null : new Date(Date.now() + ttl).toISOString()
    const row = await database.transact((tx) =>
      repo.insertToken(tx, { userId, kind, tokenHash: hashToken(token), name: name ?? null, expiresAt }),
    )
    return { token, row }
  }

  /**
   * Stamps the token's last use. Not awaited by the request it serves: the stamp only informs the token list,
   * and one that fails is written again at the next interval.
   */
  function touch(tokenId: string) {
    database.transact((tx) => repo.touchToken(tx, tokenId)).catch(() => undefined)
  }

  /** The caller of `token` as cached: the user, null once its token expired, undefined when not cached. */
  function cachedCaller(token: string): AuthUser | null | undefined {
    const cached = callers.get(token)
    if (!cached) return undefined
    const now = Date.now()
    if (cached.expiresAt !== null && cached.expiresAt < now) {
      callers.delete(token)
      return null
    }
    if (now >= cached.recheckAt) {
      callers.delete(token)
      return undefined
    }
    // Most recently used last: the map's first entries are the ones to drop when full.
    callers.delete(token)
    callers.set(token, cached)
    if (now - cached.touchedAt > TOUCH_INTERVAL_MS) {
      touch(cached.user.tokenId)
      cached.touchedAt = now
    }
    return cached.user
  }

  /** Resolves a bearer token to its user, or null when unknown, expired or the user is disabled. */
  async function authenticate(token: string): Promise<AuthUser | null> {
    const cached = cachedCaller(token)
    if (cached !== undefined) return cached
    const tokenHash = hashToken(token)
    const found = await readSettled(() => repo.findTokenWithUser(reader, tokenHash))
    if (!found || found.user.disabled || found.user.isSystem) return null
    const now = Date.now()
    const expiresAt = found.token.expiresAt ? Date.parse(found.token.expiresAt) : null
    if (expiresAt !== null && expiresAt < now) return null
    let touchedAt = found.token.lastUsedAt ? Date.parse(found.token.lastUsedAt) : 0
    if (now - touchedAt > TOUCH_INTERVAL_MS) {
      touch(found.token.id)
      touchedAt = now
    }
    const user: AuthUser = {
      id: found.user.id,
      username: found.user.username,
      roles: found.user.roles,
      permissions: permissionsOf(found.user.roles),
      tokenId: found.token.id,
      mustChangePassword: found.user.mustChangePassword,
    }
    if (callers.size >= CACHED_CALLERS) callers.delete(callers.keys().next().value as string)
    callers.set(token, { user, expiresAt, touchedAt, recheckAt: now + recheckMs })
    remember(presentUser(found.user))
    return user
  }

  async function profileOf(userId: string): Promise<PublicUser> {
    const row = await readSettled(() => repo.findUserById(reader, userId))
    if (!row) throw CommonErrors.UNAUTHORIZED()
    const profile = presentUser(row)
    remember(profile)
    return profile
  }

  /** The platform's account; if another instance made it first, theirs. */
  async function createPlatformAccount(unusableHash: string) {
    const account = { username: PLATFORM_USERNAME, passwordHash: unusableHash, roles: [], isSystem: true }
    const created = await database.transact((tx) => repo.insertUserIfFree(tx, account))
    const platform = created ?? (await repo.findUserByUsername(reader, PLATFORM_USERNAME))
    if (!platform) throw new Error('The platform account could not be made.')
    return platform
  }

  return {
    /**
     * An anonymous registration: counted against its address as it arrives, hashed in its own queue, and
     * answered the same whether the name was free (the account is created) or taken (nothing changes). A taken
     * name pays the same hash, so neither the answer nor its time tells which names exist.
     */
    async register(username: string, password: string, address: string) {
      if (!(await options.registrationOpen())) throw AuthErrors.REGISTRATION_CLOSED()
      const client = clientKey(address)
      const wait = await registrationsByAddress.reserve(client)
      if (wait > 0) throw CommonErrors.RATE_LIMITED({ retry_after_seconds: wait })
      await registrationsByAddress.settle(client, true)
      const hashing = registrationHashing.tryRun(() => hashPassword(password))
      if (!hashing) throw CommonErrors.RATE_LIMITED({ retry_after_seconds: 1 })
      const passwordHash = await hashing
      // A taken name (or one a racing registration takes first) inserts nothing: the unique index decides.
      await database.transact((tx) => repo.insertUserIfFree(tx, { username, passwordHash, roles: ['user'] }))
      return REGISTRATION_ACCEPTED
    },

    /** Whether anyone may register: the sign-in page offers it only then. */
    registrationOpen: (): Promise<boolean> => options.registrationOpen(),

    /** Each user's username by id (users gone are left out): the accounts port's names. */
    usernamesOf: (ids: string[]) => repo.usernamesOf(reader, ids),

    /** An active person by exact username; system accounts and disabled users are not found. */
    async lookupUser(username: string) {
      const row = await repo.findUserByUsername(reader, username)
      if (!row || row.isSystem || row.disabled) throw CommonErrors.USER_NOT_FOUND({ username })
      return { id: row.id, username: row.username }
    },

    /** Within the sign-in limits (`login-limits.ts`); an unknown user pays a hash too, so costs the same. */
    async login(username: string, password: string, address: string) {
      const row = await loginLimits.attempt(username.toLowerCase(), clientKey(address), async () => {
        // Read once the attempt may run: a slowed-down sign-in may have waited.
        const found = await repo.findUserByUsername(reader, username)
        if (!found || found.isSystem) {
          await verifyPassword(password, await dummyHash)
          return null
        }
        return (await verifyPassword(password, found.passwordHash)) && !found.disabled ? found : null
      })
      if (!row) throw AuthErrors.INVALID_CREDENTIALS()
      const { token } = await issueToken(row.id, 'session')
      return { token, user: presentUser(row) }
    },

    authenticate,
    cachedCaller,

    /** The user's profile: from memory when cached (no promise), else read. */
    me(userId: string): PublicUser | Promise<PublicUser> {
      return profiles.get(userId) ?? profileOf(userId)
    },

    /** The user's own profile; only the avatar for now. */
    async updateMe(userId: string, body: UpdateMeBody) {
      const avatarUrl = body.avatar_url === null ? null : await checkAvatarUrl(body.avatar_url)
      const row = await database.transact(async (tx) => {
        const updated = await repo.updateUser(tx, userId, { avatarUrl })
        if (!updated) throw CommonErrors.UNAUTHORIZED()
        await options.events.publishIn(tx, { kind: PROFILE_CHANGED, user_id: userId })
        return updated
      })
      const profile = presentUser(row)
      remember(profile)
      return profile
    },

    /**
     * The caller changes their own password. The current one is checked within the sign-in limits (a stolen
     * session guessing it is a sign-in attempt like any other); the change ends every other token of the user,
     * and the connections they hold, and clears a temporary password's flag. The token in use stays.
     */
    async changePassword(caller: AuthUser, body: ChangePasswordBody, address: string) {
      if (body.new_password === body.current_password) throw AuthErrors.PASSWORD_UNCHANGED()
      const verified = await loginLimits.attempt(
        caller.username.toLowerCase(),
        clientKey(address),
        async () => {
          const found = await repo.findUserById(reader, caller.id)
          return found && (await verifyPassword(body.current_password, found.passwordHash)) ? found : null
        },
      )
      if (!verified) throw AuthErrors.WRONG_CURRENT_PASSWORD()
      const passwordHash = await hashPassword(body.new_password)
      const updated = await database.transact(async (tx) => {
        const row = await repo.updateUser(tx, caller.id, { passwordHash, mustChangePassword: false })
        if (!row) throw CommonErrors.UNAUTHORIZED()
        await repo.deleteOtherTokens(tx, caller.id, caller.tokenId)
        // Every cached caller of the user goes (the one in use comes back without the flag); the others' sockets end.
        await revoke(tx, caller.id, 'password_changed')
        return row
      })
      const profile = presentUser(updated)
      remember(profile)
      return profile
    },

    /** A stored avatar image, readable by anyone who sees the name next to it. */
    async avatarImage(userId: string) {
      const image = decodeStoredAvatar((await repo.findUserById(reader, userId))?.avatarUrl ?? null)
      if (!image) throw AuthErrors.AVATAR_NOT_FOUND({ user_id: userId })
      return image
    },

    async logout(user: AuthUser) {
      await database.transact(async (tx) => {
        await repo.deleteToken(tx, user.tokenId, user.id)
        await revoke(tx, user.id, 'signed_out', user.tokenId)
      })
    },

    /**
     * Ties a WebSocket or an event stream to the caller who opened it with `token`: it ends (401 or 403) as soon
     * as a revocation reaches that caller, and `current()` checks them again for each inbound message.
     */
    holdConnection(token: string, user: AuthUser, options: HoldOptions): HeldConnection {
      return connections.hold(
        user,
        { cached: () => cachedCaller(token), read: () => authenticate(token) },
        options,
      )
    },

    async createApiToken(userId: string, name: string) {
      const { token, row } = await issueToken(userId, 'api', name)
      return { ...presentToken(row), token }
    },

    /** The user's API tokens and desktop tokens (sign-in sessions are not listed). */
    async listApiTokens(userId: string) {
      return (await repo.listApiTokens(reader, userId)).map(presentToken)
    },

    async deleteApiToken(userId: string, tokenId: string) {
      await database.transact(async (tx) => {
        if (!(await repo.deleteToken(tx, tokenId, userId))) throw AuthErrors.TOKEN_NOT_FOUND()
        await revoke(tx, userId, 'token_deleted', tokenId)
      })
    },

    async listUsers(query: PageQuery) {
      const { rows, total } = await repo.listPeople(reader, pageWindow(query))
      return toPage(rows.map(presentUser), total, query)
    },

    async createUser(actor: AuthUser, input: { username: string; password: string; roles: Role[] }) {
      if (await repo.findUserByUsername(reader, input.username))
        throw AuthErrors.USERNAME_TAKEN({ username: input.username })
      const passwordHash = await hashPassword(input.password)
      return database.transact(async (tx) => {
        const inserted = await repo.insertUserIfFree(tx, {
          username: input.username,
          passwordHash,
          roles: input.roles,
        })
        if (!inserted) throw AuthErrors.USERNAME_TAKEN({ username: input.username })
        const created = presentUser(inserted)
        await recordAdminAction(tx, {
          actorId: actor.id,
          action: 'user.create',
          targetType: 'user',
          targetId: created.id,
          after: created,
        })
        return created
      })
    },

    async updateUser(
      actor: AuthUser,
      userId: string,
      input: { roles?: Role[] | undefined; disabled?: boolean | undefined; password?: string | undefined },
    ) {
      const existing = await repo.findUserById(reader, userId)
      if (!existing || existing.isSystem) throw CommonErrors.USER_NOT_FOUND()
      if (userId === actor.id && (input.disabled || (input.roles && !input.roles.includes('admin'))))
        throw AuthErrors.CANNOT_CHANGE_OWN_ADMIN()
      const passwordHash = input.password ? await hashPassword(input.password) : undefined
      return database.transact(async (tx) => {
        const updated = await repo.updateUser(tx, userId, {
          ...(input.roles ? { roles: [...new Set(input.roles)] } : {}),
          ...(input.disabled !== undefined ? { disabled: input.disabled } : {}),
          // A password an admin sets is temporary: the user chooses their own at their next sign-in.
          ...(passwordHash ? { passwordHash, mustChangePassword: true } : {}),
        })
        if (!updated) throw CommonErrors.USER_NOT_FOUND()
        // Disabling a user or resetting a password ends their sessions.
        if (input.disabled || passwordHash) await repo.deleteTokensOfUser(tx, userId)
        const after = presentUser(updated)
        await recordAdminAction(tx, {
          actorId: actor.id,
          action: 'user.update',
          targetType: 'user',
          targetId: userId,
          before: presentUser(existing),
          after: { ...after, password_changed: Boolean(passwordHash) },
        })
        // Roles, disabling and password all change what this user's tokens may do (or whether they work).
        await revoke(tx, userId, input.disabled ? 'disabled' : 'password_reset')
        return after
      })
    },

    /**
     * First start: create `admin` (password from the environment, else generated, printed once and written
     * to `<data>/initial-admin-password`, mode 0600) and the platform's own account.
     */
    async bootstrap(options: { dataDir: string; adminPassword: string | undefined }) {
      const platform =
        (await repo.findUserByUsername(reader, PLATFORM_USERNAME)) ??
        (await createPlatformAccount(await hashPassword(randomBytes(32).toString('hex'))))
      platformId = platform.id
      if (await repo.findUserByUsername(reader, 'admin')) return { created: false as const }
      const generated = !options.adminPassword
      const password = options.adminPassword ?? randomBytes(12).toString('base64url')
      const passwordHash = await hashPassword(password)
      const admin = await database.transact((tx) =>
        repo.insertUserIfFree(tx, { username: 'admin', passwordHash, roles: ['admin'] }),
      )
      // Another instance starting on the same database made it first, with its own password.
      if (!admin) return { created: false as const }
      let passwordFile: string | null = null
      if (generated) {
        passwordFile = path.join(options.dataDir, 'initial-admin-password')
        if (!existsSync(passwordFile)) writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 })
        chmodSync(passwordFile, 0o600)
      }
      return { created: true as const, generatedPassword: generated ? password : null, passwordFile }
    },

    /**
     * A token for the desktop window, which signs in as the local admin without a password prompt. Issued at each
     * start, it replaces the earlier ones (rotation): a desktop token copied out of an old session stops working.
     */
    async issueDesktopToken(): Promise<string> {
      const admin = await repo.findUserByUsername(reader, 'admin')
      if (!admin) throw new Error('The admin user does not exist yet.')
      await database.transact(async (tx) => {
        const replaced = await repo.deleteTokensOfKind(tx, admin.id, 'desktop')
        for (const tokenId of replaced) await revoke(tx, admin.id, 'desktop_restarted', tokenId)
      })
      return (await issueToken(admin.id, 'desktop', 'desktop window')).token
    },

    /** The platform's own account, made at bootstrap and never replaced. */
    platformUserId(): string {
      if (!platformId) throw new Error('The platform account does not exist yet.')
      return platformId
    },
  }
}

export type AuthService = ReturnType<typeof createAuthService>
