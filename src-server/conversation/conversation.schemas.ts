import { type Static, Type } from 'typebox'
import { ROLES } from '../auth'
import { Nullable, Page, PageQuery, Timestamp, UserRef, Uuid } from '../platform/http'
import { AGENT_AUDIENCES, AGENT_TYPES, SESSION_ORIGINS, SESSION_STATES } from './conversation.tables'
import { INBOX_VIEWS } from './sessions.repository'

const Temperature = Type.Number({ minimum: 0, maximum: 2 })

export const AgentSchema = Type.Object({
  id: Uuid,
  name: Type.String(),
  description: Type.String(),
  agent_type: Type.Enum([...AGENT_TYPES]),
  system_prompt: Nullable(
    Type.String({
      description: "null for a caller who may only use the agent (a buyer): the prompt is the seller's",
    }),
  ),
  model_provider: Nullable(Type.String()),
  model_name: Nullable(Type.String()),
  model_temperature: Nullable(Type.Number()),
  owner: UserRef,
  audience: Type.Enum([...AGENT_AUDIENCES], {
    description:
      'Who may talk to the agent besides its owner, operators and marketplace buyers: nobody else (owner), the roles in audience_roles (roles), or every signed-in user (users).',
  }),
  audience_roles: Type.Array(Type.Enum([...ROLES])),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type AgentView = Static<typeof AgentSchema>

export const CreateAgentBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  description: Type.Optional(Type.String({ maxLength: 4000 })),
  agent_type: Type.Optional(Type.Enum([...AGENT_TYPES])),
  system_prompt: Type.Optional(Type.String({ maxLength: 20_000 })),
  model_provider: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
  model_name: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 200 }))),
  model_temperature: Type.Optional(Nullable(Temperature)),
})
export type CreateAgentBody = Static<typeof CreateAgentBody>

export const UpdateAgentBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    description: Type.Optional(Type.String({ maxLength: 4000 })),
    system_prompt: Type.Optional(Type.String({ maxLength: 20_000 })),
    model_provider: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
    model_name: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 200 }))),
    model_temperature: Type.Optional(Nullable(Temperature)),
    audience: Type.Optional(
      Type.Enum([...AGENT_AUDIENCES], { description: "Only the agent's owner or an admin sets it." }),
    ),
    audience_roles: Type.Optional(
      Type.Array(Type.Enum([...ROLES]), {
        maxItems: ROLES.length,
        description: 'With audience "roles": the roles whose holders may talk to the agent (at least one).',
      }),
    ),
  },
  { minProperties: 1 },
)
export type UpdateAgentBody = Static<typeof UpdateAgentBody>

export const AgentIdParams = Type.Object({ agent_id: Uuid })
export const AgentPage = Page(AgentSchema)
export const AgentPageQuery = Type.Object({
  ...PageQuery.properties,
  mine: Type.Optional(
    Type.Boolean({ description: 'Only the agents you own (default: every agent you may talk to).' }),
  ),
})
export type AgentListQuery = Static<typeof AgentPageQuery>

export const CitationSchema = Type.Object({
  index: Type.Integer(),
  source_id: Type.String(),
  document_id: Type.String(),
  chunk_id: Type.String(),
  document_name: Type.Optional(Type.String()),
  page_number: Nullable(Type.Integer()),
  snippet: Type.String(),
  score: Type.Number(),
})

export const MessageSchema = Type.Object({
  id: Uuid,
  session_id: Uuid,
  role: Type.String(),
  content: Type.String(),
  message_type: Type.String(),
  status: Type.String({
    description: 'complete, interrupted (client left mid-reply) or draft (fenced by takeover)',
  }),
  citations: Type.Array(CitationSchema),
  created_at: Timestamp,
  author: Nullable(UserRef),
})
export type MessageView = Static<typeof MessageSchema>

export const SessionSchema = Type.Object({
  id: Uuid,
  state: Type.Enum([...SESSION_STATES]),
  epoch: Type.Integer(),
  agent_id: Nullable(Uuid),
  agent: Nullable(
    Type.Object({ id: Uuid, name: Type.String() }, { description: 'The agent the session is with.' }),
  ),
  topic: Nullable(Type.String({ description: "The user's first message (a preview)." })),
  model_provider: Nullable(Type.String()),
  model_name: Nullable(Type.String()),
  model_temperature: Nullable(Type.Number()),
  owner: UserRef,
  assigned_operator: Nullable(UserRef),
  created_at: Timestamp,
  updated_at: Timestamp,
  last_message: Nullable(Type.String()),
  origin: Type.Enum([...SESSION_ORIGINS]),
  last_user_message: Nullable(Type.String()),
  last_user_message_at: Nullable(Timestamp),
  waiting_for_human: Type.Boolean({ description: 'The user asked for a human or the AI could not answer.' }),
  waiting_since: Nullable(Timestamp),
  resolved_at: Nullable(Timestamp),
  unread_count: Nullable(
    Type.Integer({ description: 'User messages the calling operator has not read; null for non-operators.' }),
  ),
})
export type SessionView = Static<typeof SessionSchema>

