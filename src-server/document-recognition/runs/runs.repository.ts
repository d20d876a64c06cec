import { and, asc, eq, inArray, max, or, type SQL, sql } from 'drizzle-orm'
import { type EngineDb, engineTables, isPostgres, nowIso } from '../../platform/db'
import { agentRun, runtimeAgent, runtimeAgentVersion } from './runs.tables'

export type RuntimeAgentRow = typeof runtimeAgent.$inferSelect
export type RuntimeAgentVersionRow = typeof runtimeAgentVersion.$inferSelect
export type AgentRunRow = typeof agentRun.$inferSelect
export type NewAgentRun = typeof agentRun.$inferInsert

const tables = engineTables({ agentRun, runtimeAgent, runtimeAgentVersion })

export async function findAgent(db: EngineDb, id: string): Promise<RuntimeAgentRow | null> {
  const { runtimeAgent } = tables(db)
  const [row] = await db.select().from(runtimeAgent).where(eq(runtimeAgent.id, id)).limit(1)
  return row ?? null
}

export async function findAgentByDefinitionKey(db: EngineDb, key: string): Promise<RuntimeAgentRow | null> {
  const { runtimeAgent } = tables(db)
  const [row] = await db.select().from(runtimeAgent).where(eq(runtimeAgent.definitionKey, key)).limit(1)
  return row ?? null
}

export async function listAgents(db: EngineDb, ids?: string[]): Promise<RuntimeAgentRow[]> {
  const { runtimeAgent } = tables(db)
  const query = db.select().from(runtimeAgent)
  return (ids ? query.where(inArray(runtimeAgent.id, ids)) : query).orderBy(asc(runtimeAgent.name))
}

export async function insertAgent(
  db: EngineDb,
  values: typeof runtimeAgent.$inferInsert,
): Promise<RuntimeAgentRow> {
  const { runtimeAgent } = tables(db)
  const [row] = await db.insert(runtimeAgent).values(values).returning()
  return row as RuntimeAgentRow
}

/**
 * A shipped agent, unless one with its definition key exists: instances starting together on one database install
 * each definition once (the unique index decides), and the others get null.
 */
export async function insertShippedAgent(
  db: EngineDb,
  values: typeof runtimeAgent.$inferInsert,
): Promise<RuntimeAgentRow | null> {
  const { runtimeAgent } = tables(db)
  const [row] = await db.insert(runtimeAgent).values(values).onConflictDoNothing().returning()
  return (row as RuntimeAgentRow | undefined) ?? null
}

export async function setShippedConfigSha(db: EngineDb, agentId: string, sha: string): Promise<void> {
  const { runtimeAgent } = tables(db)
  await db.update(runtimeAgent).set({ shippedConfigSha: sha }).where(eq(runtimeAgent.id, agentId))
}

async function setPublishedVersion(db: EngineDb, agentId: string, versionId: string): Promise<void> {
  const { runtimeAgent } = tables(db)
  await db.update(runtimeAgent).set({ publishedVersionId: versionId }).where(eq(runtimeAgent.id, agentId))
}

export async function findVersion(db: EngineDb, id: string): Promise<RuntimeAgentVersionRow | null> {
  const { runtimeAgentVersion } = tables(db)
  const [row] = await db.select().from(runtimeAgentVersion).where(eq(runtimeAgentVersion.id, id)).limit(1)
  return row ?? null
}

export async function listVersions(db: EngineDb, agentId: string): Promise<RuntimeAgentVersionRow[]> {
  const { runtimeAgentVersion } = tables(db)
  return db
    .select()
    .from(runtimeAgentVersion)
    .where(eq(runtimeAgentVersion.agentId, agentId))
    .orderBy(asc(runtimeAgentVersion.version))
}

/** The agent's next version, numbered after its latest (the unique (agent, version) index refuses a twin). */
export async function insertVersion(
  db: EngineDb,
  agentId: string,
  config: unknown,
): Promise<RuntimeAgentVersionRow> {
  const { runtimeAgentVersion } = tables(db)
  const [latest] = await db
    .select({ n: max(runtimeAgentVersion.version) })
    .from(runtimeAgentVersion)
    .where(eq(runtimeAgentVersion.agentId, agentId))
  const [row] = await db
    .insert(runtimeAgentVersion)
    .values({ agentId, version: Number(latest?.n ?? 0) + 1, status: 'draft', config })
    .returning()
  return row as RuntimeAgentVersionRow
}

/** Retires the current published version (if any) and publishes `versionId`. */
export async function publishVersion(db: EngineDb, agentId: string, versionId: string): Promise<void> {
  const { runtimeAgentVersion } = tables(db)
  await db
    .update(runtimeAgentVersion)
    .set({ status: 'retired' })
    .where(and(eq(runtimeAgentVersion.agentId, agentId), eq(runtimeAgentVersion.status, 'published')))
  await db
    .update(runtimeAgentVersion)
    .set({ status: 'published' })
    .where(eq(runtimeAgentVersion.id, versionId))
  await setPublishedVersion(db, agentId, versionId)
}

/** Whether any run keeps this blob as its source or its normalised PDF. */
export async function runUsesBlob(db: EngineDb, sha256: string): Promise<boolean> {
  const { agentRun } = tables(db)
  const [row] = await db
    .select({ id: agentRun.id })
    .from(agentRun)
    .where(or(eq(agentRun.sourceSha256, sha256), eq(agentRun.pdfSha256, sha256)))
    .limit(1)
  return Boolean(row)
}

export async function findRun(db: EngineDb, id: string): Promise<AgentRunRow | null> {
  const { agentRun } = tables(db)
  const [row] = await db.select().from(agentRun).where(eq(agentRun.id, id)).limit(1)
  return row ?? null
}

export async function insertRun(db: EngineDb, values: NewAgentRun): Promise<AgentRunRow> {
  const { agentRun } = tables(db)
  const [row] = await db.insert(agentRun).values(values).returning()
  return row as AgentRunRow
}

export async function updateRun(db: EngineDb, id: string, values: Partial<NewAgentRun>): Promise<void> {
  const { agentRun } = tables(db)
  await db.update(agentRun).set(values).where(eq(agentRun.id, id))
}

export async function markRunning(db: EngineDb, id: string, attempts: number): Promise<void> {
  await updateRun(db, id, { status: 'running', attempts, startedAt: nowIso(), errorMessage: null })
}

/** `config.model.provider` of a version's config: JSON text on SQLite, jsonb on PostgreSQL. */
function configProvider(db: EngineDb, config: typeof runtimeAgentVersion.config): SQL {
  return isPostgres(db)
    ? sql`(${config} -> 'model' ->> 'provider')`
    : sql`json_extract(${config}, '$.model.provider')`
}

/**
 * The runtime agents with a version that is not retired whose configuration names a model provider
 * (`config.model.provider`, an LLM extractor's model): deleting the provider would break their runs.
 */
export async function findRuntimeAgentsUsingProvider(
  db: EngineDb,
  providerId: string,
): Promise<{ id: string; name: string }[]> {
  const { runtimeAgent, runtimeAgentVersion } = tables(db)
  return db
    .selectDistinct({ id: runtimeAgent.id, name: runtimeAgent.name })
    .from(runtimeAgent)
    .innerJoin(runtimeAgentVersion, eq(runtimeAgentVersion.agentId, runtimeAgent.id))
    .where(
      and(
        sql`${configProvider(db, runtimeAgentVersion.config)} = ${providerId}`,
        sql`${runtimeAgentVersion.status} <> 'retired'`,
      ),
    )
    .orderBy(runtimeAgent.name)
}
