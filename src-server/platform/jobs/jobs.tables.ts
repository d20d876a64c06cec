import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { createdAt, idColumn, jsonText, oneOf, updatedAt } from '../db'

export const JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const
export type JobStatus = (typeof JOB_STATUSES)[number]

/**
 * Durable jobs. A worker owns a running job only while its lease is fresh; an expired lease means its worker
 * died, and the job is claimed again (attempts counts every claim but those handed back at a shutdown).
 */
export const job = sqliteTable(
  'job',
  {
    id: idColumn(),
    type: text('type').notNull(),
    status: text('status').$type<JobStatus>().notNull().default('queued'),
    payload: jsonText<unknown>('payload_json').notNull(),
    result: jsonText<unknown>('result_json'),
    progress: jsonText<Record<string, unknown>>('progress_json'),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    /** Times the process died while this job ran (found `running` at start): a handler may refuse to go on. */
    crashes: integer('crashes').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(3),
    leaseOwner: text('lease_owner'),
    leaseExpiresAt: text('lease_expires_at'),
    cancelRequested: integer('cancel_requested', { mode: 'boolean' }).notNull().default(false),
    runAfter: text('run_after').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    startedAt: text('started_at'),
    finishedAt: text('finished_at'),
  },
  (t) => [
    index('job_claimable_idx').on(t.status, t.runAfter),
    index('job_by_type_idx').on(t.type, t.createdAt),
    oneOf('job_status_check', t.status, JOB_STATUSES),
  ],
)
