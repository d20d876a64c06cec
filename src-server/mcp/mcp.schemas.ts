import { type Static, Type } from 'typebox'
import { Nullable, Timestamp, Uuid } from '../platform/http'

/** Server names become the `<server>__<tool>` prefix of OpenAI function names, hence the narrow alphabet. */
const Transport = Type.Union([Type.Literal('stdio'), Type.Literal('http_sse')])
const ServerName = Type.String({ pattern: '^[A-Za-z0-9_-]{1,48}$', description: 'letters, digits, _ and -' })
const Description = Type.String({ maxLength: 2000 })
const StringMap = Type.Record(Type.String({ maxLength: 200 }), Type.String({ maxLength: 10_000 }))
const TimeoutMs = Type.Integer({ minimum: 100, maximum: 600_000 })
const ToolNames = Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 500 })
const EnvNames = Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
  maxItems: 100,
  uniqueItems: true,
  description: 'The environment variables the attached credential may supply; its other keys are not passed.',
})

export const ToolSummary = Type.Object({ name: Type.String(), description: Nullable(Type.String()) })

export const HealthCheckResult = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('error')]),
  checked_at: Timestamp,
  latency_ms: Type.Integer(),
  tools: Type.Array(ToolSummary),
  error: Nullable(Type.String()),
})

export const McpServerView = Type.Object({
  id: Uuid,
  name: Type.String(),
  description: Nullable(Type.String()),
  transport: Transport,
  command: Nullable(Type.String()),
  args: Type.Array(Type.String()),
  env: Type.Record(Type.String(), Type.String()),
  env_names: Type.Array(Type.String()),
  cwd: Nullable(Type.String()),
  credential_id: Nullable(Uuid),
  enabled: Type.Boolean(),
  timeout_ms: Type.Integer(),
  last_health: Nullable(HealthCheckResult),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type McpServerView = Static<typeof McpServerView>

export const CreateMcpServerBody = Type.Object({
  name: ServerName,
  description: Type.Optional(Nullable(Description)),
  transport: Type.Optional(Transport),
  command: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 4096 }))),
  args: Type.Optional(Type.Array(Type.String({ maxLength: 4096 }), { maxItems: 100 })),
  env: Type.Optional(StringMap),
  env_names: Type.Optional(EnvNames),
  cwd: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 4096 }))),
  credential_id: Type.Optional(Nullable(Uuid)),
  enabled: Type.Optional(Type.Boolean()),
  timeout_ms: Type.Optional(TimeoutMs),
})
export type CreateMcpServerBody = Static<typeof CreateMcpServerBody>

export const UpdateMcpServerBody = Type.Partial(CreateMcpServerBody)
export type UpdateMcpServerBody = Static<typeof UpdateMcpServerBody>

export const McpCredentialView = Type.Object({
  id: Uuid,
  owner_id: Nullable(Uuid),
  name: Type.String(),
  description: Nullable(Type.String()),
  secret_keys: Type.Array(Type.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
  rotated_at: Nullable(Timestamp),
})
export type McpCredentialView = Static<typeof McpCredentialView>

const SecretPayload = Type.Record(Type.String({ maxLength: 200 }), Type.String({ maxLength: 10_000 }), {
  description: 'Secret values by environment variable name; stored encrypted, never returned.',
})

export const CreateMcpCredentialBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  description: Type.Optional(Nullable(Description)),
  secret_payload: SecretPayload,
})
export type CreateMcpCredentialBody = Static<typeof CreateMcpCredentialBody>

export const UpdateMcpCredentialBody = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  description: Type.Optional(Nullable(Description)),
})
export type UpdateMcpCredentialBody = Static<typeof UpdateMcpCredentialBody>

export const RotateMcpCredentialBody = Type.Object({ secret_payload: SecretPayload })

export const MountPolicy = Type.Object({
  allowed_tools: Nullable(Type.Array(Type.String())),
  blocked_tools: Type.Array(Type.String()),
  max_calls_per_turn: Type.Integer(),
  timeout_ms: Nullable(Type.Integer()),
})

export const MountPolicyInput = Type.Object({
  allowed_tools: Type.Optional(Nullable(ToolNames)),
  blocked_tools: Type.Optional(ToolNames),
  max_calls_per_turn: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
  timeout_ms: Type.Optional(Nullable(TimeoutMs)),
})
export type MountPolicyInput = Static<typeof MountPolicyInput>

export const McpMountView = Type.Object({
  id: Uuid,
  agent_id: Uuid,
  mcp_server_id: Uuid,
  enabled: Type.Boolean(),
  policy: MountPolicy,
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type McpMountView = Static<typeof McpMountView>

export const CreateMcpMountBody = Type.Object({
  mcp_server_id: Uuid,
  enabled: Type.Optional(Type.Boolean()),
  policy: Type.Optional(MountPolicyInput),
})
export type CreateMcpMountBody = Static<typeof CreateMcpMountBody>

export const UpdateMcpMountBody = Type.Object({
  enabled: Type.Optional(Type.Boolean()),
  policy: Type.Optional(MountPolicyInput),
})
export type UpdateMcpMountBody = Static<typeof UpdateMcpMountBody>

export const McpCallOutcomeSchema = Type.Union([
  Type.Literal('success'),
  Type.Literal('timeout'),
  Type.Literal('error'),
  Type.Literal('blocked'),
])

export const McpCallView = Type.Object({
  id: Uuid,
  session_id: Nullable(Type.String()),
  agent_id: Type.String(),
  mcp_server_id: Nullable(Uuid),
  tool_name: Type.String(),
  outcome: McpCallOutcomeSchema,
  request_payload: Type.Unknown(),
  response_payload: Nullable(Type.String()),
  error: Nullable(Type.String()),
  duration_ms: Type.Integer(),
  created_at: Timestamp,
})
export type McpCallView = Static<typeof McpCallView>

export const McpCallQuery = Type.Object({
  page: Type.Integer({ minimum: 1, default: 1 }),
  size: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  outcome: Type.Optional(McpCallOutcomeSchema),
})
export type McpCallQuery = Static<typeof McpCallQuery>