const Window = {
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
  offset: Type.Integer({ minimum: 0, default: 0 }),
}

export const SessionListQuery = Type.Object({
  ...Window,
  status: Type.Optional(Type.Enum([...SESSION_STATES])),
  updated_after: Type.Optional(Timestamp),
  updated_before: Type.Optional(Timestamp),
  view: Type.Enum([...INBOX_VIEWS], { default: 'all', description: 'Operators: mine, unassigned or all.' }),
  origin: Type.Enum([...SESSION_ORIGINS], { default: 'live' }),
  resolved: Type.Optional(
    Type.Enum(['open', 'resolved', 'any'], {
      description: 'Default: open for operators (resolved sessions drop out), any for users.',
    }),
  ),
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'User name or message text.' })),
  owner_id: Type.Optional(
    Type.String({
      format: 'uuid',
      description:
        "Operators: one person's sessions (their earlier conversations). Users see only their own.",
    }),
  ),
})
export type SessionListQuery = Static<typeof SessionListQuery>

export const MessageListQuery = Type.Object({
  ...Window,
  role: Type.Optional(Type.Enum(['user', 'assistant', 'agent', 'system', 'note'])),
  created_after: Type.Optional(Timestamp),
  created_before: Type.Optional(Timestamp),
})
export type MessageListQuery = Static<typeof MessageListQuery>

const Windowed = <T extends Parameters<typeof Type.Array>[0]>(item: T) =>
  Type.Object({
    items: Type.Array(item),
    total: Type.Integer(),
    limit: Type.Integer(),
    offset: Type.Integer(),
  })
export const SessionPage = Type.Object({
  ...Windowed(SessionSchema).properties,
  counts: Nullable(
    Type.Object(
      { mine: Type.Integer(), unassigned: Type.Integer(), all: Type.Integer() },
      { description: 'Sessions per inbox view under the same filters (operators; null for users).' },
    ),
  ),
})
export const MessagePage = Windowed(MessageSchema)

export const SessionIdParams = Type.Object({ session_id: Uuid })
export const SessionSocketQuery = Type.Object({
  create: Type.Optional(
    Type.Boolean({
      description:
        "Create the session, as the caller's own, when the id is not in use; otherwise an unknown id is 404.",
    }),
  ),
})
export const ExportQuery = Type.Object({ format: Type.Optional(Type.Enum(['json', 'markdown'])) })
export const SessionExport = Type.Object({ session: SessionSchema, messages: Type.Array(MessageSchema) })

export const HandoverBody = Type.Object({
  agent_id: Type.Optional(Uuid),
  note: Type.Optional(Type.String({ maxLength: 2000 })),
  force: Type.Optional(
    Type.Boolean({ description: 'Take over (or release) a session assigned to another operator.' }),
  ),
})
export type HandoverBody = Static<typeof HandoverBody>

export const HandoffRequestSchema = Type.Object({
  session: SessionSchema,
  /** The acknowledgement told to the user; null when they had just been told. */
  message: Nullable(MessageSchema),
})

export const AgentMessageBody = Type.Object({ content: Type.String({ minLength: 1, maxLength: 20_000 }) })
export const NoteBody = AgentMessageBody
export const AssignBody = Type.Object({
  operator_id: Type.Union([Uuid, Type.Null()], { description: 'null leaves the session unassigned.' }),
  force: Type.Optional(Type.Boolean({ description: 'Reassign a session assigned to another operator.' })),
})
export type AssignBody = Static<typeof AssignBody>

export const CannedResponseSchema = Type.Object({
  id: Uuid,
  shortcut: Type.String(),
  content: Type.String(),
  shared: Type.Boolean(),
  created_by: UserRef,
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type CannedResponseView = Static<typeof CannedResponseSchema>
export const CreateCannedResponseBody = Type.Object({
  shortcut: Type.String({ minLength: 1, maxLength: 40, pattern: '^[A-Za-z0-9_-]+$' }),
  content: Type.String({ minLength: 1, maxLength: 20_000 }),
  shared: Type.Optional(Type.Boolean({ description: 'Visible to every operator (default: only you).' })),
})
export type CreateCannedResponseBody = Static<typeof CreateCannedResponseBody>
export const CannedResponseIdParams = Type.Object({ canned_response_id: Uuid })
export const CannedResponsePage = Page(CannedResponseSchema)

export const StreamBody = Type.Object({
  thread_id: Type.Optional(Uuid),
  agent_id: Type.Optional(Uuid),
  message: Type.String({ maxLength: 100_000 }),
  message_type: Type.Optional(Type.String({ maxLength: 100 })),
  model_name: Type.Optional(Type.String({ maxLength: 200 })),
  model_provider: Type.Optional(Type.String({ maxLength: 100 })),
  model_temperature: Type.Optional(Type.Number()),
  origin: Type.Optional(
    Type.Enum(['live', 'test'], { description: 'test keeps the session out of the live inbox.' }),
  ),
})
export type StreamBody = Static<typeof StreamBody>
