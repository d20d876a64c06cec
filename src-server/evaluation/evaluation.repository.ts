import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm'
import { type EngineDb, engineTables, type RowPage, type RowWindow, readPage } from '../platform/db'
import { evaluationDataset, evaluationItem, evaluationResult, evaluationRun } from './evaluation.tables'

export type DatasetRow = typeof evaluationDataset.$inferSelect
export type ItemRow = typeof evaluationItem.$inferSelect
export type RunRow = typeof evaluationRun.$inferSelect
export type ResultRow = typeof evaluationResult.$inferSelect

const ITEMS_PER_INSERT = 500

const tables = engineTables({ evaluationDataset, evaluationItem, evaluationResult, evaluationRun })

export async function insertDataset(
  db: EngineDb,
  values: typeof evaluationDataset.$inferInsert,
): Promise<DatasetRow> {
  const { evaluationDataset } = tables(db)
  const [row] = await db.insert(evaluationDataset).values(values).returning()
  return row as DatasetRow
}

export async function findDataset(db: EngineDb, id: string): Promise<DatasetRow | null> {
  const { evaluationDataset } = tables(db)
  const [row] = await db.select().from(evaluationDataset).where(eq(evaluationDataset.id, id)).limit(1)
  return row ?? null
}

export function listDatasets(db: EngineDb, window: RowWindow): Promise<RowPage<DatasetRow>> {
  const { evaluationDataset } = tables(db)
  return readPage(
    db,
    db.select().from(evaluationDataset).orderBy(desc(evaluationDataset.createdAt)),
    { from: evaluationDataset },
    window,
  )
}

/** Replaces every sample of a dataset; call inside a transaction. */
export async function replaceItems(
  db: EngineDb,
  datasetId: string,
  samples: { input: string; expected: string; metadata: unknown }[],
): Promise<DatasetRow> {
  const { evaluationDataset, evaluationItem } = tables(db)
  await db.delete(evaluationItem).where(eq(evaluationItem.datasetId, datasetId))
  // In batches: one statement's bound values are limited (SQLite 32766, PostgreSQL 65535).
  for (let start = 0; start < samples.length; start += ITEMS_PER_INSERT)
    await db
      .insert(evaluationItem)
      .values(
        samples
          .slice(start, start + ITEMS_PER_INSERT)
          .map((sample, index) => ({ datasetId, ordinal: start + index + 1, ...sample })),
      )
  const [row] = await db
    .update(evaluationDataset)
    .set({ itemCount: samples.length })
    .where(eq(evaluationDataset.id, datasetId))
    .returning()
  return row as DatasetRow
}

export function listItems(db: EngineDb, datasetId: string, window: RowWindow): Promise<RowPage<ItemRow>> {
  const { evaluationItem } = tables(db)
  const where = eq(evaluationItem.datasetId, datasetId)
  return readPage(
    db,
    db.select().from(evaluationItem).where(where).orderBy(asc(evaluationItem.ordinal)),
    { from: evaluationItem, where },
    window,
  )
}

export async function allItems(db: EngineDb, datasetId: string): Promise<ItemRow[]> {
  const { evaluationItem } = tables(db)
  return db
    .select()
    .from(evaluationItem)
    .where(eq(evaluationItem.datasetId, datasetId))
    .orderBy(asc(evaluationItem.ordinal))
}

export async function countActiveRunsOnDataset(db: EngineDb, datasetId: string): Promise<number> {
  const { evaluationRun } = tables(db)
  const [row] = await db
    .select({ n: count() })
    .from(evaluationRun)
    .where(and(eq(evaluationRun.datasetId, datasetId), inArray(evaluationRun.status, ['queued', 'running'])))
  return row?.n ?? 0
}

export async function insertRun(db: EngineDb, values: typeof evaluationRun.$inferInsert): Promise<RunRow> {
  const { evaluationRun } = tables(db)
  const [row] = await db.insert(evaluationRun).values(values).returning()
  return row as RunRow
}

export async function findRun(db: EngineDb, id: string): Promise<RunRow | null> {
  const { evaluationRun } = tables(db)
  const [row] = await db.select().from(evaluationRun).where(eq(evaluationRun.id, id)).limit(1)
  return row ?? null
}

