import { and, asc, count, desc, eq, type SQL, sql } from 'drizzle-orm'
import { nowIso, type Queryable, type RowPage, type RowWindow, selectPage } from '../platform/db'
import {
  type McpCallOutcome,
  type McpHealth,
  mcpCallAudit,
  mcpCredential,
  mcpMount,
  mcpServer,
} from './mcp.tables'

export type McpServerRow = typeof mcpServer.$inferSelect
export type McpCredentialRow = typeof mcpCredential.$inferSelect
export type McpMountRow = typeof mcpMount.$inferSelect
export type McpCallRow = typeof mcpCallAudit.$inferSelect

// Tool servers

export function insertServer(db: Queryable, values: typeof mcpServer.$inferInsert): McpServerRow {
  return db.insert(mcpServer).values(values).returning().get()
}

export function findServer(db: Queryable, id: string): McpServerRow | null {
  return db.select().from(mcpServer).where(eq(mcpServer.id, id)).get() ?? null
}

export function findServerByName(db: Queryable, name: string): McpServerRow | null {
  return db.select().from(mcpServer).where(eq(mcpServer.name, name)).get() ?? null
}

export function listServers(db: Queryable, window: RowWindow): RowPage<McpServerRow> {
  return selectPage(db, db.select().from(mcpServer).orderBy(asc(mcpServer.name)), { from: mcpServer }, window)
}

export function updateServer(
  db: Queryable,
  id: string,
  values: Partial<typeof mcpServer.$inferInsert>,
): McpServerRow | null {
  return db.update(mcpServer).set(values).where(eq(mcpServer.id, id)).returning().get() ?? null
}

export function setServerHealth(db: Queryable, id: string, health: McpHealth): void {
  // Not an edit of the configuration: `updated_at` stays as it was.
  db.update(mcpServer).set({ lastHealth: health }).where(eq(mcpServer.id, id)).run()
}

export function deleteServer(db: Queryable, id: string): boolean {
  return db.delete(mcpServer).where(eq(mcpServer.id, id)).run().changes > 0
}

export function countServersUsingCredential(db: Queryable, credentialId: string): number {
  return (
    db.select({ n: count() }).from(mcpServer).where(eq(mcpServer.credentialId, credentialId)).get()?.n ?? 0
  )
}

// Credentials

export function insertCredential(db: Queryable, values: typeof mcpCredential.$inferInsert): McpCredentialRow {
  return db.insert(mcpCredential).values(values).returning().get()
}

export function findCredential(db: Queryable, id: string): McpCredentialRow | null {
  return db.select().from(mcpCredential).where(eq(mcpCredential.id, id)).get() ?? null
}

/** Names are unique per owner. */
export function findCredentialByName(db: Queryable, ownerId: string, name: string): McpCredentialRow | null {
  return (
    db
      .select()
      .from(mcpCredential)
      .where(and(eq(mcpCredential.ownerId, ownerId), eq(mcpCredential.name, name)))
      .get() ?? null
  )
}

/** One owner's credentials, or everyone's with `ownerId` null. */
export function listCredentials(
  db: Queryable,
  ownerId: string | null,
  window: RowWindow,
): RowPage<McpCredentialRow> {
  const where = ownerId === null ? undefined : eq(mcpCredential.ownerId, ownerId)
  return selectPage(
    db,
    db.select().from(mcpCredential).where(where).orderBy(asc(mcpCredential.name)),
    { from: mcpCredential, where },
    window,
  )
}

export function updateCredential(
  db: Queryable,
  id: string,
  values: Partial<typeof mcpCredential.$inferInsert>,
): McpCredentialRow | null {
  return db.update(mcpCredential).set(values).where(eq(mcpCredential.id, id)).returning().get() ?? null
}

export function deleteCredential(db: Queryable, id: string): boolean {
  return db.delete(mcpCredential).where(eq(mcpCredential.id, id)).run().changes > 0
}

// Mounts

export function insertMount(db: Queryable, values: typeof mcpMount.$inferInsert): McpMountRow {
  return db.insert(mcpMount).values(values).returning().get()
}

export function findMount(db: Queryable, agentId: string, mountId: string): McpMountRow | null {
  return (
    db
      .select()
      .from(mcpMount)
      .where(and(eq(mcpMount.id, mountId), eq(mcpMount.agentId, agentId)))
      .get() ?? null
  )
}

export function findMountOfServer(db: Queryable, agentId: string, serverId: string): McpMountRow | null {
  return (
    db
      .select()
      .from(mcpMount)
      .where(and(eq(mcpMount.agentId, agentId), eq(mcpMount.mcpServerId, serverId)))
      .get() ?? null
  )
}

export function listMounts(db: Queryable, agentId: string, window: RowWindow): RowPage<McpMountRow> {
  const where = eq(mcpMount.agentId, agentId)
  return selectPage(
    db,
    db.select().from(mcpMount).where(where).orderBy(asc(mcpMount.createdAt)),
    { from: mcpMount, where },
    window,
  )
}

export function updateMount(
  db: Queryable,
  mountId: string,
  values: Partial<typeof mcpMount.$inferInsert>,
): McpMountRow | null {
  return db.update(mcpMount).set(values).where(eq(mcpMount.id, mountId)).returning().get() ?? null
}

export function deleteMount(db: Queryable, mountId: string): boolean {
  return db.delete(mcpMount).where(eq(mcpMount.id, mountId)).run().changes > 0
}

/** The enabled mounts of an agent whose server is enabled too: what a chat turn offers. */
export function listActiveMounts(
  db: Queryable,
  agentId: string,
): { mount: McpMountRow; server: McpServerRow }[] {
  return db
    .select({ mount: mcpMount, server: mcpServer })
    .from(mcpMount)
    .innerJoin(mcpServer, eq(mcpServer.id, mcpMount.mcpServerId))
    .where(and(eq(mcpMount.agentId, agentId), eq(mcpMount.enabled, true), eq(mcpServer.enabled, true)))
    .orderBy(asc(mcpServer.name))
    .all()
}

// Call audit

export function insertCall(db: Queryable, values: typeof mcpCallAudit.$inferInsert): McpCallRow {
  return db
    .insert(mcpCallAudit)
    .values({ ...values, createdAt: nowIso() })
    .returning()
    .get()
}

export function listCalls(
  db: Queryable,
  filter: { sessionId?: string; agentId?: string; outcome?: McpCallOutcome },
  window: RowWindow,
): RowPage<McpCallRow> {
  const conditions: SQL[] = []
  if (filter.sessionId !== undefined) conditions.push(eq(mcpCallAudit.sessionId, filter.sessionId))
  if (filter.agentId !== undefined) conditions.push(eq(mcpCallAudit.agentId, filter.agentId))
  if (filter.outcome) conditions.push(eq(mcpCallAudit.outcome, filter.outcome))
  const where = and(...conditions)
  return selectPage(
    db,
    db.select().from(mcpCallAudit).where(where).orderBy(desc(mcpCallAudit.createdAt), desc(sql`rowid`)),
    { from: mcpCallAudit, where },
    window,
  )
}
