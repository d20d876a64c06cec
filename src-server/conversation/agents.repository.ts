import { and, desc, eq, inArray, or, type SQL, sql } from 'drizzle-orm'
import { type Role, user } from '../auth'
import {
  type EngineDb,
  engineTables,
  jsonArrayHasAny,
  preparedSelect,
  type RowPage,
  type RowWindow,
  readPage,
} from '../platform/db'
import { type AgentType, agent } from './conversation.tables'

export type AgentRow = typeof agent.$inferSelect
export type AgentWithOwner = AgentRow & { ownerUsername: string }

const tables = engineTables({ agent, user })

function withOwner(db: EngineDb) {
  const { agent, user } = tables(db)
  return db
    .select({ agent, ownerUsername: user.username })
    .from(agent)
    .innerJoin(user, eq(user.id, agent.ownerId))
}

function joinOwner(row: { agent: AgentRow; ownerUsername: string }): AgentWithOwner {
  return { ...row.agent, ownerUsername: row.ownerUsername }
}

/** An agent with its owner's name by id, prepared once: every chat request reads its agent. */
const agentById = preparedSelect(
  'agent_by_id',
  () => '',
  (db: EngineDb) => withOwner(db).where(eq(tables(db).agent.id, sql.placeholder('id'))),
)

export async function findAgent(db: EngineDb, id: string): Promise<AgentWithOwner | null> {
  const [row] = await agentById(db, null, { id })
  return row ? joinOwner(row) : null
}

export async function findAgentOwnerId(db: EngineDb, agentId: string): Promise<string | null> {
  const { agent } = tables(db)
  const [row] = await db.select({ ownerId: agent.ownerId }).from(agent).where(eq(agent.id, agentId)).limit(1)
  return row?.ownerId ?? null
}

/** The agent's type (`chat`, ...), or null when no agent has the id. */
export async function findAgentType(db: EngineDb, agentId: string): Promise<AgentType | null> {
  const { agent } = tables(db)
  const [row] = await db
    .select({ agentType: agent.agentType })
    .from(agent)
    .where(eq(agent.id, agentId))
    .limit(1)
  return row?.agentType ?? null
}

export async function insertAgent(db: EngineDb, values: typeof agent.$inferInsert): Promise<AgentRow> {
  const { agent } = tables(db)
  const [row] = await db.insert(agent).values(values).returning()
  return row as AgentRow
}

export async function updateAgent(
  db: EngineDb,
  id: string,
  values: Partial<typeof agent.$inferInsert>,
): Promise<void> {
  const { agent } = tables(db)
  await db.update(agent).set(values).where(eq(agent.id, id))
}

/** Who a page of agents is for: everyone's agents, one owner's, or those a user may talk to. */
export type AgentScope =
  | { all: true }
  | { ownerId: string }
  | { talker: { id: string; roles: readonly Role[] }; grantedIds: string[] }

function scopeFilter(db: EngineDb, scope: AgentScope): SQL | undefined {
  const { agent } = tables(db)
  if ('all' in scope) return undefined
  if ('ownerId' in scope) return eq(agent.ownerId, scope.ownerId)
  const { talker, grantedIds } = scope
  return or(
    eq(agent.ownerId, talker.id),
    grantedIds.length > 0 ? inArray(agent.id, grantedIds) : undefined,
    eq(agent.audience, 'users'),
    talker.roles.length > 0
      ? and(eq(agent.audience, 'roles'), jsonArrayHasAny(db, agent.audienceRoles, talker.roles))
      : undefined,
  )
}

/** A page of agents in `scope`, newest first. */
export async function listAgents(
  db: EngineDb,
  scope: AgentScope,
  window: RowWindow,
): Promise<RowPage<AgentWithOwner>> {
  const { agent } = tables(db)
  const where = scopeFilter(db, scope)
  const listing = withOwner(db).where(where).orderBy(desc(agent.createdAt), desc(agent.id))
  const page = await readPage(db, listing, { from: agent, where }, window)
  return { ...page, rows: page.rows.map(joinOwner) }
}

/** The agents whose model settings name a provider (deleting the provider would leave them without a model). */
export function findAgentsUsingProvider(
  db: EngineDb,
  providerId: string,
): Promise<{ id: string; name: string }[]> {
  const { agent } = tables(db)
  return db
    .select({ id: agent.id, name: agent.name })
    .from(agent)
    .where(eq(agent.modelProvider, providerId))
    .orderBy(agent.name)
}