export async function findRunOfAgent(db: EngineDb, agentId: string, runId: string): Promise<RunRow | null> {
  const { evaluationRun } = tables(db)
  const [row] = await db
    .select()
    .from(evaluationRun)
    .where(and(eq(evaluationRun.id, runId), eq(evaluationRun.agentId, agentId)))
    .limit(1)
  return row ?? null
}

export function listRuns(db: EngineDb, agentId: string, window: RowWindow): Promise<RowPage<RunRow>> {
  const { evaluationRun } = tables(db)
  const where = eq(evaluationRun.agentId, agentId)
  return readPage(
    db,
    // Runs started in the same millisecond in id order: neither engine keeps an insertion order both share.
    db
      .select()
      .from(evaluationRun)
      .where(where)
      .orderBy(desc(evaluationRun.createdAt), desc(evaluationRun.id)),
    { from: evaluationRun, where },
    window,
  )
}

export async function updateRun(
  db: EngineDb,
  id: string,
  values: Partial<typeof evaluationRun.$inferInsert>,
): Promise<RunRow | null> {
  const { evaluationRun } = tables(db)
  const [row] = await db.update(evaluationRun).set(values).where(eq(evaluationRun.id, id)).returning()
  return row ?? null
}

/**
 * Changes a run still queued or running (starts or ends it): the run's row lock and the status check in one
 * statement, so of two changes (a cancel, the job's start or end) on PostgreSQL the second waits, rechecks and
 * changes nothing once the first ended the run.
 */
export async function updateOpenRun(
  db: EngineDb,
  id: string,
  values: Partial<typeof evaluationRun.$inferInsert>,
): Promise<RunRow | null> {
  const { evaluationRun } = tables(db)
  const [row] = await db
    .update(evaluationRun)
    .set(values)
    .where(and(eq(evaluationRun.id, id), inArray(evaluationRun.status, ['queued', 'running'])))
    .returning()
  return row ?? null
}

/**
 * Whether the run is running, holding its row until the transaction ends: a sample's result is stored only under
 * it, so a cancel committed meanwhile (PostgreSQL runs them side by side) is seen, and nothing is stored after it.
 */
export async function holdRunningRun(db: EngineDb, id: string): Promise<boolean> {
  const { evaluationRun } = tables(db)
  const held = await db
    .update(evaluationRun)
    .set({ done: sql`${evaluationRun.done}` })
    .where(and(eq(evaluationRun.id, id), eq(evaluationRun.status, 'running')))
    .returning({ id: evaluationRun.id })
  return held.length > 0
}

export async function scoredSampleIds(db: EngineDb, runId: string): Promise<Set<string>> {
  const { evaluationResult } = tables(db)
  const rows = await db
    .select({ sampleId: evaluationResult.sampleId })
    .from(evaluationResult)
    .where(eq(evaluationResult.runId, runId))
  return new Set(rows.map((row) => row.sampleId))
}

/** Stores a sample's result once (a resumed run never writes a second row) and returns whether it was new. */
export async function insertResult(
  db: EngineDb,
  values: typeof evaluationResult.$inferInsert,
): Promise<boolean> {
  const { evaluationResult } = tables(db)
  const stored = await db
    .insert(evaluationResult)
    .values(values)
    .onConflictDoNothing()
    .returning({ id: evaluationResult.id })
  return stored.length > 0
}

export async function countResults(db: EngineDb, runId: string): Promise<number> {
  const { evaluationResult } = tables(db)
  const [row] = await db
    .select({ n: count() })
    .from(evaluationResult)
    .where(eq(evaluationResult.runId, runId))
  return row?.n ?? 0
}

export async function allResults(db: EngineDb, runId: string): Promise<ResultRow[]> {
  const { evaluationResult } = tables(db)
  return db.select().from(evaluationResult).where(eq(evaluationResult.runId, runId))
}

export function listResults(db: EngineDb, runId: string, window: RowWindow): Promise<RowPage<ResultRow>> {
  const { evaluationResult } = tables(db)
  const where = eq(evaluationResult.runId, runId)
  return readPage(
    db,
    db.select().from(evaluationResult).where(where).orderBy(asc(evaluationResult.ordinal)),
    { from: evaluationResult, where },
    window,
  )
}
