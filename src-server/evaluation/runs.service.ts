import type { ModelRegistry } from '../ai'
import type { AuthUser } from '../auth'
import { findAgentType, requireUsableAgent } from '../conversation'
import type { AppContext } from '../platform/app-context'
import { type Database, type EngineDb, nowIso } from '../platform/db'
import { type PageQuery, pageWindow, toPage } from '../platform/http'
import { requireDataset } from './datasets.service'
import { EvaluationErrors } from './evaluation.errors'
import * as repo from './evaluation.repository'
import type { CreateRunBody, ResultView, RunView } from './evaluation.schemas'
import type { EvaluationRunStatus } from './evaluation.tables'
import { BUILTIN_JUDGE } from './judge'
import { summarise } from './scoring'

export const EVALUATION_JOB = 'evaluation.run'
export const DEFAULT_CONCURRENCY = 2
const FINISHED: EvaluationRunStatus[] = ['succeeded', 'failed', 'cancelled']

export function isFinished(status: EvaluationRunStatus): boolean {
  return FINISHED.includes(status)
}

function presentRun(row: repo.RunRow): RunView {
  return {
    id: row.id,
    agent_id: row.agentId,
    dataset_id: row.datasetId,
    status: row.status,
    judge_provider: row.judgeProvider ?? BUILTIN_JUDGE.provider,
    judge_model: row.judgeModel ?? BUILTIN_JUDGE.model,
    concurrency: row.concurrency,
    progress: { total: row.total, done: row.done },
    summary: row.summary ?? null,
    error: row.error,
    created_at: row.createdAt,
    started_at: row.startedAt,
    finished_at: row.finishedAt,
  }
}

function presentResult(row: repo.ResultRow): ResultView {
  return {
    sample_id: row.sampleId,
    ordinal: row.ordinal,
    input: row.input,
    expected: row.expected,
    output: row.output,
    rule_score: row.ruleScore,
    rule_details: row.ruleDetails ?? null,
    judge_score: row.judgeScore,
    judge_rationale: row.judgeRationale,
    judge_error: row.judgeError,
    pass: row.passed,
    latency_ms: row.latencyMs,
    error: row.error,
  }
}

/** Evaluating an agent runs it as the user, so it needs the right to use it (`agent.use`). */
async function requireChatAgent(ctx: AppContext, user: AuthUser, agentId: string): Promise<void> {
  await requireUsableAgent(ctx.database.reader, user, agentId)
  const agentType = await findAgentType(ctx.database.reader, agentId)
  if (agentType !== null && agentType !== 'chat')
    throw EvaluationErrors.UNSUPPORTED_AGENT_TYPE({ agent_id: agentId, agent_type: agentType })
}

async function requireRun(
  ctx: AppContext,
  user: AuthUser,
  agentId: string,
  runId: string,
): Promise<repo.RunRow> {
  const row = await repo.findRunOfAgent(ctx.database.reader, agentId, runId)
  if (!row) throw EvaluationErrors.EVALUATION_RUN_NOT_FOUND({ agent_id: agentId, run_id: runId })
  await requireUsableAgent(ctx.database.reader, user, agentId)
  return row
}

type Ending = 'succeeded' | 'failed' | 'cancelled'

/** Ends a run that is still going, in `tx`: status, finish time and the summary of what was scored, in one write. */
export async function closeRunIn(
  tx: EngineDb,
  runId: string,
  status: Ending,
  error: string | null = null,
): Promise<repo.RunRow | null> {
  // Closed first: from then on no sample stores a result, so the summary below counts every one stored.
  if (!(await repo.updateOpenRun(tx, runId, { status, error, finishedAt: nowIso() }))) return null
  const results = await repo.allResults(tx, runId)
  return repo.updateRun(tx, runId, { done: results.length, summary: summarise(results) })
}

/** `closeRunIn`, in a transaction of its own. */
export function closeRun(
  database: Database,
  runId: string,
  status: Ending,
  error: string | null = null,
): Promise<repo.RunRow | null> {
  return database.transact((tx) => closeRunIn(tx, runId, status, error))
}

export function createRunService(ctx: AppContext, models: Pick<ModelRegistry, 'resolve'>) {
  return {
    /** The run row and its durable job are created together; the job does the work. */
    async create(user: AuthUser, agentId: string, body: CreateRunBody): Promise<RunView> {
      await requireChatAgent(ctx, user, agentId)
      const dataset = await requireDataset(ctx, body.dataset_id)
      if (dataset.itemCount === 0) throw EvaluationErrors.DATASET_EMPTY({ dataset_id: dataset.id })
      const judge =
        body.judge_provider === undefined && body.judge_model === undefined
          ? BUILTIN_JUDGE
          : models.resolve({ provider: body.judge_provider, model: body.judge_model }, 'json_schema')
      const row = await ctx.database.transact(async (tx) => {
        const run = await repo.insertRun(tx, {
          agentId,
          datasetId: dataset.id,
          judgeProvider: judge.provider,
          judgeModel: judge.model,
          concurrency: body.concurrency ?? DEFAULT_CONCURRENCY,
          total: dataset.itemCount,
          createdBy: user.id,
        })
        const job = await ctx.jobs.enqueue(tx, EVALUATION_JOB, { runId: run.id }, { maxAttempts: 5 })
        return (await repo.updateRun(tx, run.id, { jobId: job.id })) as repo.RunRow
      })
      return presentRun(row)
    },

    async list(user: AuthUser, agentId: string, query: PageQuery) {
      await requireUsableAgent(ctx.database.reader, user, agentId)
      const { rows, total } = await repo.listRuns(ctx.database.reader, agentId, pageWindow(query))
      return toPage(rows.map(presentRun), total, query)
    },

    async get(user: AuthUser, agentId: string, runId: string): Promise<RunView> {
      return presentRun(await requireRun(ctx, user, agentId, runId))
    },

    async listResults(user: AuthUser, agentId: string, runId: string, query: PageQuery) {
      await requireRun(ctx, user, agentId, runId)
      const { rows, total } = await repo.listResults(ctx.database.reader, runId, pageWindow(query))
      return toPage(rows.map(presentResult), total, query)
    },

    async cancel(user: AuthUser, agentId: string, runId: string): Promise<RunView> {
      const run = await requireRun(ctx, user, agentId, runId)
      if (isFinished(run.status)) throw EvaluationErrors.EVALUATION_RUN_FINISHED({ status: run.status })
      const closed = await closeRun(ctx.database, runId, 'cancelled')
      if (run.jobId) await ctx.jobs.cancel(run.jobId)
      return presentRun(closed ?? (await requireRun(ctx, user, agentId, runId)))
    },
  }
}

export type RunService = ReturnType<typeof createRunService>
