import { and, asc, eq, inArray, max, or, sql } from 'drizzle-orm'
import { nowIso, perHandle, type Queryable } from '../../platform/db'
import { agentRun, runtimeAgent, runtimeAgentVersion } from './runs.tables'

export type RuntimeAgentRow = typeof runtimeAgent.$inferSelect
export type RuntimeAgentVersionRow = typeof runtimeAgentVersion.$inferSelect
export type AgentRunRow = typeof agentRun.$inferSelect
export type NewAgentRun = typeof agentRun.$inferInsert

export function findAgent(db: Queryable, id: string): RuntimeAgentRow | null {
  return db.select().from(runtimeAgent).where(eq(runtimeAgent.id, id)).get() ?? null
}

export function findAgentByDefinitionKey(db: Queryable, key: string): RuntimeAgentRow | null {
  return db.select().from(runtimeAgent).where(eq(runtimeAgent.definitionKey, key)).get() ?? null
}

export function listAgents(db: Queryable, ids?: string[]): RuntimeAgentRow[] {
  const query = db.select().from(runtimeAgent)
  return (ids ? query.where(inArray(runtimeAgent.id, ids)) : query).orderBy(asc(runtimeAgent.name)).all()
}

export function insertAgent(db: Queryable, values: typeof runtimeAgent.$inferInsert): RuntimeAgentRow {
  return db.insert(runtimeAgent).values(values).returning().get()
}

export function setShippedConfigSha(db: Queryable, agentId: string, sha: string): void {
  db.update(runtimeAgent).set({ shippedConfigSha: sha }).where(eq(runtimeAgent.id, agentId)).run()
}

export function setPublishedVersion(db: Queryable, agentId: string, versionId: string): void {
  db.update(runtimeAgent).set({ publishedVersionId: versionId }).where(eq(runtimeAgent.id, agentId)).run()
}

export function findVersion(db: Queryable, id: string): RuntimeAgentVersionRow | null {
  return db.select().from(runtimeAgentVersion).where(eq(runtimeAgentVersion.id, id)).get() ?? null
}

export function listVersions(db: Queryable, agentId: string): RuntimeAgentVersionRow[] {
  return db
    .select()
    .from(runtimeAgentVersion)
    .where(eq(runtimeAgentVersion.agentId, agentId))
    .orderBy(asc(runtimeAgentVersion.version))
    .all()
}

export function insertVersion(db: Queryable, agentId: string, config: unknown): RuntimeAgentVersionRow {
  const latest =
    db
      .select({ n: max(runtimeAgentVersion.version) })
      .from(runtimeAgentVersion)
      .where(eq(runtimeAgentVersion.agentId, agentId))
      .get()?.n ?? 0
  return db
    .insert(runtimeAgentVersion)
    .values({ agentId, version: latest + 1, status: 'draft', config })
    .returning()
    .get()
}

/** Retires the current published version (if any) and publishes `versionId`. */
export function publishVersion(db: Queryable, agentId: string, versionId: string): void {
  db.update(runtimeAgentVersion)
    .set({ status: 'retired' })
    .where(and(eq(runtimeAgentVersion.agentId, agentId), eq(runtimeAgentVersion.status, 'published')))
    .run()
  db.update(runtimeAgentVersion)
    .set({ status: 'published' })
    .where(eq(runtimeAgentVersion.id, versionId))
    .run()
  setPublishedVersion(db, agentId, versionId)
}

/** Whether any run keeps this blob as its source or its normalised PDF. */
export function runUsesBlob(db: Queryable, sha256: string): boolean {
  return Boolean(
    db
      .select({ id: agentRun.id })
      .from(agentRun)
      .where(or(eq(agentRun.sourceSha256, sha256), eq(agentRun.pdfSha256, sha256)))
      .get(),
  )
}

/** A run by id, prepared once: every read of a run (its page, its review, the feed) starts here. */
const runById = perHandle((db: Queryable) =>
  db
    .select()
    .from(agentRun)
    .where(eq(agentRun.id, sql.placeholder('id')))
    .prepare(),
)

export function findRun(db: Queryable, id: string): AgentRunRow | null {
  return runById(db).get({ id }) ?? null
}

export function insertRun(db: Queryable, values: NewAgentRun): AgentRunRow {
  return db.insert(agentRun).values(values).returning().get()
}

export function updateRun(db: Queryable, id: string, values: Partial<NewAgentRun>): void {
  db.update(agentRun).set(values).where(eq(agentRun.id, id)).run()
}

export function markRunning(db: Queryable, id: string, attempts: number): void {
  const now = nowIso()
  db.update(agentRun)
    .set({ status: 'running', attempts, startedAt: now, errorMessage: null })
    .where(eq(agentRun.id, id))
    .run()
}

/**
 * The runtime agents with a version that is not retired whose configuration names a model provider
 * (`config.model.provider`, an LLM extractor's model): deleting the provider would break their runs.
 */
export function findRuntimeAgentsUsingProvider(
  db: Queryable,
  providerId: string,
): { id: string; name: string }[] {
  return db
    .selectDistinct({ id: runtimeAgent.id, name: runtimeAgent.name })
    .from(runtimeAgent)
    .innerJoin(runtimeAgentVersion, eq(runtimeAgentVersion.agentId, runtimeAgent.id))
    .where(
      and(
        sql`json_extract(${runtimeAgentVersion.config}, '$.model.provider') = ${providerId}`,
        sql`${runtimeAgentVersion.status} <> 'retired'`,
      ),
    )
    .orderBy(runtimeAgent.name)
    .all()
}
