import { sql } from 'drizzle-orm'
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { createdAt, idColumn, jsonText, oneOf, updatedAt } from '../platform/db'
import type { Role } from '../platform/identity'

export const user = sqliteTable(
  'user',
  {
    id: idColumn(),
    username: text('username').notNull(),
    passwordHash: text('password_hash').notNull(),
    avatarUrl: text('avatar_url'),
    roles: jsonText<Role[]>('roles').notNull(),
    disabled: integer('disabled', { mode: 'boolean' }).notNull().default(false),
    /** Set when an admin gives the user a temporary password: until they choose their own, only that is allowed. */
    mustChangePassword: integer('must_change_password', { mode: 'boolean' }).notNull().default(false),
    /** The platform's own account (marketplace commissions): not a person, cannot sign in. */
    isSystem: integer('is_system', { mode: 'boolean' }).notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('user_username_nocase_idx').on(sql`${t.username} COLLATE NOCASE`)],
)

export const TOKEN_KINDS = ['session', 'api', 'desktop'] as const
export type TokenKind = (typeof TOKEN_KINDS)[number]

/** Bearer tokens, stored as SHA-256 of the token: a database dump never holds a usable token. */
export const authToken = sqliteTable(
  'auth_token',
  {
    id: idColumn(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<TokenKind>().notNull(),
    name: text('name'),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    lastUsedAt: text('last_used_at'),
    expiresAt: text('expires_at'),
  },
  (t) => [
    uniqueIndex('auth_token_by_hash_idx').on(t.tokenHash),
    index('auth_token_by_user_idx').on(t.userId, t.kind),
    oneOf('auth_token_kind_check', t.kind, TOKEN_KINDS),
  ],
)

/**
 * The sign-in and registration limits' counts on PostgreSQL, shared by every instance (SQLite's one process counts
 * in memory): per limiter key, the attempts counted in a fixed window and when that window ends (epoch ms). The key
 * is a SHA-256 of the limiter's name and its key (a username, an address), so the table holds no names typed at
 * the sign-in form. Rows whose window ended are deleted as the instances go.
 */
export const rateLimitWindow = sqliteTable(
  'rate_limit_window',
  {
    key: text('key').primaryKey(),
    count: integer('count').notNull(),
    windowEndsAt: integer('window_ends_at').notNull(),
  },
  (t) => [index('rate_limit_window_by_end_idx').on(t.windowEndsAt)],
)
