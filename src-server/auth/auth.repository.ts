import { and, asc, count, eq, sql } from 'drizzle-orm'
import type { Db, Queryable } from '../db/client'
import { nowIso } from '../db/columns'
import { authToken, type TokenKind, user } from './auth.tables'
import type { Role } from './permissions'

export type UserRow = typeof user.$inferSelect
export type TokenRow = typeof authToken.$inferSelect

export function findUserById(db: Queryable, id: string): UserRow | null {
  return db.select().from(user).where(eq(user.id, id)).get() ?? null
}

/** `findUserById` built once: the signed-in user is read on hot paths (`GET /api/auth/me`). */
export function prepareUserById(db: Db): (id: string) => UserRow | null {
  const query = db
    .select()
    .from(user)
    .where(eq(user.id, sql.placeholder('id')))
    .prepare()
  return (id) => query.get({ id }) ?? null
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
  values: Partial<Pick<UserRow, 'roles' | 'disabled' | 'passwordHash' | 'avatarUrl'>>,
): UserRow | null {
  return db.update(user).set(values).where(eq(user.id, id)).returning().get() ?? null
}

export function listPeople(db: Queryable, limit: number, offset: number): { rows: UserRow[]; total: number } {
  const people = eq(user.isSystem, false)
  const rows = db
    .select()
    .from(user)
    .where(people)
    .orderBy(asc(user.createdAt))
    .limit(limit)
    .offset(offset)
    .all()
  const total = db.select({ n: count() }).from(user).where(people).get()?.n ?? 0
  return { rows, total }
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

export function findTokenWithUser(
  db: Queryable,
  tokenHash: string,
): { token: TokenRow; user: UserRow } | null {
  const row = db
    .select()
    .from(authToken)
    .innerJoin(user, eq(authToken.userId, user.id))
    .where(eq(authToken.tokenHash, tokenHash))
    .get()
  return row ? { token: row.auth_token, user: row.user } : null
}

export function touchToken(db: Queryable, id: string): void {
  db.update(authToken).set({ lastUsedAt: nowIso() }).where(eq(authToken.id, id)).run()
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

export function listApiTokens(db: Queryable, userId: string): TokenRow[] {
  return db
    .select()
    .from(authToken)
    .where(and(eq(authToken.userId, userId), eq(authToken.kind, 'api')))
    .orderBy(asc(authToken.createdAt))
    .all()
}
