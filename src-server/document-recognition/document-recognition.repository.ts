import { and, asc, count, desc, eq, gte, isNotNull, lte, type SQL, sql } from 'drizzle-orm'
import {
  type EngineDb,
  engineTables,
  isPostgres,
  type RowPage,
  type RowWindow,
  runSql,
  tablesIn,
} from '../platform/db'
import type {
  documentFieldReview,
  documentFieldRevision,
  documentLearnedHint,
  documentPageText,
  documentRecognitionAgent,
  documentReviewEvent,
  documentRunReview,
} from './document-recognition.tables'
import * as recognitionSchema from './document-recognition.tables'
import type { AgentRunRow } from './runs/runs.repository'
import { agentRun } from './runs/runs.tables'

export type RegistryRow = typeof documentRecognitionAgent.$inferSelect
export type RunReviewRow = typeof documentRunReview.$inferSelect
export type FieldReviewRow = typeof documentFieldReview.$inferSelect
export type FieldRevisionRow = typeof documentFieldRevision.$inferSelect
export type ReviewEventRow = typeof documentReviewEvent.$inferSelect
export type PageTextRow = typeof documentPageText.$inferSelect
export type LearnedHintRow = typeof documentLearnedHint.$inferSelect

export interface RunFilters {
  status?: string
  review_status?: string
  runtime_agent_id?: string
  created_after?: string
  created_before?: string
  source_run_id?: string
}

const tables = engineTables({ agentRun, ...tablesIn(recognitionSchema) })

// Registry

export async function findRegistryEntry(db: EngineDb, agentId: string): Promise<RegistryRow | null> {
  const { documentRecognitionAgent } = tables(db)
  const [row] = await db
    .select()
    .from(documentRecognitionAgent)
    .where(eq(documentRecognitionAgent.agentId, agentId))
    .limit(1)
  return row ?? null
}

export async function listRegistry(db: EngineDb, onlyEnabled: boolean): Promise<RegistryRow[]> {
  const { documentRecognitionAgent } = tables(db)
  const query = db.select().from(documentRecognitionAgent)
  return (onlyEnabled ? query.where(eq(documentRecognitionAgent.enabled, true)) : query).orderBy(
    asc(documentRecognitionAgent.displayName),
  )
}

export async function upsertRegistryEntry(
  db: EngineDb,
  agentId: string,
  values: { displayName: string; enabled: boolean; reviewSampleRate?: number },
): Promise<RegistryRow> {
  const { documentRecognitionAgent } = tables(db)
  const [row] = await db
    .insert(documentRecognitionAgent)
    .values({ agentId, ...values })
    .onConflictDoUpdate({ target: documentRecognitionAgent.agentId, set: values })
    .returning()
  return row as RegistryRow
}

export async function deleteRegistryEntry(db: EngineDb, agentId: string): Promise<boolean> {
  const { documentRecognitionAgent } = tables(db)
  const deleted = await db
    .delete(documentRecognitionAgent)
    .where(eq(documentRecognitionAgent.agentId, agentId))
    .returning({ agentId: documentRecognitionAgent.agentId })
  return deleted.length > 0
}

// Runs

const filterNames = [
  'status',
  'runtime_agent_id',
  'created_after',
  'created_before',
  'source_run_id',
  'review_status',
] as const satisfies readonly (keyof RunFilters)[]

/** The conditions of a run list's filters (each compared to its column) on the engine of `db`. */
function runConditions(db: EngineDb, filters: RunFilters): SQL[] {
  const { agentRun, documentRunReview } = tables(db)
  const columns = {
    status: agentRun.status,
    runtime_agent_id: agentRun.runtimeAgentId,
    created_after: agentRun.createdAt,
    created_before: agentRun.createdAt,
    source_run_id: agentRun.rerunSourceRunId,
    review_status: documentRunReview.reviewStatus,
  }
  return filterNames.flatMap((name) => {
    const value = filters[name]
    if (!value) return []
    const compare = name === 'created_after' ? gte : name === 'created_before' ? lte : eq
    return [compare(columns[name], value)]
  })
}

/** Runs joined to their review and their agent's registry entry, under `where`. */
function joinedRuns<T extends Record<string, unknown>>(db: EngineDb, fields: T, where: SQL | undefined) {
  const { agentRun, documentRecognitionAgent, documentRunReview } = tables(db)
  return db
    .select(fields as never)
    .from(agentRun)
    .leftJoin(documentRunReview, eq(documentRunReview.runId, agentRun.id))
    .leftJoin(documentRecognitionAgent, eq(documentRecognitionAgent.agentId, agentRun.runtimeAgentId))
    .where(where)
}

