import { and, asc, eq, gt, inArray, lte, ne, sql } from 'drizzle-orm'
import {
  type EngineDb,
  engineTables,
  equalsIgnoringCase,
  nowIso,
  type RowPage,
  type RowWindow,
  readPage,
} from '../platform/db'
import type { Role } from '../platform/identity'
import { authToken, rateLimitWindow, type TokenKind, user } from './auth.tables'

export type UserRow = typeof user.$inferSelect
export type TokenRow = typeof authToken.$inferSelect

const tables = engineTables({ user, authToken, rateLimitWindow })

export async function findUserById(db: EngineDb, id: string): Promise<UserRow | null> {
  const { user } = tables(db)
  const [row] = await db.select().from(user).where(eq(user.id, id)).limit(1)
  return row ?? null
}

/** Each user's username by id (users gone are left out). */
export async function usernamesOf(db: EngineDb, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map()
  const { user } = tables(db)
  const rows = await db
    .select({ id: user.id, username: user.username })
    .from(user)
    .where(inArray(user.id, ids))
  return new Map(rows.map((row) => [row.id, row.username]))
}

/** The token (its id, expiry and last use) and its user, by the token's hash: every request whose caller is not cached. */
export async function findTokenWithUser(db: EngineDb, tokenHash: string) {
  const { user, authToken } = tables(db)
  const [row] = await db
    .select({
      user,
      token: { id: authToken.id, expiresAt: authToken.expiresAt, lastUsedAt: authToken.lastUsedAt },
    })
    .from(authToken)
    .innerJoin(user, eq(user.id, authToken.userId))
    .where(eq(authToken.tokenHash, tokenHash))
    .limit(1)
  return row ?? null
}

export async function touchToken(db: EngineDb, id: string): Promise<void> {
  const { authToken } = tables(db)
  await db.update(authToken).set({ lastUsedAt: nowIso() }).where(eq(authToken.id, id))
}

export async function findUserByUsername(db: EngineDb, username: string): Promise<UserRow | null> {
  const { user } = tables(db)
  const [row] = await db
    .select()
    .from(user)
    .where(equalsIgnoringCase(db, user.username, username))
    .limit(1)
  return row ?? null
}

/** Inserts the user unless the name is taken (case-insensitively, by the unique index): the row, or null. */
export async function insertUserIfFree(
  db: EngineDb,
  values: { username: string; passwordHash: string; roles: Role[]; isSystem?: boolean },
): Promise<UserRow | null> {
  const { user } = tables(db)
  const [row] = await db.insert(user).values(values).onConflictDoNothing().returning()
  return row ?? null
}

export async function updateUser(
  db: EngineDb,
  id: string,
  values: Partial<Pick<UserRow, 'roles' | 'disabled' | 'passwordHash' | 'mustChangePassword' | 'avatarUrl'>>,
): Promise<UserRow | null> {
  const { user } = tables(db)
  const [row] = await db.update(user).set(values).where(eq(user.id, id)).returning()
  return row ?? null
}

export function listPeople(db: EngineDb, window: RowWindow): Promise<RowPage<UserRow>> {
  const { user } = tables(db)
  const where = eq(user.isSystem, false)
  return readPage(
    db,
    db.select().from(user).where(where).orderBy(asc(user.createdAt), asc(user.id)),
    { from: user, where },
    window,
  )
}

export async function insertToken(
  db: EngineDb,
  values: {
    userId: string
    kind: TokenKind
    tokenHash: string
    name?: string | null
    expiresAt?: string | null
  },
): Promise<TokenRow> {
  const { authToken } = tables(db)
  const [row] = await db.insert(authToken).values(values).returning()
  return row as TokenRow
}

/** Whether the user's token existed (and is now deleted). */
export async function deleteToken(db: EngineDb, id: string, userId: string): Promise<boolean> {
  const { authToken } = tables(db)
  const deleted = await db
    .delete(authToken)
    .where(and(eq(authToken.id, id), eq(authToken.userId, userId)))
    .returning({ id: authToken.id })
  return deleted.length > 0
}

