import { and, eq, inArray, sql } from 'drizzle-orm'
import { type EngineDb, engineTables, isPostgres } from '../db'
import type { JobRow } from './job-runner'
import { type JobStatus, job } from './jobs.tables'

/** Reads of the job table for the domains whose work runs as jobs; the runner's own reads and writes are its. */
const tablesOf = engineTables({ job })

/**
 * A job of `type` in one of `statuses` whose payload's `field` (a top-level key) is `value`, or null: what a domain
 * finds its job by, knowing the id of the thing the job works on.
 */
export async function findJobByPayload(
  db: EngineDb,
  { type, field, value, statuses }: { type: string; field: string; value: string; statuses: JobStatus[] },
): Promise<JobRow | null> {
  const { job } = tablesOf(db)
  const payloadValue = isPostgres(db)
    ? sql`${job.payload} ->> CAST(${field} AS text)`
    : sql`json_extract(${job.payload}, ${`$.${field}`})`
  const [row] = await db
    .select()
    .from(job)
    .where(and(eq(job.type, type), inArray(job.status, statuses), sql`${payloadValue} = ${value}`))
    .limit(1)
  return row ?? null
}