/** Runs with their review rows, newest first; `registeredOnly` keeps runs of agents in the registry. */
export async function listRuns(
  db: EngineDb,
  filters: RunFilters,
  registeredOnly: boolean,
  window: RowWindow,
): Promise<RowPage<AgentRunRow>> {
  const { agentRun, documentRecognitionAgent } = tables(db)
  const conditions = runConditions(db, filters)
  if (registeredOnly) conditions.push(isNotNull(documentRecognitionAgent.agentId))
  const where = conditions.length ? and(...conditions) : undefined
  const rows = (await joinedRuns(db, { run: agentRun }, where)
    .orderBy(desc(agentRun.createdAt), desc(agentRun.id))
    .limit(window.limit)
    .offset(window.offset)) as unknown as { run: AgentRunRow }[]
  const [counted] = (await joinedRuns(db, { n: count() }, where)) as unknown as { n: number }[]
  return { rows: rows.map((r) => r.run), total: counted?.n ?? 0 }
}

/**
 * How many runs under these filters (review status aside) are in each review status: the queue's tab counts. A
 * run without a review yet (queued, running, failed) is in no tab but "all".
 */
export async function runCountsByReviewStatus(
  db: EngineDb,
  filters: Omit<RunFilters, 'review_status'>,
): Promise<{ reviewStatus: string | null; runs: number }[]> {
  const { documentRecognitionAgent, documentRunReview } = tables(db)
  const where = and(
    isNotNull(documentRecognitionAgent.agentId),
    ...runConditions(db, { ...filters, review_status: undefined }),
  )
  return (await joinedRuns(
    db,
    { reviewStatus: documentRunReview.reviewStatus, runs: count() },
    where,
  ).groupBy(documentRunReview.reviewStatus)) as unknown as { reviewStatus: string | null; runs: number }[]
}

/*
 * The admin overview's figures, aggregated by the database over the runs of registered agents. The overview had
 * read every run and every field of every completed run into memory, the fields by a list of run ids, which fails
 * past SQLite's 32,766 parameters. Aliases are quoted (PostgreSQL folds unquoted ones to lower case), and every
 * figure is read through Number (PostgreSQL's counts and sums come as text).
 */
const registeredRuns = sql`agent_run r JOIN document_recognition_agent a ON a.agent_id = r.runtime_agent_id`
/** A field that holds a value (a JSON `null` or no JSON at all is none). */
const holdsValue = sql`(f.value_json IS NOT NULL AND f.value_json <> 'null')`

/** How many runs each registered agent has per run status and review status. */
export async function runCounts(db: EngineDb) {
  const rows = await runSql<{ agentId: string; status: string; reviewStatus: string | null; runs: number }>(
    db,
    sql`
    SELECT r.runtime_agent_id AS "agentId", r.status AS status, rv.review_status AS "reviewStatus",
      count(*) AS runs
    FROM ${registeredRuns} LEFT JOIN document_run_review rv ON rv.run_id = r.id
    GROUP BY r.runtime_agent_id, r.status, rv.review_status`,
  )
  return rows.map((row) => ({ ...row, runs: Number(row.runs) }))
}

/** Runs created per UTC day from `firstDay` (YYYY-MM-DD) on. */
export async function runsPerDay(db: EngineDb, firstDay: string) {
  const rows = await runSql<{ date: string; runs: number }>(
    db,
    sql`
    SELECT substr(r.created_at, 1, 10) AS date, count(*) AS runs FROM ${registeredRuns}
    WHERE r.created_at >= ${firstDay} GROUP BY substr(r.created_at, 1, 10)`,
  )
  return rows.map((row) => ({ date: row.date, runs: Number(row.runs) }))
}

/** Per field key over completed runs: how many fields, how many corrected, and the confidences of those with a value. */
export async function completedFieldTotals(db: EngineDb) {
  const rows = await runSql<{
    fieldKey: string
    fields: number
    corrected: number
    withValue: number
    confidenceSum: number | null
  }>(
    db,
    sql`
    SELECT f.field_key AS "fieldKey", count(*) AS fields,
      sum(CASE WHEN f.review_status = 'corrected' THEN 1 ELSE 0 END) AS corrected,
      sum(CASE WHEN ${holdsValue} THEN 1 ELSE 0 END) AS "withValue",
      sum(CASE WHEN ${holdsValue} THEN f.confidence END) AS "confidenceSum"
    FROM ${registeredRuns} JOIN document_field_review f ON f.run_id = r.id
    WHERE r.status = 'completed' GROUP BY f.field_key`,
  )
  return rows.map((row) => ({
    fieldKey: row.fieldKey,
    fields: Number(row.fields),
    corrected: Number(row.corrected),
    withValue: Number(row.withValue),
    confidenceSum: row.confidenceSum === null ? null : Number(row.confidenceSum),
  }))
}

