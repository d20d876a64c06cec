import { reachesEvery, requireAccess } from '../access'
import type { ModelRegistry } from '../ai'
import type { AuthUser, Role } from '../auth'
import type { Queryable } from '../db'
import { CommonErrors } from '../errors'
import { pageWindow, toPage } from '../http'
import { grantedAssetIds, hasAssetGrant } from '../marketplace'
import * as repo from './agents.repository'
import type { AgentListQuery, AgentView, CreateAgentBody, UpdateAgentBody } from './conversation.schemas'
import type { AgentAudience } from './conversation.tables'

/** Checks a model configuration before it is stored; throws an AppError when it names an unknown model. */
export type ModelConfigCheck = (config: {
  provider?: string | null
  model?: string | null
  temperature?: number | null
}) => void

/** A configuration that names a provider, a model or a temperature must resolve to a model with `chat`. */
export function chatModelCheck(models: Pick<ModelRegistry, 'resolve'>): ModelConfigCheck {
  return (config) => {
    if (config.provider || config.model || config.temperature !== null)
      models.resolve(
        { provider: config.provider, model: config.model, temperature: config.temperature },
        'chat',
      )
  }
}

export function toAgentView(row: repo.AgentWithOwner): AgentView {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    agent_type: row.agentType,
    system_prompt: row.systemPrompt,
    model_provider: row.modelProvider,
    model_name: row.modelName,
    model_temperature: row.modelTemperature,
    owner: { id: row.ownerId, username: row.ownerUsername },
    audience: row.audience,
    audience_roles: row.audienceRoles,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  }
}

/** Whether the agent's audience takes in the user: everyone signed in, or one of the roles it names. */
function inAudience(
  agent: { audience: AgentAudience; audienceRoles: Role[] },
  user: Pick<AuthUser, 'roles'>,
): boolean {
  if (agent.audience === 'users') return true
  return agent.audience === 'roles' && agent.audienceRoles.some((role) => user.roles.includes(role))
}

/**
 * The agent (`found`), when the user may use it (`agent.use`: its owner, a holder of a marketplace grant of it, an
 * operator, and, with `talk`, its audience); else 404 `AGENT_NOT_FOUND`, as if it did not exist. The one place that
 * says who may use an agent. The audience only talks to the agent: mounting knowledge on it, ingesting for it,
 * searching its knowledge directly and evaluating it stay with the owner, buyers and operators.
 */
function usableBy<T extends { ownerId: string }>(
  db: Queryable,
  user: Pick<AuthUser, 'id' | 'permissions' | 'roles'>,
  agentId: string,
  found: T | null,
  talk?: (user: Pick<AuthUser, 'roles'>) => boolean,
): T {
  const denied = () => CommonErrors.AGENT_NOT_FOUND({ agent_id: agentId })
  if (!found) throw denied()
  requireAccess(user, 'agent.use', {
    ownerId: found.ownerId,
    isGranted: (userId) => talk?.(user) === true || hasAssetGrant(db, userId, 'agent', agentId),
    denied,
  })
  return found
}

/** For knowledge and evaluation: the agent exists and the user may use it. */
export function requireUsableAgent(
  db: Queryable,
  user: Pick<AuthUser, 'id' | 'permissions' | 'roles'>,
  agentId: string,
) {
  const ownerId = repo.findAgentOwnerId(db, agentId)
  usableBy(db, user, agentId, ownerId === null ? null : { ownerId })
}

/** The audience a PATCH leaves: roles only when the audience is `roles`, which needs at least one. */
function nextAudience(
  current: repo.AgentRow,
  body: UpdateAgentBody,
): { audience: AgentAudience; audienceRoles: Role[] } {
  const audience = body.audience ?? current.audience
  const roles = body.audience_roles ?? (body.audience === undefined ? current.audienceRoles : [])
  if (audience !== 'roles') {
    if (body.audience_roles?.length)
      throw CommonErrors.VALIDATION_ERROR(
        { audience_roles: 'only with audience "roles"' },
        'audience_roles is only used when audience is "roles".',
      )
    return { audience, audienceRoles: [] }
  }
  if (roles.length === 0)
    throw CommonErrors.VALIDATION_ERROR(
      { audience_roles: 'at least one role' },
      'An audience of roles needs at least one role in audience_roles.',
    )
  return { audience, audienceRoles: [...new Set(roles)] }
}

