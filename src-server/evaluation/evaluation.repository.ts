import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm'
import { type Queryable, type RowPage, type RowWindow, selectPage } from '../platform/db'
import { evaluationDataset, evaluationItem, evaluationResult, evaluationRun } from './evaluation.tables'

export type DatasetRow = typeof evaluationDataset.$inferSelect
export type ItemRow = typeof evaluationItem.$inferSelect
export type RunRow = typeof evaluationRun.$inferSelect
export type ResultRow = typeof evaluationResult.$inferSelect

export function insertDataset(db: Queryable, values: typeof evaluationDataset.$inferInsert): DatasetRow {
  return db.insert(evaluationDataset).values(values).returning().get()
}

export function findDataset(db: Queryable, id: string): DatasetRow | null {
  return db.select().from(evaluationDataset).where(eq(evaluationDataset.id, id)).get() ?? null
}

export function listDatasets(db: Queryable, window: RowWindow): RowPage<DatasetRow> {
  return selectPage(
    db,
    db.select().from(evaluationDataset).orderBy(desc(evaluationDataset.createdAt)),
    { from: evaluationDataset },
    window,
  )
}

/** Replaces every sample of a dataset; call inside a transaction. */
export function replaceItems(
  db: Queryable,
  datasetId: string,
  samples: { input: string; expected: string; metadata: unknown }[],
): DatasetRow {
  db.delete(evaluationItem).where(eq(evaluationItem.datasetId, datasetId)).run()
  samples.forEach((sample, index) => {
    db.insert(evaluationItem)
      .values({ datasetId, ordinal: index + 1, ...sample })
      .run()
  })
  return db
    .update(evaluationDataset)
    .set({ itemCount: samples.length })
    .where(eq(evaluationDataset.id, datasetId))
    .returning()
    .get() as DatasetRow
}

export function listItems(db: Queryable, datasetId: string, window: RowWindow): RowPage<ItemRow> {
  const where = eq(evaluationItem.datasetId, datasetId)
  return selectPage(
    db,
    db.select().from(evaluationItem).where(where).orderBy(asc(evaluationItem.ordinal)),
    { from: evaluationItem, where },
    window,
  )
}

export function allItems(db: Queryable, datasetId: string): ItemRow[] {
  return db
    .select()
    .from(evaluationItem)
    .where(eq(evaluationItem.datasetId, datasetId))
    .orderBy(asc(evaluationItem.ordinal))
    .all()
}

export function countActiveRunsOnDataset(db: Queryable, datasetId: string): number {
  return (
    db
      .select({ n: count() })
      .from(evaluationRun)
      .where(
        and(eq(evaluationRun.datasetId, datasetId), inArray(evaluationRun.status, ['queued', 'running'])),
      )
      .get()?.n ?? 0
  )
}

export function insertRun(db: Queryable, values: typeof evaluationRun.$inferInsert): RunRow {
  return db.insert(evaluationRun).values(values).returning().get()
}

export function findRun(db: Queryable, id: string): RunRow | null {
  return db.select().from(evaluationRun).where(eq(evaluationRun.id, id)).get() ?? null
}

export function findRunOfAgent(db: Queryable, agentId: string, runId: string): RunRow | null {
  return (
    db
      .select()
      .from(evaluationRun)
      .where(and(eq(evaluationRun.id, runId), eq(evaluationRun.agentId, agentId)))
      .get() ?? null
  )
}

export function listRuns(db: Queryable, agentId: string, window: RowWindow): RowPage<RunRow> {
  const where = eq(evaluationRun.agentId, agentId)
  return selectPage(
    db,
    db.select().from(evaluationRun).where(where).orderBy(desc(evaluationRun.createdAt), desc(sql`rowid`)),
    { from: evaluationRun, where },
    window,
  )
}

export function updateRun(
  db: Queryable,
  id: string,
  values: Partial<typeof evaluationRun.$inferInsert>,
): RunRow | null {
  return db.update(evaluationRun).set(values).where(eq(evaluationRun.id, id)).returning().get() ?? null
}

export function scoredSampleIds(db: Queryable, runId: string): Set<string> {
  const rows = db
    .select({ sampleId: evaluationResult.sampleId })
    .from(evaluationResult)
    .where(eq(evaluationResult.runId, runId))
    .all()
  return new Set(rows.map((row) => row.sampleId))
}

/** Stores a sample's result once (a resumed run never writes a second row) and returns whether it was new. */
export function insertResult(db: Queryable, values: typeof evaluationResult.$inferInsert): boolean {
  return db.insert(evaluationResult).values(values).onConflictDoNothing().run().changes > 0
}

export function countResults(db: Queryable, runId: string): number {
  return (
    db.select({ n: count() }).from(evaluationResult).where(eq(evaluationResult.runId, runId)).get()?.n ?? 0
  )
}

export function allResults(db: Queryable, runId: string): ResultRow[] {
  return db.select().from(evaluationResult).where(eq(evaluationResult.runId, runId)).all()
}

export function listResults(db: Queryable, runId: string, window: RowWindow): RowPage<ResultRow> {
  const where = eq(evaluationResult.runId, runId)
  return selectPage(
    db,
    db.select().from(evaluationResult).where(where).orderBy(asc(evaluationResult.ordinal)),
    { from: evaluationResult, where },
    window,
  )
}
