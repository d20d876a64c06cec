import { and, desc, eq, inArray, or, type SQL, sql } from 'drizzle-orm'
import { type Role, user } from '../auth'
import { perHandle, type Queryable, type RowPage, type RowWindow, selectPage } from '../platform/db'
import { type AgentType, agent } from './conversation.tables'

export type AgentRow = typeof agent.$inferSelect
export type AgentWithOwner = AgentRow & { ownerUsername: string }

const withOwner = { agent, ownerUsername: user.username }

function joinOwner(row: { agent: AgentRow; ownerUsername: string }): AgentWithOwner {
  return { ...row.agent, ownerUsername: row.ownerUsername }
}

/** An agent with its owner's name by id, prepared once: every chat request reads its agent. */
const agentById = perHandle((db: Queryable) =>
  db
    .select(withOwner)
    .from(agent)
    .innerJoin(user, eq(user.id, agent.ownerId))
    .where(eq(agent.id, sql.placeholder('id')))
    .prepare(),
)

export function findAgent(db: Queryable, id: string): AgentWithOwner | null {
  const row = agentById(db).get({ id })
  return row ? joinOwner(row) : null
}

export function findAgentOwnerId(db: Queryable, agentId: string): string | null {
  return db.select({ ownerId: agent.ownerId }).from(agent).where(eq(agent.id, agentId)).get()?.ownerId ?? null
}

/** The agent's type (`chat`, ...), or null when no agent has the id. */
export function findAgentType(db: Queryable, agentId: string): AgentType | null {
  return (
    db.select({ agentType: agent.agentType }).from(agent).where(eq(agent.id, agentId)).get()?.agentType ??
    null
  )
}

export function insertAgent(db: Queryable, values: typeof agent.$inferInsert): AgentRow {
  return db.insert(agent).values(values).returning().get()
}

export function updateAgent(db: Queryable, id: string, values: Partial<typeof agent.$inferInsert>): void {
  db.update(agent).set(values).where(eq(agent.id, id)).run()
}

/** Who a page of agents is for: everyone's agents, one owner's, or those a user may talk to. */
export type AgentScope =
  | { all: true }
  | { ownerId: string }
  | { talker: { id: string; roles: readonly Role[] }; grantedIds: string[] }

function scopeFilter(scope: AgentScope): SQL | undefined {
  if ('all' in scope) return undefined
  if ('ownerId' in scope) return eq(agent.ownerId, scope.ownerId)
  const { talker, grantedIds } = scope
  return or(
    eq(agent.ownerId, talker.id),
    grantedIds.length > 0 ? inArray(agent.id, grantedIds) : undefined,
    eq(agent.audience, 'users'),
    talker.roles.length > 0
      ? and(
          eq(agent.audience, 'roles'),
          sql`exists (select 1 from json_each(${agent.audienceRoles}) where value in ${talker.roles})`,
        )
      : undefined,
  )
}

/** A page of agents in `scope`, newest first. */
export function listAgents(db: Queryable, scope: AgentScope, window: RowWindow): RowPage<AgentWithOwner> {
  const where = scopeFilter(scope)
  const listing = db
    .select(withOwner)
    .from(agent)
    .innerJoin(user, eq(user.id, agent.ownerId))
    .where(where)
    .orderBy(desc(agent.createdAt), desc(agent.id))
  const page = selectPage(db, listing, { from: agent, where }, window)
  return { ...page, rows: page.rows.map(joinOwner) }
}

/** The agents whose model settings name a provider (deleting the provider would leave them without a model). */
export function findAgentsUsingProvider(db: Queryable, providerId: string): { id: string; name: string }[] {
  return db
    .select({ id: agent.id, name: agent.name })
    .from(agent)
    .where(eq(agent.modelProvider, providerId))
    .orderBy(agent.name)
    .all()
}