/**
 * Agents: a user sees and talks to their own agents, those a marketplace order granted them, and those whose
 * audience takes them in; operators and agent managers see all. Anyone else's agent is 404 as if absent. Only the
 * owner or an agent manager edits; only the owner or an admin sets who the audience is.
 */
export function createAgentService(db: Queryable, deps: { checkModel: ModelConfigCheck }) {
  /** The agent, when the user may talk to it (chat, read it); else 404. */
  function usable(user: AuthUser, agentId: string): repo.AgentWithOwner {
    const found = repo.findAgent(db, agentId)
    return usableBy(db, user, agentId, found, (talker) => found !== null && inAudience(found, talker))
  }

  return {
    usable,

    get(user: AuthUser, agentId: string): AgentView {
      return toAgentView(usable(user, agentId))
    },

    create(user: AuthUser, body: CreateAgentBody): AgentView {
      deps.checkModel({
        provider: body.model_provider,
        model: body.model_name,
        temperature: body.model_temperature,
      })
      const row = repo.insertAgent(db, {
        ownerId: user.id,
        name: body.name,
        description: body.description ?? '',
        agentType: body.agent_type ?? 'chat',
        systemPrompt: body.system_prompt ?? '',
        modelProvider: body.model_provider ?? null,
        modelName: body.model_name ?? null,
        modelTemperature: body.model_temperature ?? null,
      })
      return toAgentView({ ...row, ownerUsername: user.username })
    },

    update(user: AuthUser, agentId: string, body: UpdateAgentBody): AgentView {
      const current = usable(user, agentId)
      requireAccess(user, 'agent.edit', {
        ownerId: current.ownerId,
        denied: () =>
          CommonErrors.FORBIDDEN(
            { agent_id: agentId },
            'Only the owner or an agent manager can edit this agent.',
          ),
      })
      const provider = body.model_provider === undefined ? current.modelProvider : body.model_provider
      const model = body.model_name === undefined ? current.modelName : body.model_name
      const temperature =
        body.model_temperature === undefined ? current.modelTemperature : body.model_temperature
      deps.checkModel({ provider, model, temperature })
      const setsAudience = body.audience !== undefined || body.audience_roles !== undefined
      if (setsAudience)
        requireAccess(user, 'agent.set_audience', {
          ownerId: current.ownerId,
          denied: () =>
            CommonErrors.FORBIDDEN(
              { agent_id: agentId },
              "Only the agent's owner or an admin decides who may talk to it.",
            ),
        })
      const audience = setsAudience ? nextAudience(current, body) : {}
      repo.updateAgent(db, agentId, {
        ...audience,
        ...(body.name !== undefined && { name: body.name }),
        ...(body.description !== undefined && { description: body.description }),
        ...(body.system_prompt !== undefined && { systemPrompt: body.system_prompt }),
        modelProvider: provider,
        modelName: model,
        modelTemperature: temperature,
      })
      return toAgentView(usable(user, agentId))
    },

    /** The agents the user may talk to; `mine`: only those they own. */
    list(user: AuthUser, query: AgentListQuery) {
      const scope: repo.AgentScope = query.mine
        ? { ownerId: user.id }
        : reachesEvery(user, 'agent.use')
          ? { all: true }
          : { talker: user, grantedIds: grantedAssetIds(db, user.id, 'agent') }
      const { rows, total } = repo.listAgents(db, scope, pageWindow(query))
      return toPage(rows.map(toAgentView), total, query)
    },
  }
}

export type AgentService = ReturnType<typeof createAgentService>