/** Seconds between two ISO timestamps kept as text, on the engine of `db`. */
function secondsBetween(db: EngineDb, from: SQL, to: SQL): SQL {
  return isPostgres(db)
    ? sql`extract(epoch from (${to}::timestamptz - ${from}::timestamptz))`
    : sql`(unixepoch(${to}, 'subsec') - unixepoch(${from}, 'subsec'))`
}

/** The lower median of completed runs' processing time in ms (created to completed); null without one. */
export async function medianProcessingMs(db: EngineDb): Promise<number | null> {
  const completed = sql`${registeredRuns} WHERE r.status = 'completed' AND r.completed_at IS NOT NULL`
  const [counted] = await runSql<{ n: number }>(db, sql`SELECT count(*) AS n FROM ${completed}`)
  const n = Number(counted?.n ?? 0)
  if (n === 0) return null
  const [median] = await runSql<{ ms: number }>(
    db,
    sql`
      SELECT round(${secondsBetween(db, sql`r.created_at`, sql`r.completed_at`)} * 1000) AS ms
      FROM ${completed} ORDER BY ms LIMIT 1 OFFSET ${Math.floor((n - 1) / 2)}`,
  )
  return median ? Number(median.ms) : null
}

// Reviews

export async function findRunReview(db: EngineDb, runId: string): Promise<RunReviewRow | null> {
  const { documentRunReview } = tables(db)
  const [row] = await db.select().from(documentRunReview).where(eq(documentRunReview.runId, runId)).limit(1)
  return row ?? null
}

/**
 * A run's review, read in the transaction `tx` and held to its end: on PostgreSQL the row is locked (`FOR UPDATE`),
 * so a second review action on the run waits and then reads what the first wrote; SQLite's transactions take turns.
 */
export async function holdRunReview(tx: EngineDb, runId: string): Promise<RunReviewRow | null> {
  if (!isPostgres(tx)) return findRunReview(tx, runId)
  const { documentRunReview } = tables(tx)
  const query = tx.select().from(documentRunReview).where(eq(documentRunReview.runId, runId)).limit(1)
  const [row] = await (query as unknown as { for(strength: 'update'): Promise<RunReviewRow[]> }).for('update')
  return row ?? null
}

export async function insertRunReview(
  db: EngineDb,
  values: typeof documentRunReview.$inferInsert,
): Promise<void> {
  const { documentRunReview } = tables(db)
  await db.insert(documentRunReview).values(values)
}

export async function updateRunReview(
  db: EngineDb,
  runId: string,
  values: Partial<typeof documentRunReview.$inferInsert>,
): Promise<void> {
  const { documentRunReview } = tables(db)
  await db.update(documentRunReview).set(values).where(eq(documentRunReview.runId, runId))
}

/** A run's fields in page order. */
export async function listFieldReviews(db: EngineDb, runId: string): Promise<FieldReviewRow[]> {
  const { documentFieldReview } = tables(db)
  return db
    .select()
    .from(documentFieldReview)
    .where(eq(documentFieldReview.runId, runId))
    .orderBy(asc(documentFieldReview.position))
}

export async function findFieldReview(
  db: EngineDb,
  runId: string,
  fieldId: string,
): Promise<FieldReviewRow | null> {
  const { documentFieldReview } = tables(db)
  const [row] = await db
    .select()
    .from(documentFieldReview)
    .where(and(eq(documentFieldReview.runId, runId), eq(documentFieldReview.id, fieldId)))
    .limit(1)
  return row ?? null
}

export async function insertFieldReviews(
  db: EngineDb,
  rows: (typeof documentFieldReview.$inferInsert)[],
): Promise<void> {
  const { documentFieldReview } = tables(db)
  if (rows.length) await db.insert(documentFieldReview).values(rows)
}

export async function updateFieldReview(
  db: EngineDb,
  id: string,
  values: Partial<typeof documentFieldReview.$inferInsert>,
): Promise<void> {
  const { documentFieldReview } = tables(db)
  await db.update(documentFieldReview).set(values).where(eq(documentFieldReview.id, id))
}

export async function insertRevision(
  db: EngineDb,
  values: typeof documentFieldRevision.$inferInsert,
): Promise<FieldRevisionRow> {
  const { documentFieldRevision } = tables(db)
  const [row] = await db.insert(documentFieldRevision).values(values).returning()
  return row as FieldRevisionRow
}

