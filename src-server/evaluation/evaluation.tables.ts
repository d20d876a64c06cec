import { index, integer, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { createdAt, idColumn, jsonText, oneOf, updatedAt } from '../platform/db'

export const EVALUATION_RUN_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const
export type EvaluationRunStatus = (typeof EVALUATION_RUN_STATUSES)[number]

export interface RuleDetails {
  exact_match: boolean
  token_f1: number
  contains_expected: boolean
}

export interface EvaluationSummary {
  rule_score_mean: number | null
  judge_score_mean: number | null
  pass_rate: number | null
  errors: number
  judge_errors: number
  latency_ms_p50: number | null
  latency_ms_p95: number | null
}

export const evaluationDataset = sqliteTable(
  'evaluation_dataset',
  {
    id: idColumn(),
    name: text('name').notNull(),
    description: text('description'),
    itemCount: integer('item_count').notNull().default(0),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('evaluation_dataset_by_time_idx').on(t.createdAt)],
)

/** One sample; `metadata` is the parsed JSON object when the CSV cell held one, else the cell text. */
export const evaluationItem = sqliteTable(
  'evaluation_item',
  {
    id: idColumn(),
    datasetId: text('dataset_id')
      .notNull()
      .references(() => evaluationDataset.id, { onDelete: 'cascade' }),
    ordinal: integer('ordinal').notNull(),
    input: text('input').notNull(),
    expected: text('expected').notNull(),
    metadata: jsonText<unknown>('metadata_json'),
  },
  (t) => [uniqueIndex('evaluation_item_dataset_ordinal_idx').on(t.datasetId, t.ordinal)],
)

export const evaluationRun = sqliteTable(
  'evaluation_run',
  {
    id: idColumn(),
    agentId: text('agent_id').notNull(),
    datasetId: text('dataset_id')
      .notNull()
      .references(() => evaluationDataset.id, { onDelete: 'restrict' }),
    status: text('status').$type<EvaluationRunStatus>().notNull().default('queued'),
    judgeProvider: text('judge_provider'),
    judgeModel: text('judge_model'),
    concurrency: integer('concurrency').notNull(),
    total: integer('total').notNull(),
    done: integer('done').notNull().default(0),
    summary: jsonText<EvaluationSummary>('summary_json'),
    error: text('error'),
    jobId: text('job_id'),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    startedAt: text('started_at'),
    finishedAt: text('finished_at'),
  },
  (t) => [
    index('evaluation_run_by_agent_idx').on(t.agentId, t.createdAt),
    index('evaluation_run_by_dataset_idx').on(t.datasetId),
    oneOf('evaluation_run_status_check', t.status, EVALUATION_RUN_STATUSES),
  ],
)

/** One row per sample and run: the unique key is what lets a resumed run skip samples already scored. */
export const evaluationResult = sqliteTable(
  'evaluation_result',
  {
    id: idColumn(),
    runId: text('run_id')
      .notNull()
      .references(() => evaluationRun.id, { onDelete: 'cascade' }),
    sampleId: text('sample_id').notNull(),
    ordinal: integer('ordinal').notNull(),
    input: text('input').notNull(),
    expected: text('expected').notNull(),
    output: text('output'),
    ruleScore: real('rule_score'),
    ruleDetails: jsonText<RuleDetails>('rule_details_json'),
    judgeScore: real('judge_score'),
    judgeRationale: text('judge_rationale'),
    judgeError: text('judge_error'),
    passed: integer('passed', { mode: 'boolean' }).notNull().default(false),
    latencyMs: integer('latency_ms'),
    error: text('error'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('evaluation_result_run_sample_idx').on(t.runId, t.sampleId),
    index('evaluation_result_by_ordinal_idx').on(t.runId, t.ordinal),
  ],
)
