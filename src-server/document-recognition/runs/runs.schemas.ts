import { type Static, Type } from 'typebox'
import { Nullable, Timestamp, Uuid } from '../../platform/http'
import { RUN_STATUSES, RUNTIME_AGENT_TYPES, VERSION_STATUSES } from './runs.tables'

export const InputSlot = Type.Object({
  key: Type.String({ minLength: 1, maxLength: 64 }),
  accepts: Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }),
  required: Type.Boolean(),
})
export type InputSlot = Static<typeof InputSlot>

export const ExecutionPolicy = Type.Object({
  timeout_ms: Type.Integer({ minimum: 1000, maximum: 3_600_000 }),
  max_attempts: Type.Integer({ minimum: 1, maximum: 10 }),
  step_retries: Type.Integer({ minimum: 0, maximum: 10 }),
  max_pages: Type.Integer({ minimum: 1, maximum: 1000 }),
  max_file_mb: Type.Number({ exclusiveMinimum: 0, maximum: 50 }),
})
export type ExecutionPolicy = Static<typeof ExecutionPolicy>

/** What every runtime agent config has; each type adds its own keys (checked by its executor). */
export const BaseAgentConfig = Type.Object({
  input_slots: Type.Array(InputSlot, { minItems: 1, maxItems: 1 }),
  execution_policy: ExecutionPolicy,
})
export type BaseAgentConfig = Static<typeof BaseAgentConfig>

export const RuntimeAgentType = Type.Enum([...RUNTIME_AGENT_TYPES])

export const RuntimeAgentVersionSchema = Type.Object({
  id: Uuid,
  agent_id: Uuid,
  version: Type.Integer(),
  status: Type.Enum([...VERSION_STATUSES]),
  config: Type.Unknown(),
  created_at: Timestamp,
})
export type RuntimeAgentVersionView = Static<typeof RuntimeAgentVersionSchema>

export const RuntimeAgentSchema = Type.Object({
  id: Uuid,
  name: Type.String(),
  type: RuntimeAgentType,
  published_version_id: Nullable(Uuid),
  owner: Nullable(Type.Object({ id: Uuid, username: Type.String() })),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type RuntimeAgentView = Static<typeof RuntimeAgentSchema>

export const RuntimeAgentDetail = Type.Object({
  ...RuntimeAgentSchema.properties,
  versions: Type.Array(RuntimeAgentVersionSchema),
})

export const CreateRuntimeAgentBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    type: RuntimeAgentType,
    config: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { additionalProperties: false },
)
export const CreateVersionBody = Type.Object(
  { config: Type.Record(Type.String(), Type.Unknown()) },
  { additionalProperties: false },
)
export const VersionParams = Type.Object({ id: Uuid, vid: Uuid })

export const AgentRunSchema = Type.Object({
  id: Uuid,
  runtime_agent_id: Uuid,
  agent_version_id: Uuid,
  runtime_agent_type_snapshot: RuntimeAgentType,
  status: Type.Enum([...RUN_STATUSES]),
  input_slot: Type.String(),
  file_name: Type.String(),
  mime_type: Type.String(),
  page_count: Nullable(Type.Integer()),
  output: Type.Unknown(),
  error_message: Nullable(Type.String()),
  attempts: Type.Integer(),
  rerun_source_run_id: Nullable(Uuid),
  created_at: Timestamp,
  updated_at: Timestamp,
  completed_at: Nullable(Timestamp),
})
