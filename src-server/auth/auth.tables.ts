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
