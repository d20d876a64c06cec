import { and, asc, count, desc, eq, gte, isNotNull, lte, type SQL, sql } from 'drizzle-orm'
import {
  literalLimit,
  perHandle,
  perShape,
  preparePage,
  type Queryable,
  type RowPage,
  type RowWindow,
} from '../platform/db'
import {
  documentFieldReview,
  documentFieldRevision,
  documentLearnedHint,
  documentPageText,
  documentRecognitionAgent,
  documentReviewEvent,
  documentRunReview,
} from './document-recognition.tables'
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

// Registry

export function findRegistryEntry(db: Queryable, agentId: string): RegistryRow | null {
  return (
    db.select().from(documentRecognitionAgent).where(eq(documentRecognitionAgent.agentId, agentId)).get() ??
    null
  )
}

export function listRegistry(db: Queryable, onlyEnabled: boolean): RegistryRow[] {
  const query = db.select().from(documentRecognitionAgent)
  return (onlyEnabled ? query.where(eq(documentRecognitionAgent.enabled, true)) : query)
    .orderBy(asc(documentRecognitionAgent.displayName))
    .all()
}

export function upsertRegistryEntry(
  db: Queryable,
  agentId: string,
  values: { displayName: string; enabled: boolean; reviewSampleRate?: number },
): RegistryRow {
  return db
    .insert(documentRecognitionAgent)
    .values({ agentId, ...values })
    .onConflictDoUpdate({ target: documentRecognitionAgent.agentId, set: values })
    .returning()
    .get()
}

export function deleteRegistryEntry(db: Queryable, agentId: string): boolean {
  return (
    db.delete(documentRecognitionAgent).where(eq(documentRecognitionAgent.agentId, agentId)).run().changes > 0
  )
}

// Runs

const p = sql.placeholder

/** The filters a run list may have, each compared to a placeholder of its own name. */
const RUN_FILTERS = {
  status: agentRun.status,
  runtime_agent_id: agentRun.runtimeAgentId,
  created_after: agentRun.createdAt,
  created_before: agentRun.createdAt,
  source_run_id: agentRun.rerunSourceRunId,
  review_status: documentRunReview.reviewStatus,
} as const
const filterNames = Object.keys(RUN_FILTERS) as (keyof RunFilters)[]

function runConditions(filters: RunFilters): SQL[] {
  return filterNames.flatMap((name) => {
    if (!filters[name]) return []
    const compare = name === 'created_after' ? gte : name === 'created_before' ? lte : eq
    return [compare(RUN_FILTERS[name], p(name))]
  })
}

interface RunPageQuery {
  filters: RunFilters
  registeredOnly: boolean
  limit: number
}

/** Which filters a run list has, whether only registered agents' runs, and the page size (see `perShape`). */
const runPageShape = ({ filters, registeredOnly, limit }: RunPageQuery) =>
  [...filterNames.map((name) => (filters[name] ? name : '')), registeredOnly, limit].join(':')

const runPages = perShape(runPageShape, (db: Queryable, { filters, registeredOnly, limit }: RunPageQuery) => {
  const conditions = runConditions(filters)
  if (registeredOnly) conditions.push(isNotNull(documentRecognitionAgent.agentId))
  const where = conditions.length ? and(...conditions) : undefined
  const page = db
    .select({ run: agentRun })
    .from(agentRun)
    .leftJoin(documentRunReview, eq(documentRunReview.runId, agentRun.id))
    .leftJoin(documentRecognitionAgent, eq(documentRecognitionAgent.agentId, agentRun.runtimeAgentId))
    .where(where)
    .orderBy(desc(agentRun.createdAt), desc(agentRun.id))
  const counting = db
    .select({ n: count() })
    .from(agentRun)
    .leftJoin(documentRunReview, eq(documentRunReview.runId, agentRun.id))
    .leftJoin(documentRecognitionAgent, eq(documentRecognitionAgent.agentId, agentRun.runtimeAgentId))
    .where(where)
  return preparePage(page, counting, limit)
})

/** Runs with their review rows, newest first; `registeredOnly` keeps runs of agents in the registry. */
export function listRuns(
  db: Queryable,
  filters: RunFilters,
  registeredOnly: boolean,
  window: RowWindow,
): RowPage<AgentRunRow> {
  const page = runPages(db, { filters, registeredOnly, limit: window.limit })
  const values = { ...filters }
  return { rows: page.rows(values, window.offset).map((r) => r.run), total: page.total(values) }
}

/**
 * How many runs under these filters (review status aside) are in each review status: the queue's tab counts. A
 * run without a review yet (queued, running, failed) is in no tab but "all".
 */
