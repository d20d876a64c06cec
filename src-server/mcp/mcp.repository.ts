import { and, asc, count, desc, eq, type SQL } from 'drizzle-orm'
import type { PgSelect } from 'drizzle-orm/pg-core'
import {
  type EngineDb,
  engineTables,
  isPostgres,
  nowIso,
  type RowPage,
  type RowWindow,
  readPage,
} from '../platform/db'
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

const tables = engineTables({ mcpCallAudit, mcpCredential, mcpMount, mcpServer })

/** Whether a read inside a transaction holds the row until the end, so a read-then-write sees no change between. */
interface Hold {
  forUpdate?: boolean
}

/**
 * The query holding its rows on PostgreSQL (`FOR UPDATE`), where transactions run side by side at READ COMMITTED;
 * SQLite's take turns, so there it is the query as it is.
 */
function held<T>(db: EngineDb, query: T, hold: Hold): T {
  return hold.forUpdate && isPostgres(db)
    ? ((query as unknown as PgSelect).for('update') as unknown as T)
    : query
}

/**
 * Whether a write was refused by a unique index, on either engine: a name another transaction took after this one
 * looked (PostgreSQL runs them side by side; drizzle wraps the driver's error).
 */
export function isUniqueViolation(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    const code = (cause as { code?: string }).code
    if (code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE') return true
  }
  return false
}

// Tool servers

/** Null when the name is taken: the unique index decides between two creating at once, on either engine. */
/** One credential's payload as stored (sealed), if there is one: what the secret key's check opens first. */
export async function findSealedCredential(db: EngineDb): Promise<string | null> {
  const { mcpCredential } = tables(db)
  const [row] = await db.select({ sealed: mcpCredential.encryptedSecretJson }).from(mcpCredential).limit(1)
  return row?.sealed ?? null
}

export async function insertServer(
  db: EngineDb,
  values: typeof mcpServer.$inferInsert,
): Promise<McpServerRow | null> {
  const { mcpServer } = tables(db)
  const [row] = await db.insert(mcpServer).values(values).onConflictDoNothing().returning()
  return row ?? null
}

export async function findServer(db: EngineDb, id: string, hold: Hold = {}): Promise<McpServerRow | null> {
  const { mcpServer } = tables(db)
  const [row] = await held(db, db.select().from(mcpServer).where(eq(mcpServer.id, id)).limit(1), hold)
  return row ?? null
}

/** What a server's process is started from, read in one statement: its row and its credential's. */
export interface LaunchRows {
  server: McpServerRow
  credential: McpCredentialRow | null
}

export async function findLaunchRows(db: EngineDb, serverId: string): Promise<LaunchRows | null> {
  const { mcpCredential, mcpServer } = tables(db)
  const [row] = await db
    .select({ server: mcpServer, credential: mcpCredential })
    .from(mcpServer)
    .leftJoin(mcpCredential, eq(mcpCredential.id, mcpServer.credentialId))
    .where(eq(mcpServer.id, serverId))
    .limit(1)
  return row ?? null
}

export async function findServerByName(db: EngineDb, name: string): Promise<McpServerRow | null> {
  const { mcpServer } = tables(db)
  const [row] = await db.select().from(mcpServer).where(eq(mcpServer.name, name)).limit(1)
  return row ?? null
}

export function listServers(db: EngineDb, window: RowWindow): Promise<RowPage<McpServerRow>> {
  const { mcpServer } = tables(db)
  return readPage(db, db.select().from(mcpServer).orderBy(asc(mcpServer.name)), { from: mcpServer }, window)
}

export async function updateServer(
  db: EngineDb,
  id: string,
  values: Partial<typeof mcpServer.$inferInsert>,
): Promise<McpServerRow | null> {
  const { mcpServer } = tables(db)
  const [row] = await db.update(mcpServer).set(values).where(eq(mcpServer.id, id)).returning()
  return row ?? null
}

export async function setServerHealth(db: EngineDb, id: string, health: McpHealth): Promise<void> {
  const { mcpServer } = tables(db)
  // Not an edit of the configuration: `updated_at` stays as it was.
  await db.update(mcpServer).set({ lastHealth: health }).where(eq(mcpServer.id, id))
}

export async function deleteServer(db: EngineDb, id: string): Promise<boolean> {
  const { mcpServer } = tables(db)
  const deleted = await db.delete(mcpServer).where(eq(mcpServer.id, id)).returning({ id: mcpServer.id })
  return deleted.length > 0
}

export async function countServersUsingCredential(db: EngineDb, credentialId: string): Promise<number> {
  const { mcpServer } = tables(db)
  const [row] = await db
    .select({ n: count() })
    .from(mcpServer)
    .where(eq(mcpServer.credentialId, credentialId))
  return row?.n ?? 0
}

/** The servers a credential's secret is injected into. */
export async function findServerIdsUsingCredential(db: EngineDb, credentialId: string): Promise<string[]> {
  const { mcpServer } = tables(db)
  const rows = await db
    .select({ id: mcpServer.id })
    .from(mcpServer)
    .where(eq(mcpServer.credentialId, credentialId))
  return rows.map((row) => row.id)
}

// Credentials

/** Null when the owner has a credential of that name (the unique index decides a race). */
export async function insertCredential(
  db: EngineDb,
  values: typeof mcpCredential.$inferInsert,
): Promise<McpCredentialRow | null> {
  const { mcpCredential } = tables(db)
  const [row] = await db.insert(mcpCredential).values(values).onConflictDoNothing().returning()
  return row ?? null
}

export async function findCredential(
  db: EngineDb,
  id: string,
  hold: Hold = {},
): Promise<McpCredentialRow | null> {
  const { mcpCredential } = tables(db)
  const [row] = await held(db, db.select().from(mcpCredential).where(eq(mcpCredential.id, id)).limit(1), hold)
  return row ?? null
}

