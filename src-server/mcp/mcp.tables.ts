import { sql } from 'drizzle-orm'
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { user } from '../auth'
import { createdAt, idColumn, jsonText, oneOf, updatedAt } from '../platform/db'

export const MCP_TRANSPORTS = ['stdio', 'http_sse'] as const
export type McpTransport = (typeof MCP_TRANSPORTS)[number]

export const MCP_CALL_OUTCOMES = ['success', 'timeout', 'error', 'blocked'] as const
export type McpCallOutcome = (typeof MCP_CALL_OUTCOMES)[number]

export interface McpHealth {
  status: 'ok' | 'error'
  checked_at: string
  latency_ms: number
  tools: { name: string; description: string | null }[]
  error: string | null
}

export interface McpMountPolicy {
  allowed_tools: string[] | null
  blocked_tools: string[]
  max_calls_per_turn: number
  timeout_ms: number | null
}

/**
 * A credential's secret payload lives only sealed (AES-256-GCM, see SecretBox) in `encrypted_secret_json`;
 * `secret_keys` keeps the payload's key names so they can be shown without unsealing. A credential is its
 * creator's: only they and admins see, change or attach it (null for credentials stored before owners were kept:
 * admins only). Names are unique per owner, so a name says nothing about other people's credentials.
 */
export const mcpCredential = sqliteTable(
  'mcp_credential',
  {
    id: idColumn(),
    ownerId: text('owner_id').references(() => user.id),
    name: text('name').notNull(),
    description: text('description'),
    encryptedSecretJson: text('encrypted_secret_json').notNull(),
    secretKeys: jsonText<string[]>('secret_keys_json').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    rotatedAt: text('rotated_at'),
  },
  (t) => [uniqueIndex('mcp_credential_owner_name_idx').on(t.ownerId, t.name)],
)

export const mcpServer = sqliteTable(
  'mcp_server',
  {
    id: idColumn(),
    name: text('name').notNull(),
    description: text('description'),
    transport: text('transport').$type<McpTransport>().notNull(),
    command: text('command'),
    args: jsonText<string[]>('args_json').notNull(),
    env: jsonText<Record<string, string>>('env_json').notNull(),
    /** The variables the attached credential may supply, declared by an admin; its other keys are not passed. */
    envNames: jsonText<string[]>('env_names_json').notNull().default(sql`'[]'`),
    cwd: text('cwd'),
    credentialId: text('credential_id').references(() => mcpCredential.id, { onDelete: 'restrict' }),
    enabled: integer('enabled', { mode: 'boolean' }).notNull().default(true),
    timeoutMs: integer('timeout_ms').notNull().default(15_000),
    lastHealth: jsonText<McpHealth>('last_health_json'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('mcp_server_name_idx').on(t.name),
    index('mcp_server_by_credential_idx').on(t.credentialId),
    oneOf('mcp_server_transport_check', t.transport, MCP_TRANSPORTS),
  ],
)

/** A tool server mounted on an agent, with the policy every call of that agent's chats is checked against. */
export const mcpMount = sqliteTable(
  'mcp_mount',
  {
    id: idColumn(),
    agentId: text('agent_id').notNull(),
    mcpServerId: text('mcp_server_id')
      .notNull()
      .references(() => mcpServer.id, { onDelete: 'cascade' }),
    enabled: integer('enabled', { mode: 'boolean' }).notNull().default(true),
    policy: jsonText<McpMountPolicy>('policy_json').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('mcp_mount_agent_server_idx').on(t.agentId, t.mcpServerId),
    index('mcp_mount_by_server_idx').on(t.mcpServerId),
  ],
)

/** One row per tool call a chat asked for, masked before it is written; outlives the server it names. */
export const mcpCallAudit = sqliteTable(
  'mcp_call_audit',
  {
    id: idColumn(),
    sessionId: text('session_id'),
    agentId: text('agent_id').notNull(),
    mcpServerId: text('mcp_server_id'),
    toolName: text('tool_name').notNull(),
    outcome: text('outcome').$type<McpCallOutcome>().notNull(),
    requestPayload: jsonText<unknown>('request_payload_json'),
    responsePayload: text('response_payload'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('mcp_call_audit_by_session_idx').on(t.sessionId, t.createdAt),
    index('mcp_call_audit_by_agent_idx').on(t.agentId, t.createdAt),
    oneOf('mcp_call_audit_outcome_check', t.outcome, MCP_CALL_OUTCOMES),
  ],
)