export function runCountsByReviewStatus(db: Queryable, filters: Omit<RunFilters, 'review_status'>) {
  const conditions = [
    isNotNull(documentRecognitionAgent.agentId),
    ...filterNames.flatMap((name) => {
      const value = name === 'review_status' ? undefined : filters[name]
      if (!value) return []
      const compare = name === 'created_after' ? gte : name === 'created_before' ? lte : eq
      return [compare(RUN_FILTERS[name], value)]
    }),
  ]
  return db
    .select({ reviewStatus: documentRunReview.reviewStatus, runs: count() })
    .from(agentRun)
    .leftJoin(documentRunReview, eq(documentRunReview.runId, agentRun.id))
    .leftJoin(documentRecognitionAgent, eq(documentRecognitionAgent.agentId, agentRun.runtimeAgentId))
    .where(and(...conditions))
    .groupBy(documentRunReview.reviewStatus)
    .all()
}

/*
 * The admin overview's figures, aggregated by SQLite over the runs of registered agents. The overview had read every
 * run and every field of every completed run into memory, the fields by a list of run ids, which fails past SQLite's
 * 32,766 parameters.
 */
const registeredRuns = sql`agent_run r JOIN document_recognition_agent a ON a.agent_id = r.runtime_agent_id`
/** A field that holds a value (a JSON `null` or no JSON at all is none). */
const holdsValue = sql`(f.value_json IS NOT NULL AND f.value_json <> 'null')`

/** How many runs each registered agent has per run status and review status. */
export function runCounts(db: Queryable) {
  return db.all<{ agentId: string; status: string; reviewStatus: string | null; runs: number }>(sql`
    SELECT r.runtime_agent_id AS agentId, r.status AS status, rv.review_status AS reviewStatus, count(*) AS runs
    FROM ${registeredRuns} LEFT JOIN document_run_review rv ON rv.run_id = r.id
    GROUP BY r.runtime_agent_id, r.status, rv.review_status`)
}

/** Runs created per UTC day from `firstDay` (YYYY-MM-DD) on. */
export function runsPerDay(db: Queryable, firstDay: string) {
  return db.all<{ date: string; runs: number }>(sql`
    SELECT substr(r.created_at, 1, 10) AS date, count(*) AS runs FROM ${registeredRuns}
    WHERE r.created_at >= ${firstDay} GROUP BY date`)
}

/** Per field key over completed runs: how many fields, how many corrected, and the confidences of those with a value. */
export function completedFieldTotals(db: Queryable) {
  return db.all<{
    fieldKey: string
    fields: number
    corrected: number
    withValue: number
    confidenceSum: number | null
  }>(sql`
    SELECT f.field_key AS fieldKey, count(*) AS fields, sum(f.review_status = 'corrected') AS corrected,
      sum(${holdsValue}) AS withValue, sum(CASE WHEN ${holdsValue} THEN f.confidence END) AS confidenceSum
    FROM ${registeredRuns} JOIN document_field_review f ON f.run_id = r.id
    WHERE r.status = 'completed' GROUP BY f.field_key`)
}

/** The lower median of completed runs' processing time in ms (created to completed); null without one. */
export function medianProcessingMs(db: Queryable): number | null {
  const completed = sql`${registeredRuns} WHERE r.status = 'completed' AND r.completed_at IS NOT NULL`
  const n = db.get<{ n: number }>(sql`SELECT count(*) AS n FROM ${completed}`)?.n ?? 0
  if (n === 0) return null
  return (
    db.get<{ ms: number }>(sql`
      SELECT round((unixepoch(r.completed_at, 'subsec') - unixepoch(r.created_at, 'subsec')) * 1000) AS ms
      FROM ${completed} ORDER BY ms LIMIT 1 OFFSET ${Math.floor((n - 1) / 2)}`)?.ms ?? null
  )
}

// Reviews

/** A run's review row, prepared once: the runs list and the review feed read one per run. */
const runReviewById = perHandle((db: Queryable) =>
  db
    .select()
    .from(documentRunReview)
    .where(eq(documentRunReview.runId, p('runId')))
    .prepare(),
)

export function findRunReview(db: Queryable, runId: string): RunReviewRow | null {
  return runReviewById(db).get({ runId }) ?? null
}

export function insertRunReview(db: Queryable, values: typeof documentRunReview.$inferInsert): void {
  db.insert(documentRunReview).values(values).run()
}

export function updateRunReview(
  db: Queryable,
  runId: string,
  values: Partial<typeof documentRunReview.$inferInsert>,
): void {
  db.update(documentRunReview).set(values).where(eq(documentRunReview.runId, runId)).run()
}

/** A run's fields in page order, prepared once: the runs list and the review feed read them per run. */
const fieldReviewsOfRun = perHandle((db: Queryable) =>
  db
    .select()
    .from(documentFieldReview)
    .where(eq(documentFieldReview.runId, p('runId')))
    .orderBy(asc(documentFieldReview.position))
    .prepare(),
)

export function listFieldReviews(db: Queryable, runId: string): FieldReviewRow[] {
  return fieldReviewsOfRun(db).all({ runId })
}

export function findFieldReview(db: Queryable, runId: string, fieldId: string): FieldReviewRow | null {
  return (
    db
      .select()
      .from(documentFieldReview)
      .where(and(eq(documentFieldReview.runId, runId), eq(documentFieldReview.id, fieldId)))
      .get() ?? null
  )
}