/** Names are unique per owner. */
export async function findCredentialByName(
  db: EngineDb,
  ownerId: string,
  name: string,
): Promise<McpCredentialRow | null> {
  const { mcpCredential } = tables(db)
  const [row] = await db
    .select()
    .from(mcpCredential)
    .where(and(eq(mcpCredential.ownerId, ownerId), eq(mcpCredential.name, name)))
    .limit(1)
  return row ?? null
}

/** One owner's credentials, or everyone's with `ownerId` null. */
export function listCredentials(
  db: EngineDb,
  ownerId: string | null,
  window: RowWindow,
): Promise<RowPage<McpCredentialRow>> {
  const { mcpCredential } = tables(db)
  const where = ownerId === null ? undefined : eq(mcpCredential.ownerId, ownerId)
  return readPage(
    db,
    db.select().from(mcpCredential).where(where).orderBy(asc(mcpCredential.name)),
    { from: mcpCredential, where },
    window,
  )
}

export async function updateCredential(
  db: EngineDb,
  id: string,
  values: Partial<typeof mcpCredential.$inferInsert>,
): Promise<McpCredentialRow | null> {
  const { mcpCredential } = tables(db)
  const [row] = await db.update(mcpCredential).set(values).where(eq(mcpCredential.id, id)).returning()
  return row ?? null
}

export async function deleteCredential(db: EngineDb, id: string): Promise<boolean> {
  const { mcpCredential } = tables(db)
  const deleted = await db
    .delete(mcpCredential)
    .where(eq(mcpCredential.id, id))
    .returning({ id: mcpCredential.id })
  return deleted.length > 0
}

// Mounts

/** Null when the agent has the server mounted already (the unique index decides a race). */
export async function insertMount(
  db: EngineDb,
  values: typeof mcpMount.$inferInsert,
): Promise<McpMountRow | null> {
  const { mcpMount } = tables(db)
  const [row] = await db.insert(mcpMount).values(values).onConflictDoNothing().returning()
  return row ?? null
}

export async function findMount(
  db: EngineDb,
  agentId: string,
  mountId: string,
  hold: Hold = {},
): Promise<McpMountRow | null> {
  const { mcpMount } = tables(db)
  const [row] = await held(
    db,
    db
      .select()
      .from(mcpMount)
      .where(and(eq(mcpMount.id, mountId), eq(mcpMount.agentId, agentId)))
      .limit(1),
    hold,
  )
  return row ?? null
}

export function listMounts(db: EngineDb, agentId: string, window: RowWindow): Promise<RowPage<McpMountRow>> {
  const { mcpMount } = tables(db)
  const where = eq(mcpMount.agentId, agentId)
  return readPage(
    db,
    db.select().from(mcpMount).where(where).orderBy(asc(mcpMount.createdAt), asc(mcpMount.id)),
    { from: mcpMount, where },
    window,
  )
}

export async function updateMount(
  db: EngineDb,
  agentId: string,
  mountId: string,
  values: Partial<typeof mcpMount.$inferInsert>,
): Promise<McpMountRow | null> {
  const { mcpMount } = tables(db)
  const [row] = await db
    .update(mcpMount)
    .set(values)
    .where(and(eq(mcpMount.id, mountId), eq(mcpMount.agentId, agentId)))
    .returning()
  return row ?? null
}

export async function deleteMount(db: EngineDb, agentId: string, mountId: string): Promise<boolean> {
  const { mcpMount } = tables(db)
  const deleted = await db
    .delete(mcpMount)
    .where(and(eq(mcpMount.id, mountId), eq(mcpMount.agentId, agentId)))
    .returning({ id: mcpMount.id })
  return deleted.length > 0
}

/** The enabled mounts of an agent whose server is enabled too: what a chat turn offers. */
export async function listActiveMounts(
  db: EngineDb,
  agentId: string,
): Promise<{ mount: McpMountRow; server: McpServerRow }[]> {
  const { mcpMount, mcpServer } = tables(db)
  return db
    .select({ mount: mcpMount, server: mcpServer })
    .from(mcpMount)
    .innerJoin(mcpServer, eq(mcpServer.id, mcpMount.mcpServerId))
    .where(and(eq(mcpMount.agentId, agentId), eq(mcpMount.enabled, true), eq(mcpServer.enabled, true)))
    .orderBy(asc(mcpServer.name))
}

// Call audit

export async function insertCall(db: EngineDb, values: typeof mcpCallAudit.$inferInsert): Promise<void> {
  const { mcpCallAudit } = tables(db)
  await db.insert(mcpCallAudit).values({ ...values, createdAt: nowIso() })
}

/** Newest first; calls stamped in the same millisecond by id (PostgreSQL has no `rowid`). */
export function listCalls(
  db: EngineDb,
  filter: { sessionId?: string; agentId?: string; outcome?: McpCallOutcome },
  window: RowWindow,
): Promise<RowPage<McpCallRow>> {
  const { mcpCallAudit } = tables(db)
  const conditions: SQL[] = []
  if (filter.sessionId !== undefined) conditions.push(eq(mcpCallAudit.sessionId, filter.sessionId))
  if (filter.agentId !== undefined) conditions.push(eq(mcpCallAudit.agentId, filter.agentId))
  if (filter.outcome) conditions.push(eq(mcpCallAudit.outcome, filter.outcome))
  const where = and(...conditions)
  return readPage(
    db,
    db.select().from(mcpCallAudit).where(where).orderBy(desc(mcpCallAudit.createdAt), desc(mcpCallAudit.id)),
    { from: mcpCallAudit, where },
    window,
  )
}
