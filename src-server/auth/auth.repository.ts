import { and, asc, count, eq, inArray, ne, sql } from 'drizzle-orm'
import { type Db, nowIso, type Queryable, type RowPage, type RowWindow, selectPage } from '../platform/db'
import type { Role } from '../platform/identity'
import { authToken, type TokenKind, user } from './auth.tables'

export type UserRow = typeof user.$inferSelect
export type TokenRow = typeof authToken.$inferSelect

export function findUserById(db: Queryable, id: string): UserRow | null {
  return db.select().from(user).where(eq(user.id, id)).get() ?? null
}

export function usernamesOf(db: Queryable, ids: string[]): Map<string, string> {
  if (ids.length === 0) return new Map()
  const rows = db
    .select({ id: user.id, username: user.username })
    .from(user)
    .where(inArray(user.id, ids))
    .all()
  return new Map(rows.map((row) => [row.id, row.username]))
}

/** A `user` row as SQLite returns it, before the column modes (JSON roles, boolean flags) are applied. */
interface StoredUser {
  id: string
  username: string
  password_hash: string
  avatar_url: string | null
  roles: string
  disabled: number
  must_change_password: number
  is_system: number
  created_at: string
  updated_at: string
}

const USER_COLUMNS =
  'u.id, u.username, u.password_hash, u.avatar_url, u.roles, u.disabled, u.must_change_password, u.is_system, u.created_at, u.updated_at'

function userFromStored(row: StoredUser): UserRow {
  return {
    id: row.id,
    username: row.username,
    passwordHash: row.password_hash,
    avatarUrl: row.avatar_url,
    roles: JSON.parse(row.roles) as Role[],
    disabled: row.disabled === 1,
    mustChangePassword: row.must_change_password === 1,
    isSystem: row.is_system === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

/**
 * The reads and the one write of authenticating a request, as plain statements compiled once: they run on every
 * request whose caller is not cached yet and on `GET /api/auth/me`, where building a drizzle query cost ten times
 * executing it.
 */
export function prepareCallerQueries(db: Db) {
  const userById = db.$client.prepare<[string], StoredUser>(
    `SELECT ${USER_COLUMNS} FROM user u WHERE u.id = ?`,
  )
  const tokenWithUser = db.$client.prepare<
    [string],
    StoredUser & { token_id: string; token_expires_at: string | null; token_last_used_at: string | null }
  >(
    `SELECT ${USER_COLUMNS}, t.id AS token_id, t.expires_at AS token_expires_at, t.last_used_at AS token_last_used_at
     FROM auth_token t JOIN user u ON u.id = t.user_id WHERE t.token_hash = ?`,
  )
  const touch = db.$client.prepare<[string, string]>('UPDATE auth_token SET last_used_at = ? WHERE id = ?')
  return {
    userById(id: string): UserRow | null {
      const row = userById.get(id)
      return row ? userFromStored(row) : null
    },
    /** The token (its id, expiry and last use) and its user, by the token's hash. */
    tokenWithUser(tokenHash: string) {
      const row = tokenWithUser.get(tokenHash)
      if (!row) return null
      return {
        token: { id: row.token_id, expiresAt: row.token_expires_at, lastUsedAt: row.token_last_used_at },
        user: userFromStored(row),
      }
    },
    touchToken(id: string): void {
      touch.run(nowIso(), id)
    },
  }
}

export function findUserByUsername(db: Queryable, username: string): UserRow | null {
  return db.select().from(user).where(sql`${user.username} = ${username} COLLATE NOCASE`).get() ?? null
}

export function insertUser(
  db: Queryable,
  values: { username: string; passwordHash: string; roles: Role[]; isSystem?: boolean },
): UserRow {
  return db.insert(user).values(values).returning().get()
}

export function updateUser(
  db: Queryable,
  id: string,
  values: Partial<Pick<UserRow, 'roles' | 'disabled' | 'passwordHash' | 'mustChangePassword' | 'avatarUrl'>>,
): UserRow | null {
  return db.update(user).set(values).where(eq(user.id, id)).returning().get() ?? null
}

export function listPeople(db: Queryable, window: RowWindow): RowPage<UserRow> {
  const where = eq(user.isSystem, false)
  return selectPage(
    db,
    db.select().from(user).where(where).orderBy(asc(user.createdAt)),
    { from: user, where },
    window,
  )
}

export function countUsers(db: Queryable): number {
  return db.select({ n: count() }).from(user).get()?.n ?? 0
}

export function insertToken(
  db: Queryable,
  values: {
    userId: string
    kind: TokenKind
    tokenHash: string
    name?: string | null
    expiresAt?: string | null
  },
): TokenRow {
  return db.insert(authToken).values(values).returning().get()
}

export function deleteToken(db: Queryable, id: string, userId: string): boolean {
  return (
    db
      .delete(authToken)
      .where(and(eq(authToken.id, id), eq(authToken.userId, userId)))
      .run().changes > 0
  )
}

export function deleteTokensOfUser(db: Queryable, userId: string): void {
  db.delete(authToken).where(eq(authToken.userId, userId)).run()
}

/** Deletes every token of the user but `keepId` (the one in use); the ids deleted. */
export function deleteOtherTokens(db: Queryable, userId: string, keepId: string): string[] {
  return db
    .delete(authToken)
    .where(and(eq(authToken.userId, userId), ne(authToken.id, keepId)))
    .returning({ id: authToken.id })
    .all()
    .map((row) => row.id)
}

/** Deletes the user's tokens of one kind; the ids deleted. */
export function deleteTokensOfKind(db: Queryable, userId: string, kind: TokenKind): string[] {
  return db
    .delete(authToken)
    .where(and(eq(authToken.userId, userId), eq(authToken.kind, kind)))
    .returning({ id: authToken.id })
    .all()
    .map((row) => row.id)
}

/** The tokens a user manages in the token list: API tokens and desktop tokens, not sign-in sessions. */
export function listApiTokens(db: Queryable, userId: string): TokenRow[] {
  return db
    .select()
    .from(authToken)
    .where(and(eq(authToken.userId, userId), inArray(authToken.kind, ['api', 'desktop'])))
    .orderBy(asc(authToken.createdAt))
    .all()
}