export async function deleteTokensOfUser(db: EngineDb, userId: string): Promise<void> {
  const { authToken } = tables(db)
  await db.delete(authToken).where(eq(authToken.userId, userId))
}

/** Deletes every token of the user but `keepId` (the one in use); the ids deleted. */
export async function deleteOtherTokens(db: EngineDb, userId: string, keepId: string): Promise<string[]> {
  const { authToken } = tables(db)
  const deleted = await db
    .delete(authToken)
    .where(and(eq(authToken.userId, userId), ne(authToken.id, keepId)))
    .returning({ id: authToken.id })
  return deleted.map((row) => row.id)
}

/** Deletes the user's tokens of one kind; the ids deleted. */
export async function deleteTokensOfKind(db: EngineDb, userId: string, kind: TokenKind): Promise<string[]> {
  const { authToken } = tables(db)
  const deleted = await db
    .delete(authToken)
    .where(and(eq(authToken.userId, userId), eq(authToken.kind, kind)))
    .returning({ id: authToken.id })
  return deleted.map((row) => row.id)
}

/** The tokens a user manages in the token list: API tokens and desktop tokens, not sign-in sessions. */
export async function listApiTokens(db: EngineDb, userId: string): Promise<TokenRow[]> {
  const { authToken } = tables(db)
  return db
    .select()
    .from(authToken)
    .where(and(eq(authToken.userId, userId), inArray(authToken.kind, ['api', 'desktop'])))
    .orderBy(asc(authToken.createdAt), asc(authToken.id))
}

/**
 * Counts one attempt under `key`: in its running window, or in a new one of `windowMs` from `now` when none runs;
 * with `max`, only while the running window holds fewer than that. The count after, or null when refused. One
 * statement (an upsert on the key), so attempts made at once on any instance are counted one after another.
 */
export async function countAttempt(
  db: EngineDb,
  key: string,
  { now, windowMs, max }: { now: number; windowMs: number; max: number | null },
): Promise<number | null> {
  const { rateLimitWindow: limit } = tables(db)
  const ended = sql`${limit.windowEndsAt} <= ${now}`
  const [row] = await db
    .insert(limit)
    .values({ key, count: 1, windowEndsAt: now + windowMs })
    .onConflictDoUpdate({
      target: limit.key,
      set: {
        count: sql`CASE WHEN ${ended} THEN 1 ELSE ${limit.count} + 1 END`,
        windowEndsAt: sql`CASE WHEN ${ended} THEN ${now + windowMs} ELSE ${limit.windowEndsAt} END`,
      },
      ...(max === null ? {} : { setWhere: sql`${ended} OR ${limit.count} < ${max}` }),
    })
    .returning({ count: limit.count })
  return row?.count ?? null
}

/** Gives back one attempt counted in the key's running window (it succeeded, or never ran). */
export async function uncountAttempt(db: EngineDb, key: string, now: number): Promise<void> {
  const { rateLimitWindow: limit } = tables(db)
  await db
    .update(limit)
    .set({ count: sql`${limit.count} - 1` })
    .where(and(eq(limit.key, key), gt(limit.count, 0), gt(limit.windowEndsAt, now)))
}

/** The key's running window: its count and when it ends; null when none runs. */
export async function runningWindow(db: EngineDb, key: string, now: number) {
  const { rateLimitWindow: limit } = tables(db)
  const [row] = await db
    .select({ count: limit.count, windowEndsAt: limit.windowEndsAt })
    .from(limit)
    .where(and(eq(limit.key, key), gt(limit.windowEndsAt, now)))
    .limit(1)
  return row ?? null
}

export async function deleteWindow(db: EngineDb, key: string): Promise<void> {
  const { rateLimitWindow: limit } = tables(db)
  await db.delete(limit).where(eq(limit.key, key))
}

export async function deleteEndedWindows(db: EngineDb, now: number): Promise<void> {
  const { rateLimitWindow: limit } = tables(db)
  await db.delete(limit).where(lte(limit.windowEndsAt, now))
}
