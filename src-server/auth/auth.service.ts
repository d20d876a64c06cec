import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { LRUCache } from 'lru-cache'
import { recordAdminAction } from '../admin-audit'
import type { Db } from '../platform/db'
import { CommonErrors } from '../platform/errors'
import { type PageQuery, pageWindow, toPage } from '../platform/http'
import { type AuthUser, permissionsOf, type Role } from '../platform/identity'
import { type PlatformConfig, readConfigValue } from '../settings'
import { AuthErrors } from './auth.errors'
import * as repo from './auth.repository'
import type { ChangePasswordBody, UpdateMeBody } from './auth.schemas'
import type { TokenKind } from './auth.tables'
import { checkAvatarUrl, decodeStoredAvatar } from './avatar'
import { clientKey } from './client-address'
import { HashQueue } from './hash-queue'
import { type HeldConnection, type HoldOptions, LiveConnections } from './live-connections'
import { LoginLimits } from './login-limits'
import { hashPassword, verifyPassword } from './password'
import { FailureLimiter, MAX_TRACKED_KEYS } from './rate-limit'
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

interface CachedCaller {
  user: AuthUser
  expiresAt: number | null
  touchedAt: number
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

export function createAuthService(db: Db, options: { configDefaults: PlatformConfig }) {
  /**
   * Callers by bearer token, so an authenticated request costs no query and no hash (the token's SHA-256 is
   * computed only on a miss). Exact because this process is the only writer (the data directory lock): every
   * change that ends or alters a caller (logout, token deletion, role change, disabling, password reset) drops
   * the entries it concerns before the next request. Keyed by the raw token rather than its hash: the process
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
  const queries = repo.prepareCallerQueries(db)
  /** Open WebSockets and event streams, so a revocation reaches them too. */
  const connections = new LiveConnections()
  /**
   * After a change to a user (or to one of their tokens) is stored: their cached callers go, and their open
   * connections are checked against what is now stored (ended with 401 or 403 where access is gone).
   */
  const revoke = (userId: string, goneReason: string, tokenId?: string) => {
    for (const [token, cached] of callers)
      if (cached.user.id === userId && (tokenId === undefined || cached.user.tokenId === tokenId))
        callers.delete(token)
    connections.recheck(userId, goneReason, tokenId)
  }
  let platformId: string | null = null
  const loginLimits = new LoginLimits(new HashQueue(SIGN_IN_HASHING.concurrency, SIGN_IN_HASHING.maxWaiting))
  // Every registration counts here, not only failed ones: it limits attempts per address per minute.
  const registrationsByAddress = new FailureLimiter(
    REGISTRATIONS_PER_ADDRESS,
    60_000,
    MAX_TRACKED_KEYS,
    'skip-new',
  )
  const registrationHashing = new HashQueue(REGISTRATION_HASHING.concurrency, REGISTRATION_HASHING.maxWaiting)
  // A throwaway hash so a login for an unknown user costs the same as one for a known user.
  const dummyHash = hashPassword(randomBytes(16).toString('hex'))

  function issueToken(userId: string, kind: TokenKind, name?: string) {
    const token = newToken()
    const ttl = TOKEN_TTL_MS[kind]
    const expiresAt = ttl === null ? null : new Date(Date.now() + ttl).toISOString()
    const row = repo.insertToken(db, {
      userId,
      kind,
      tokenHash: hashToken(token),
      name: name ?? null,
      expiresAt,
    })
    return { token, row }
  }

  return {
    /**
     * An anonymous registration: counted against its address as it arrives, hashed in its own queue, and
     * answered the same whether the name was free (the account is created) or taken (nothing changes). A taken
     * name pays the same hash, so neither the answer nor its time tells which names exist.
     */
    async register(username: string, password: string, address: string) {
      if (!readConfigValue(db, 'registration_open', options.configDefaults))
        throw AuthErrors.REGISTRATION_CLOSED()
      const client = clientKey(address)
      const wait = registrationsByAddress.retryAfter(client)
      if (wait > 0) throw CommonErrors.RATE_LIMITED({ retry_after_seconds: wait })
      registrationsByAddress.recordFailure(client)
      const hashing = registrationHashing.tryRun(() => hashPassword(password))
      if (!hashing) throw CommonErrors.RATE_LIMITED({ retry_after_seconds: 1 })
      const passwordHash = await hashing
      // Looked up after the await, with the insert in the same synchronous step: no racing registration between.
      if (!repo.findUserByUsername(db, username))
        repo.insertUser(db, { username, passwordHash, roles: ['user'] })
      return REGISTRATION_ACCEPTED
    },

    /** Whether anyone may register: the sign-in page offers it only then. */
    registrationOpen(): boolean {
      return readConfigValue(db, 'registration_open', options.configDefaults)
    },

    /** An active person by exact username; system accounts and disabled users are not found. */
    lookupUser(username: string) {
      const row = repo.findUserByUsername(db, username)
      if (!row || row.isSystem || row.disabled) throw CommonErrors.USER_NOT_FOUND({ username })
      return { id: row.id, username: row.username }
    },

    /** Within the sign-in limits (`login-limits.ts`); an unknown user pays a hash too, so costs the same. */
    async login(username: string, password: string, address: string) {
      const row = await loginLimits.attempt(username.toLowerCase(), clientKey(address), async () => {
        // Read once the attempt may run: a slowed-down sign-in may have waited.
        const found = repo.findUserByUsername(db, username)
        if (!found || found.isSystem) {
          await verifyPassword(password, await dummyHash)
          return null
        }
        return (await verifyPassword(password, found.passwordHash)) && !found.disabled ? found : null
      })
      if (!row) throw AuthErrors.INVALID_CREDENTIALS()
      const { token } = issueToken(row.id, 'session')
      return { token, user: presentUser(row) }
    },

    /** Resolves a bearer token to its user, or null when unknown, expired or the user is disabled. */
    authenticate(token: string): AuthUser | null {
      const now = Date.now()
      const cached = callers.get(token)
      if (cached) {
        if (cached.expiresAt !== null && cached.expiresAt < now) {
          callers.delete(token)
          return null
        }
        // Most recently used last: the map's first entries are the ones to drop when full.
        callers.delete(token)
        callers.set(token, cached)
        if (now - cached.touchedAt > TOUCH_INTERVAL_MS) {
          queries.touchToken(cached.user.tokenId)
          cached.touchedAt = now
        }
        return cached.user
      }
      const found = queries.tokenWithUser(hashToken(token))
      if (!found || found.user.disabled || found.user.isSystem) return null
      const expiresAt = found.token.expiresAt ? Date.parse(found.token.expiresAt) : null
      if (expiresAt !== null && expiresAt < now) return null
      let touchedAt = found.token.lastUsedAt ? Date.parse(found.token.lastUsedAt) : 0
      if (now - touchedAt > TOUCH_INTERVAL_MS) {
        queries.touchToken(found.token.id)
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
      callers.set(token, { user, expiresAt, touchedAt })
      remember(presentUser(found.user))
      return user
    },

    me(userId: string): PublicUser {
      const cached = profiles.get(userId)
      if (cached) return cached
      const row = queries.userById(userId)
      if (!row) throw CommonErrors.UNAUTHORIZED()
      const profile = presentUser(row)
      remember(profile)
      return profile
    },

    /** The user's own profile; only the avatar for now. */
    async updateMe(userId: string, body: UpdateMeBody) {
      const avatarUrl = body.avatar_url === null ? null : await checkAvatarUrl(body.avatar_url)
      const row = repo.updateUser(db, userId, { avatarUrl })
      if (!row) throw CommonErrors.UNAUTHORIZED()
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
          const found = repo.findUserById(db, caller.id)
          return found && (await verifyPassword(body.current_password, found.passwordHash)) ? found : null
        },
      )
      if (!verified) throw AuthErrors.WRONG_CURRENT_PASSWORD()
      const passwordHash = await hashPassword(body.new_password)
      const updated = db.transaction((tx) => {
        const row = repo.updateUser(tx, caller.id, { passwordHash, mustChangePassword: false })
        if (!row) throw CommonErrors.UNAUTHORIZED()
        repo.deleteOtherTokens(tx, caller.id, caller.tokenId)
        return row
      })
      // Every cached caller of the user goes (the one in use comes back without the flag); the others' sockets end.
      profiles.delete(caller.id)
      revoke(caller.id, 'Your password was changed: sign in again.')
      const profile = presentUser(updated)
      remember(profile)
      return profile
    },

    /** A stored avatar image, readable by anyone who sees the name next to it. */
    avatarImage(userId: string) {
      const image = decodeStoredAvatar(repo.findUserById(db, userId)?.avatarUrl ?? null)
      if (!image) throw AuthErrors.AVATAR_NOT_FOUND({ user_id: userId })
      return image
    },

    logout(user: AuthUser) {
      repo.deleteToken(db, user.tokenId, user.id)
      revoke(user.id, 'You signed out.', user.tokenId)
    },

    /**
     * Ties a WebSocket or an event stream to the caller who opened it with `token`: it ends (401 or 403) as soon
     * as a revocation reaches that caller, and `current()` checks them again for each inbound message.
     */
    holdConnection(token: string, user: AuthUser, options: HoldOptions): HeldConnection {
      return connections.hold(user, () => this.authenticate(token), options)
    },

    createApiToken(userId: string, name: string) {
      const { token, row } = issueToken(userId, 'api', name)
      return { ...presentToken(row), token }
    },

    /** The user's API tokens and desktop tokens (sign-in sessions are not listed). */
    listApiTokens(userId: string) {
      return repo.listApiTokens(db, userId).map(presentToken)
    },

    deleteApiToken(userId: string, tokenId: string) {
      if (!repo.deleteToken(db, tokenId, userId)) throw AuthErrors.TOKEN_NOT_FOUND()
      revoke(userId, 'The token was deleted.', tokenId)
    },

    listUsers(query: PageQuery) {
      const { rows, total } = repo.listPeople(db, pageWindow(query))
      return toPage(rows.map(presentUser), total, query)
    },

    async createUser(actor: AuthUser, input: { username: string; password: string; roles: Role[] }) {
      if (repo.findUserByUsername(db, input.username))
        throw AuthErrors.USERNAME_TAKEN({ username: input.username })
      const passwordHash = await hashPassword(input.password)
      return db.transaction((tx) => {
        if (repo.findUserByUsername(tx, input.username))
          throw AuthErrors.USERNAME_TAKEN({ username: input.username })
        const created = presentUser(
          repo.insertUser(tx, { username: input.username, passwordHash, roles: input.roles }),
        )
        recordAdminAction(tx, {
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
      const existing = repo.findUserById(db, userId)
      if (!existing || existing.isSystem) throw CommonErrors.USER_NOT_FOUND()
      if (userId === actor.id && (input.disabled || (input.roles && !input.roles.includes('admin'))))
        throw AuthErrors.CANNOT_CHANGE_OWN_ADMIN()
      const passwordHash = input.password ? await hashPassword(input.password) : undefined
      const changed = db.transaction((tx) => {
        const updated = repo.updateUser(tx, userId, {
          ...(input.roles ? { roles: [...new Set(input.roles)] } : {}),
          ...(input.disabled !== undefined ? { disabled: input.disabled } : {}),
          // A password an admin sets is temporary: the user chooses their own at their next sign-in.
          ...(passwordHash ? { passwordHash, mustChangePassword: true } : {}),
        })
        if (!updated) throw CommonErrors.USER_NOT_FOUND()
        // Disabling a user or resetting a password ends their sessions.
        if (input.disabled || passwordHash) repo.deleteTokensOfUser(tx, userId)
        const after = presentUser(updated)
        recordAdminAction(tx, {
          actorId: actor.id,
          action: 'user.update',
          targetType: 'user',
          targetId: userId,
          before: presentUser(existing),
          after: { ...after, password_changed: Boolean(passwordHash) },
        })
        return after
      })
      // Roles, disabling and password all change what this user's tokens may do (or whether they work).
      profiles.delete(userId)
      revoke(
        userId,
        input.disabled ? 'Your account was disabled.' : 'Your password was reset: sign in again.',
      )
      return changed
    },

    /**
     * First start: create `admin` (password from the environment, else generated, printed once and written
     * to `<data>/initial-admin-password`, mode 0600) and the platform's own account.
     */
    async bootstrap(options: { dataDir: string; adminPassword: string | undefined }) {
      if (!repo.findUserByUsername(db, PLATFORM_USERNAME)) {
        const unusable = await hashPassword(randomBytes(32).toString('hex'))
        repo.insertUser(db, {
          username: PLATFORM_USERNAME,
          passwordHash: unusable,
          roles: [],
          isSystem: true,
        })
      }
      if (repo.findUserByUsername(db, 'admin')) return { created: false as const }
      const generated = !options.adminPassword
      const password = options.adminPassword ?? randomBytes(12).toString('base64url')
      repo.insertUser(db, { username: 'admin', passwordHash: await hashPassword(password), roles: ['admin'] })
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
    issueDesktopToken(): string {
      const admin = repo.findUserByUsername(db, 'admin')
      if (!admin) throw new Error('The admin user does not exist yet.')
      for (const tokenId of repo.deleteTokensOfKind(db, admin.id, 'desktop'))
        revoke(admin.id, 'The desktop app started again with a new token.', tokenId)
      return issueToken(admin.id, 'desktop', 'desktop window').token
    },

    /** Each user's username by id; ids of users that no longer exist are left out. */
    usernamesOf: (ids: string[]) => repo.usernamesOf(db, ids),

    /** Read once: the platform account is made at bootstrap and never replaced. */
    platformUserId(): string {
      if (platformId) return platformId
      const platform = repo.findUserByUsername(db, PLATFORM_USERNAME)
      if (!platform) throw new Error('The platform account does not exist yet.')
      platformId = platform.id
      return platformId
    },
  }
}

export type AuthService = ReturnType<typeof createAuthService>
