import {
  type GrantableResource,
  mayAccess,
  mayAccessGrantable,
  reachesEvery,
  requireAccess,
  requireAccessGrantable,
} from '../access'
import type { ModelRegistry } from '../ai'
import type { AuthUser, Role } from '../auth'
import { grantedAssetIds, holdsAssetGrant } from '../marketplace'
import type { AppContext } from '../platform/app-context'
import type { EngineDb } from '../platform/db'
import { CommonErrors } from '../platform/errors'
import { pageWindow, toPage } from '../platform/http'
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

const deniedChange = (agentId: string) => () =>
  CommonErrors.FORBIDDEN({ agent_id: agentId }, 'Only the owner or an agent manager can change this agent.')

/**
 * The agent as `viewer` sees it: the prompt only for whoever may change the agent (`agent.change`); a caller who
 * may only use it (a marketplace buyer) gets `system_prompt: null`, since the prompt is what the seller sells.
 */
export function presentAgent(
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
    audience: row.audience,
    audience_roles: row.audienceRoles,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  }
}

/**
 * An agent as the access rules see it: owned, granted by marketplace orders (and, with `talks`, in its audience),
 * 404 to whoever is refused. The grant is read from `db` only when nothing else decides.
 */
function agentResource(db: EngineDb, agentId: string, ownerId: string, talks = false): GrantableResource {
  return {
    ownerId,
    isGranted: async (userId) => talks || holdsAssetGrant(db, userId, 'agent', agentId),
    denied: () => CommonErrors.AGENT_NOT_FOUND({ agent_id: agentId }),
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
 * The agent (`found`), when the user may use it (`agent.use`: its owner, a holder of a marketplace grant of it, an
 * operator, and, with `talks`, a member of its audience); else 404 `AGENT_NOT_FOUND`, as if it did not exist. The
 * one place that says who may use an agent. The audience only talks to the agent: mounting knowledge on it,
 * ingesting for it, searching its knowledge directly and evaluating it stay with the owner, buyers and operators.
 */
async function usableBy<T extends { ownerId: string }>(
  db: EngineDb,
  user: Pick<AuthUser, 'id' | 'permissions'>,
  agentId: string,
  found: T | null,
  talks = false,
): Promise<T> {
  if (!found) throw CommonErrors.AGENT_NOT_FOUND({ agent_id: agentId })
  await requireAccessGrantable(user, 'agent.use', agentResource(db, agentId, found.ownerId, talks))
  return found
}

/**
 * The agent (`found`), when the user may change it (`agent.change`: its owner or an agent manager). Whoever may
 * not even use it gets 404 as if it did not exist; whoever may only use it (a buyer) gets 403. The one place that
 * says who may change an agent: its prompt and model here, its mounts in knowledge and mcp.
 */
async function changeableBy<T extends { ownerId: string }>(
  db: EngineDb,
  user: Pick<AuthUser, 'id' | 'permissions'>,
  agentId: string,
  found: T | null,
  talks = false,
): Promise<T> {
  const usable = await usableBy(db, user, agentId, found, talks)
  requireAccess(user, 'agent.change', { ownerId: usable.ownerId, denied: deniedChange(agentId) })
  return usable
}

const ownerOnly = async (db: EngineDb, agentId: string) => {
  const ownerId = await repo.findAgentOwnerId(db, agentId)
  return ownerId === null ? null : { ownerId }
}

/*
 * The checks other domains (knowledge, mcp, evaluation) make of agents, on the reader they pass (`database.reader`).
 */

/**
 * Whether the agent exists and the user may talk to it (a citation from its answers stands only while they may):
 * its audience counts, since they read its answers.
 */
export async function mayUseAgent(
  db: EngineDb,
  user: Pick<AuthUser, 'id' | 'permissions' | 'roles'>,
  agentId: string,
): Promise<boolean> {
  const found = await repo.findAgent(db, agentId)
  if (found === null) return false
  return mayAccessGrantable(
    user,
    'agent.use',
    agentResource(db, agentId, found.ownerId, inAudience(found, user)),
  )
}

/** For knowledge and evaluation: the agent exists and the user may use it. */
export async function requireUsableAgent(
  db: EngineDb,
  user: Pick<AuthUser, 'id' | 'permissions'>,
  agentId: string,
): Promise<void> {
  await usableBy(db, user, agentId, await ownerOnly(db, agentId))
}

/** For knowledge and mcp: the agent exists and the user may change it (mount or unmount on it). */
export async function requireChangeableAgent(
  db: EngineDb,
  user: Pick<AuthUser, 'id' | 'permissions'>,
  agentId: string,
): Promise<void> {
  await changeableBy(db, user, agentId, await ownerOnly(db, agentId))
}

/**
 * Agents: a user sees and talks to their own agents, those a marketplace order granted them, and those whose
 * audience takes them in; operators and agent managers see all. Anyone else's agent is 404 as if absent. Only the
 * owner or an agent manager changes an agent; only the owner or an admin sets who the audience is.
 */
export function createAgentService(
  ctx: Pick<AppContext, 'database'>,
  deps: { checkModel: ModelConfigCheck },
) {
  const { database } = ctx

  /** The agent, when the user may talk to it (chat, read it); else 404. */
  async function usable(user: AuthUser, agentId: string): Promise<repo.AgentWithOwner> {
    const found = await repo.findAgent(database.reader, agentId)
    return usableBy(database.reader, user, agentId, found, found !== null && inAudience(found, user))
  }

  return {
    usable,

    async get(user: AuthUser, agentId: string): Promise<AgentView> {
      return presentAgent(await usable(user, agentId), user)
    },

    async create(user: AuthUser, body: CreateAgentBody): Promise<AgentView> {
      deps.checkModel({
        provider: body.model_provider,
        model: body.model_name,
        temperature: body.model_temperature,
      })
      const row = await database.transact((tx) =>
        repo.insertAgent(tx, {
          ownerId: user.id,
          name: body.name,
          description: body.description ?? '',
          agentType: body.agent_type ?? 'chat',
          systemPrompt: body.system_prompt ?? '',
          modelProvider: body.model_provider ?? null,
          modelName: body.model_name ?? null,
          modelTemperature: body.model_temperature ?? null,
        }),
      )
      return presentAgent({ ...row, ownerUsername: user.username }, user)
    },

    async update(user: AuthUser, agentId: string, body: UpdateAgentBody): Promise<AgentView> {
      const found = await repo.findAgent(database.reader, agentId)
      // Its audience may see it (so they get 403, not 404) but never change it.
      const current = await changeableBy(
        database.reader,
        user,
        agentId,
        found,
        found !== null && inAudience(found, user),
      )
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
      const changes = {
        ...(setsAudience && nextAudience(current, body)),
        ...(body.name !== undefined && { name: body.name }),
        ...(body.description !== undefined && { description: body.description }),
        ...(body.system_prompt !== undefined && { systemPrompt: body.system_prompt }),
        modelProvider: provider,
        modelName: model,
        modelTemperature: temperature,
      }
      await database.transact((tx) => repo.updateAgent(tx, agentId, changes))
      return presentAgent(await usable(user, agentId), user)
    },

    /** The agents the user may talk to; `mine`: only those they own. */
    async list(user: AuthUser, query: AgentListQuery) {
      const scope: repo.AgentScope = query.mine
        ? { ownerId: user.id }
        : reachesEvery(user, 'agent.use')
          ? { all: true }
          : { talker: user, grantedIds: await grantedAssetIds(database.reader, user.id, 'agent') }
      const { rows, total } = await repo.listAgents(database.reader, scope, pageWindow(query))
      return toPage(
        rows.map((row) => presentAgent(row, user)),
        total,
        query,
      )
    },
  }
}

export type AgentService = ReturnType<typeof createAgentService>