export async function listRevisions(db: EngineDb, fieldReviewId: string): Promise<FieldRevisionRow[]> {
  const { documentFieldRevision } = tables(db)
  return db
    .select()
    .from(documentFieldRevision)
    .where(eq(documentFieldRevision.fieldReviewId, fieldReviewId))
    .orderBy(asc(documentFieldRevision.revision))
}

export async function insertReviewEvent(
  db: EngineDb,
  values: typeof documentReviewEvent.$inferInsert,
): Promise<void> {
  const { documentReviewEvent } = tables(db)
  await db.insert(documentReviewEvent).values(values)
}

// Page text

export async function insertPageTexts(db: EngineDb, rows: PageTextRow[]): Promise<void> {
  const { documentPageText } = tables(db)
  if (rows.length) await db.insert(documentPageText).values(rows)
}

export async function listPageTexts(db: EngineDb, runId: string): Promise<PageTextRow[]> {
  const { documentPageText } = tables(db)
  return db
    .select()
    .from(documentPageText)
    .where(eq(documentPageText.runId, runId))
    .orderBy(asc(documentPageText.pageNumber))
}

// Learned hints

export async function findLearnedHints(
  db: EngineDb,
  agentVersionId: string,
  fingerprint: string,
): Promise<LearnedHintRow[]> {
  const { documentLearnedHint } = tables(db)
  return db
    .select()
    .from(documentLearnedHint)
    .where(
      and(
        eq(documentLearnedHint.agentVersionId, agentVersionId),
        eq(documentLearnedHint.fingerprint, fingerprint),
      ),
    )
}

export async function listLearnedHints(db: EngineDb, runtimeAgentId: string): Promise<LearnedHintRow[]> {
  const { documentLearnedHint } = tables(db)
  return db
    .select()
    .from(documentLearnedHint)
    .where(eq(documentLearnedHint.runtimeAgentId, runtimeAgentId))
    .orderBy(asc(documentLearnedHint.fingerprint), asc(documentLearnedHint.fieldKey))
}

/** One hint per (version, fingerprint, field): a new lesson replaces the old one. */
export async function upsertLearnedHint(
  db: EngineDb,
  values: typeof documentLearnedHint.$inferInsert,
): Promise<void> {
  const { documentLearnedHint } = tables(db)
  const { agentVersionId, fingerprint, fieldKey, ...rest } = values
  await db
    .insert(documentLearnedHint)
    .values(values)
    .onConflictDoUpdate({
      target: [
        documentLearnedHint.agentVersionId,
        documentLearnedHint.fingerprint,
        documentLearnedHint.fieldKey,
      ],
      set: rest,
    })
}

export async function updateLearnedHint(
  db: EngineDb,
  id: string,
  values: Partial<typeof documentLearnedHint.$inferInsert>,
): Promise<void> {
  const { documentLearnedHint } = tables(db)
  await db.update(documentLearnedHint).set(values).where(eq(documentLearnedHint.id, id))
}

export async function deleteLearnedHint(db: EngineDb, id: string): Promise<void> {
  const { documentLearnedHint } = tables(db)
  await db.delete(documentLearnedHint).where(eq(documentLearnedHint.id, id))
}

export async function deleteLearnedHints(db: EngineDb, runtimeAgentId: string): Promise<void> {
  const { documentLearnedHint } = tables(db)
  await db.delete(documentLearnedHint).where(eq(documentLearnedHint.runtimeAgentId, runtimeAgentId))
}

/** A run's latest review event of one kind: who and when, and the reason of a rejection. */
async function lastEvent(db: EngineDb, runId: string, kind: 'rejected' | 'approved') {
  const { documentReviewEvent } = tables(db)
  const [row] = await db
    .select({
      reason: documentReviewEvent.reason,
      actorId: documentReviewEvent.actorId,
      createdAt: documentReviewEvent.createdAt,
    })
    .from(documentReviewEvent)
    .where(and(eq(documentReviewEvent.runId, runId), eq(documentReviewEvent.kind, kind)))
    .orderBy(desc(documentReviewEvent.createdAt))
    .limit(1)
  return row ?? null
}

/** The reason of a run's latest rejection, for the queue. */
export async function lastRejectReason(db: EngineDb, runId: string): Promise<string | null> {
  return (await lastEvent(db, runId, 'rejected'))?.reason ?? null
}

/** Who approved a run last, and when (its latest `approved` review event). */
export async function lastApproval(
  db: EngineDb,
  runId: string,
): Promise<{ actorId: string; createdAt: string } | null> {
  const event = await lastEvent(db, runId, 'approved')
  return event ? { actorId: event.actorId, createdAt: event.createdAt } : null
}