export function insertFieldReviews(db: Queryable, rows: (typeof documentFieldReview.$inferInsert)[]): void {
  if (rows.length) db.insert(documentFieldReview).values(rows).run()
}

export function updateFieldReview(
  db: Queryable,
  id: string,
  values: Partial<typeof documentFieldReview.$inferInsert>,
): void {
  db.update(documentFieldReview).set(values).where(eq(documentFieldReview.id, id)).run()
}

export function insertRevision(
  db: Queryable,
  values: typeof documentFieldRevision.$inferInsert,
): FieldRevisionRow {
  return db.insert(documentFieldRevision).values(values).returning().get()
}

export function listRevisions(db: Queryable, fieldReviewId: string): FieldRevisionRow[] {
  return db
    .select()
    .from(documentFieldRevision)
    .where(eq(documentFieldRevision.fieldReviewId, fieldReviewId))
    .orderBy(asc(documentFieldRevision.revision))
    .all()
}

export function insertReviewEvent(db: Queryable, values: typeof documentReviewEvent.$inferInsert): void {
  db.insert(documentReviewEvent).values(values).run()
}

// Page text

export function insertPageTexts(db: Queryable, rows: PageTextRow[]): void {
  if (rows.length) db.insert(documentPageText).values(rows).run()
}

export function listPageTexts(db: Queryable, runId: string): PageTextRow[] {
  return db
    .select()
    .from(documentPageText)
    .where(eq(documentPageText.runId, runId))
    .orderBy(asc(documentPageText.pageNumber))
    .all()
}

// Learned hints

export function findLearnedHints(
  db: Queryable,
  agentVersionId: string,
  fingerprint: string,
): LearnedHintRow[] {
  return db
    .select()
    .from(documentLearnedHint)
    .where(
      and(
        eq(documentLearnedHint.agentVersionId, agentVersionId),
        eq(documentLearnedHint.fingerprint, fingerprint),
      ),
    )
    .all()
}

export function listLearnedHints(db: Queryable, runtimeAgentId: string): LearnedHintRow[] {
  return db
    .select()
    .from(documentLearnedHint)
    .where(eq(documentLearnedHint.runtimeAgentId, runtimeAgentId))
    .orderBy(asc(documentLearnedHint.fingerprint), asc(documentLearnedHint.fieldKey))
    .all()
}

/** One hint per (version, fingerprint, field): a new lesson replaces the old one. */
export function upsertLearnedHint(db: Queryable, values: typeof documentLearnedHint.$inferInsert): void {
  const { agentVersionId, fingerprint, fieldKey, ...rest } = values
  db.insert(documentLearnedHint)
    .values(values)
    .onConflictDoUpdate({
      target: [
        documentLearnedHint.agentVersionId,
        documentLearnedHint.fingerprint,
        documentLearnedHint.fieldKey,
      ],
      set: rest,
    })
    .run()
}

export function updateLearnedHint(
  db: Queryable,
  id: string,
  values: Partial<typeof documentLearnedHint.$inferInsert>,
): void {
  db.update(documentLearnedHint).set(values).where(eq(documentLearnedHint.id, id)).run()
}

export function deleteLearnedHint(db: Queryable, id: string): void {
  db.delete(documentLearnedHint).where(eq(documentLearnedHint.id, id)).run()
}

export function deleteLearnedHints(db: Queryable, runtimeAgentId: string): number {
  return db.delete(documentLearnedHint).where(eq(documentLearnedHint.runtimeAgentId, runtimeAgentId)).run()
    .changes
}

/** The reason of a run's latest rejection, for the queue. */
/** The reason of a run's latest rejection, prepared once (read per run, like its fields). */
const lastRejection = perHandle((db: Queryable) =>
  db
    .select({ reason: documentReviewEvent.reason })
    .from(documentReviewEvent)
    .where(and(eq(documentReviewEvent.runId, p('runId')), eq(documentReviewEvent.kind, 'rejected')))
    .orderBy(desc(documentReviewEvent.createdAt))
    .limit(literalLimit(1))
    .prepare(),
)

export function lastRejectReason(db: Queryable, runId: string): string | null {
  return lastRejection(db).get({ runId })?.reason ?? null
}

/** Who approved a run last, and when (its latest `approved` review event), prepared once. */
const lastApprovalQuery = perHandle((db: Queryable) =>
  db
    .select({ actorId: documentReviewEvent.actorId, createdAt: documentReviewEvent.createdAt })
    .from(documentReviewEvent)
    .where(and(eq(documentReviewEvent.runId, p('runId')), eq(documentReviewEvent.kind, 'approved')))
    .orderBy(desc(documentReviewEvent.createdAt))
    .limit(literalLimit(1))
    .prepare(),
)

export function lastApproval(db: Queryable, runId: string): { actorId: string; createdAt: string } | null {
  return lastApprovalQuery(db).get({ runId }) ?? null
}
