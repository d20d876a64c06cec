import { sql } from 'drizzle-orm'
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { type Role, user } from '../auth'
import { createdAt, idColumn, jsonText, oneOf, updatedAt } from '../platform/db'

export const AGENT_TYPES = ['chat', 'workflow'] as const
export type AgentType = (typeof AGENT_TYPES)[number]

/** Who may talk to an agent besides its owner, operators and marketplace buyers: nobody else, some roles, everyone signed in. */
export const AGENT_AUDIENCES = ['owner', 'roles', 'users'] as const
export type AgentAudience = (typeof AGENT_AUDIENCES)[number]

/** A chat agent: a system prompt and model defaults, owned by the user who created it. */
export const agent = sqliteTable(
  'agent',
  {
    id: idColumn(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => user.id),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    agentType: text('agent_type').$type<AgentType>().notNull().default('chat'),
    systemPrompt: text('system_prompt').notNull().default(''),
    modelProvider: text('model_provider'),
    modelName: text('model_name'),
    modelTemperature: real('model_temperature'),
    /**
     * Checked by the request schema, not a CHECK: drizzle-kit would rebuild this table for one, and the rebuild's
     * DROP TABLE would null every session's agent and drop every knowledge mount.
     */
    audience: text('audience').$type<AgentAudience>().notNull().default('owner'),
    /** The roles that may talk to the agent when `audience` is `roles`; empty otherwise. */
    audienceRoles: jsonText<Role[]>('audience_roles_json').notNull().default(sql`'[]'`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('agent_by_owner_idx').on(t.ownerId, t.createdAt),
    index('agent_by_time_idx').on(t.createdAt),
    oneOf('agent_type_check', t.agentType, AGENT_TYPES),
  ],
)

export const SESSION_STATES = ['AI_ACTIVE', 'HUMAN_ACTIVE'] as const
export type SessionState = (typeof SESSION_STATES)[number]

/** Where a session comes from: only `live` sessions reach the operator inbox and `/ws-operator`. */
export const SESSION_ORIGINS = ['live', 'test', 'evaluation'] as const
export type SessionOrigin = (typeof SESSION_ORIGINS)[number]

/**
 * A chat session (its id is the client's thread_id). `epoch` increases on every state change: a reply started
 * under an older epoch is never delivered. Model columns hold the overrides saved from requests (null = follow
 * the agent, then the global defaults).
 */
export const chatSession = sqliteTable(
  'chat_session',
  {
    id: idColumn(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => user.id),
    agentId: text('agent_id').references(() => agent.id, { onDelete: 'set null' }),
    state: text('state').$type<SessionState>().notNull().default('AI_ACTIVE'),
    epoch: integer('epoch').notNull().default(0),
    assignedOperatorId: text('assigned_operator_id').references(() => user.id),
    modelProvider: text('model_provider'),
    modelName: text('model_name'),
    modelTemperature: real('model_temperature'),
    lastMessage: text('last_message'),
    /** Checked in the migration (a column CHECK added in place: rebuilding this table would cascade to messages). */
    origin: text('origin').$type<SessionOrigin>().notNull().default('live'),
    /** The inbox row shows what the user said last, not the AI. */
    lastUserMessage: text('last_user_message'),
    lastUserMessageAt: text('last_user_message_at'),
    /** The user's first message (a preview): with the agent's name, what the user's own list calls the session. */
    topic: text('topic'),
    /** Counts the user's messages; an operator's unread count is this minus their read marker. */
    userMessageCount: integer('user_message_count').notNull().default(0),
    /** Set when the user asked for a human or the AI could not answer; cleared when a human takes it. */
    waitingSince: text('waiting_since'),
    /** Set by resolve, cleared by the user's next message. */
    resolvedAt: text('resolved_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('chat_session_by_owner_updated_idx').on(t.ownerId, t.updatedAt),
    index('chat_session_by_updated_idx').on(t.updatedAt),
    index('chat_session_inbox_idx').on(t.origin, t.resolvedAt, t.updatedAt),
    oneOf('chat_session_state_check', t.state, SESSION_STATES),
  ],
)

/** How many of a session's user messages an operator has read: unread counts survive reloads. */
export const chatReadMarker = sqliteTable(
  'chat_read_marker',
  {
    sessionId: text('session_id')
      .notNull()
      .references(() => chatSession.id, { onDelete: 'cascade' }),
    operatorId: text('operator_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    readUserCount: integer('read_user_count').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ name: 'chat_read_marker_pk', columns: [t.sessionId, t.operatorId] })],
)

/** A saved reply an operator inserts with `/shortcut`; `ownerId` null means shared with every operator. */
export const cannedResponse = sqliteTable(
  'canned_response',
  {
    id: idColumn(),
    ownerId: text('owner_id').references(() => user.id, { onDelete: 'cascade' }),
    createdById: text('created_by_id')
      .notNull()
      .references(() => user.id),
    shortcut: text('shortcut').notNull(),
    content: text('content').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('canned_response_by_owner_shortcut_idx').on(t.ownerId, t.shortcut)],
)

export const MESSAGE_STATUSES = ['complete', 'interrupted', 'draft'] as const
export type MessageStatus = (typeof MESSAGE_STATUSES)[number]

export interface StoredCitation {
  index: number
  source_id: string
  document_id: string
  chunk_id: string
  /** Absent on citations stored before the name was kept. */
  document_name?: string
  page_number: number | null
  snippet: string
  score: number
}

/**
 * One message. `role` is not an enforced enumeration (spec). `status`: `interrupted` when the client left
 * mid-reply, `draft` when a takeover fenced the reply (shown to operators only, never delivered).
 */
export const chatMessage = sqliteTable(
  'chat_message',
  {
    id: idColumn(),
    sessionId: text('session_id')
      .notNull()
      .references(() => chatSession.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    content: text('content').notNull(),
    messageType: text('message_type').notNull().default('user_chat'),
    status: text('status').$type<MessageStatus>().notNull().default('complete'),
    citations: jsonText<StoredCitation[]>('citations_json').notNull().default(sql`'[]'`),
    authorId: text('author_id').references(() => user.id),
    /** Insertion order within a session: timestamps can tie at millisecond resolution. */
    seq: integer('seq').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('chat_message_by_session_seq_idx').on(t.sessionId, t.seq),
    oneOf('chat_message_status_check', t.status, MESSAGE_STATUSES),
  ],
)

/**
 * The instances with an operator connected to the inbox (their operator feed) right now, for the hand-off's "is
 * anyone from the team online": a row per such instance, refreshed by its heartbeat, deleted when its last
 * operator leaves; the row of an instance that died expires. Written on PostgreSQL only: one SQLite server knows
 * its own sockets.
 */
export const operatorPresence = sqliteTable('operator_presence', {
  instanceId: text('instance_id').primaryKey(),
  expiresAt: text('expires_at').notNull(),
})
