import { mayAccess, type Resource, reachesEvery, requireAccess } from '../access'
import type { ModelRegistry } from '../ai'
import type { AuthUser } from '../auth'
import type { Queryable } from '../db'
import { CommonErrors } from '../errors'
import { type PageQuery, pageWindow, toPage } from '../http'
import { grantedAssetIds, hasAssetGrant } from '../marketplace'
import * as repo from './agents.repository'
import type { AgentView, CreateAgentBody, UpdateAgentBody } from './conversation.schemas'

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

const deniedChange = (agentId: string) => () =>
  CommonErrors.FORBIDDEN({ agent_id: agentId }, 'Only the owner or an agent manager can change this agent.')

/**
 * The agent as `viewer` sees it: the prompt only for whoever may change the agent (`agent.change`); a caller who
 * may only use it (a marketplace buyer) gets `system_prompt: null`, since the prompt is what the seller sells.
 */
export function toAgentView(
  row: repo.AgentWithOwner,
  viewer: Pick<AuthUser, 'id' | 'permissions'>,
): AgentView {
  const mayChange = mayAccess(viewer, 'agent.change', { ownerId: row.ownerId, denied: deniedChange(row.id) })
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    agent_type: row.agentType,
    system_prompt: mayChange ? row.systemPrompt : null,
    model_provider: row.modelProvider,
    model_name: row.modelName,
    model_temperature: row.modelTemperature,
    owner: { id: row.ownerId, username: row.ownerUsername },
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  }
}

/** An agent as the access rules see it: owned, granted by marketplace orders, 404 to whoever is refused. */
function agentResource(db: Queryable, agentId: string, ownerId: string): Resource {
  return {
    ownerId,
    isGranted: (userId) => hasAssetGrant(db, userId, 'agent', agentId),
    denied: () => CommonErrors.AGENT_NOT_FOUND({ agent_id: agentId }),
  }
}

/**
 * The agent (`found`), when the user may use it (`agent.use`: its owner, a holder of a marketplace grant of it, an
 * operator); else 404 `AGENT_NOT_FOUND`, as if it did not exist. The one place that says who may use an agent.
 */
function usableBy<T extends { ownerId: string }>(
  db: Queryable,
  user: Pick<AuthUser, 'id' | 'permissions'>,
  agentId: string,
  found: T | null,
): T {
  if (!found) throw CommonErrors.AGENT_NOT_FOUND({ agent_id: agentId })
  requireAccess(user, 'agent.use', agentResource(db, agentId, found.ownerId))
  return found
}

/**
 * The agent (`found`), when the user may change it (`agent.change`: its owner or an agent manager). Whoever may
 * not even use it gets 404 as if it did not exist; whoever may only use it (a buyer) gets 403. The one place that
 * says who may change an agent: its prompt and model here, its mounts in knowledge and mcp.
 */
function changeableBy<T extends { ownerId: string }>(
  db: Queryable,
  user: Pick<AuthUser, 'id' | 'permissions'>,
  agentId: string,
  found: T | null,
): T {
  const usable = usableBy(db, user, agentId, found)
  requireAccess(user, 'agent.change', { ownerId: usable.ownerId, denied: deniedChange(agentId) })
  return usable
}

const ownerOnly = (db: Queryable, agentId: string) => {
  const ownerId = repo.findAgentOwnerId(db, agentId)
  return ownerId === null ? null : { ownerId }
}

/** Whether the agent exists and the user may use it (a citation from its answers stands only while they may). */
export function mayUseAgent(
  db: Queryable,
  user: Pick<AuthUser, 'id' | 'permissions'>,
  agentId: string,
): boolean {
  const found = ownerOnly(db, agentId)
  return found !== null && mayAccess(user, 'agent.use', agentResource(db, agentId, found.ownerId))
}

/** For knowledge and evaluation: the agent exists and the user may use it. */
export function requireUsableAgent(
  db: Queryable,
  user: Pick<AuthUser, 'id' | 'permissions'>,
  agentId: string,
) {
  usableBy(db, user, agentId, ownerOnly(db, agentId))
}

/** For knowledge and mcp: the agent exists and the user may change it (mount or unmount on it). */
export function requireChangeableAgent(
  db: Queryable,
  user: Pick<AuthUser, 'id' | 'permissions'>,
  agentId: string,
) {
  changeableBy(db, user, agentId, ownerOnly(db, agentId))
}

/**
 * Agents: a user sees and uses their own agents and those a marketplace order granted them; operators and
 * agent managers see all. Anyone else's agent is 404 as if absent. Only the owner or an agent manager edits.
 */
export function createAgentService(db: Queryable, deps: { checkModel: ModelConfigCheck }) {
  function usable(user: AuthUser, agentId: string): repo.AgentWithOwner {
    return usableBy(db, user, agentId, repo.findAgent(db, agentId))
  }

  return {
    usable,

    get(user: AuthUser, agentId: string): AgentView {
      return toAgentView(usable(user, agentId), user)
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
      return toAgentView({ ...row, ownerUsername: user.username }, user)
    },

    update(user: AuthUser, agentId: string, body: UpdateAgentBody): AgentView {
      const current = changeableBy(db, user, agentId, repo.findAgent(db, agentId))
      const provider = body.model_provider === undefined ? current.modelProvider : body.model_provider
      const model = body.model_name === undefined ? current.modelName : body.model_name
      const temperature =
        body.model_temperature === undefined ? current.modelTemperature : body.model_temperature
      deps.checkModel({ provider, model, temperature })
      repo.updateAgent(db, agentId, {
        ...(body.name !== undefined && { name: body.name }),
        ...(body.description !== undefined && { description: body.description }),
        ...(body.system_prompt !== undefined && { systemPrompt: body.system_prompt }),
        modelProvider: provider,
        modelName: model,
        modelTemperature: temperature,
      })
      return toAgentView(usable(user, agentId), user)
    },

    list(user: AuthUser, query: PageQuery) {
      const scope = reachesEvery(user, 'agent.use')
        ? ({ all: true } as const)
        : { ownerId: user.id, extraIds: grantedAssetIds(db, user.id, 'agent') }
      const { rows, total } = repo.listAgents(db, scope, pageWindow(query))
      return toPage(
        rows.map((row) => toAgentView(row, user)),
        total,
        query,
      )
    },
  }
}

export type AgentService = ReturnType<typeof createAgentService>
