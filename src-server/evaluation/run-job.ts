import type { ModelRegistry } from '../ai'
import type { AuthUser } from '../auth'
import type { ChatOrchestrator } from '../conversation'
import type { AppContext } from '../platform/app-context'
import { nowIso } from '../platform/db'
import * as repo from './evaluation.repository'
import { BUILTIN_JUDGE, judgeSample } from './judge'
import { closeRun, closeRunIn, EVALUATION_JOB, isFinished } from './runs.service'
import { passes, ruleScore } from './scoring'

export interface EvaluationDeps {
  chat: Pick<ChatOrchestrator, 'complete'>
  models: Pick<ModelRegistry, 'completeJson' | 'resolve'>
}

/**
 * The durable job behind a run. Each sample goes through the chat orchestrator's `complete` (the `/stream`
 * pipeline: the agent's prompt, knowledge and tools), then the rule scores and the judge. Results are written
 * one row per sample; a resumed job (restart, lost lease) skips the samples that already have a row, so nothing
 * is scored twice. A cancel closes the run at once; samples still in flight then write nothing.
 */
export function registerEvaluationJob(ctx: AppContext, deps: EvaluationDeps): void {
  ctx.jobs.register<{ runId: string }>(
    EVALUATION_JOB,
    async ({ payload, signal, progress }) => {
      const run = await repo.findRun(ctx.database.reader, payload.runId)
      if (!run || isFinished(run.status)) return null
      // Started only if still open: a cancel committed since the read above leaves the run cancelled.
      const started = await ctx.database.transact((tx) =>
        repo.updateOpenRun(tx, run.id, { status: 'running', startedAt: run.startedAt ?? nowIso() }),
      )
      if (!started) return null
      let user: AuthUser
      try {
        user = { ...(await ctx.auth.me(run.createdBy)), tokenId: '' }
      } catch {
        await closeRun(ctx.database, run.id, 'failed', 'The user who started the run no longer exists.')
        return null
      }
      const scored = await repo.scoredSampleIds(ctx.database.reader, run.id)
      const pending = (await repo.allItems(ctx.database.reader, run.datasetId)).filter(
        (item) => !scored.has(item.id),
      )
      let next = 0
      const worker = async () => {
        while (!signal.aborted) {
          const item = pending[next++]
          if (!item) return
          const done = await evaluateSample(ctx, deps, run, user, item, signal)
          if (done !== null) progress({ total: run.total, done })
        }
      }
      await Promise.all(Array.from({ length: run.concurrency }, worker))
      if (!signal.aborted) await closeRun(ctx.database, run.id, 'succeeded')
      return { runId: run.id }
    },
    { maxAttempts: 5 },
  )
  // A job the runner gave up on leaves its run failed rather than running forever: in the transaction that fails
  // the job, so a process dying right after that commit leaves no open run without a job to close it.
  ctx.jobs.onJobChange(async (tx, row) => {
    if (row.type !== EVALUATION_JOB || row.status !== 'failed') return
    const runId = (row.payload as { runId?: string } | null)?.runId
    if (runId) await closeRunIn(tx, runId, 'failed', row.error ?? 'The evaluation job failed.')
  })
}

/** Runs, scores and stores one sample; returns the run's new count of done samples, or null if nothing was stored. */
async function evaluateSample(
  ctx: AppContext,
  deps: EvaluationDeps,
  run: repo.RunRow,
  user: AuthUser,
  item: repo.ItemRow,
  signal: AbortSignal,
): Promise<number | null> {
  const started = Date.now()
  let output: string | null = null
  let error: string | null = null
  try {
    const reply = await deps.chat.complete({ user, agentId: run.agentId, message: item.input, signal })
    output = reply.content
    error = reply.error
  } catch (failure) {
    error = failure instanceof Error ? failure.message : String(failure)
  }
  const latencyMs = Date.now() - started

  let rule: ReturnType<typeof ruleScore> | null = null
  let judgeScore: number | null = null
  let judgeRationale: string | null = null
  let judgeError: string | null = null
  if (error === null && output !== null) {
    rule = ruleScore(item.expected, output)
    const verdict = await judgeSample(
      deps.models,
      { provider: run.judgeProvider ?? BUILTIN_JUDGE.provider, model: run.judgeModel ?? BUILTIN_JUDGE.model },
      { input: item.input, expected: item.expected, output },
      signal,
    )
    if ('error' in verdict) judgeError = verdict.error
    else {
      judgeScore = verdict.score
      judgeRationale = verdict.rationale
    }
  }

  // Cut off by the job stopping (a cancel, or a shutdown that hands the job back): the sample is not scored on a
  // cut-off answer, and a resumed run asks it again.
  if (signal.aborted) return null
  return ctx.database.transact(async (tx) => {
    if (!(await repo.holdRunningRun(tx, run.id))) return null
    const stored = await repo.insertResult(tx, {
      runId: run.id,
      sampleId: item.id,
      ordinal: item.ordinal,
      input: item.input,
      expected: item.expected,
      output,
      ruleScore: rule?.score ?? null,
      ruleDetails: rule?.details ?? null,
      judgeScore,
      judgeRationale,
      judgeError,
      passed: error === null && passes(rule?.score ?? null, judgeScore),
      latencyMs,
      error,
    })
    if (!stored) return null
    const done = await repo.countResults(tx, run.id)
    await repo.updateRun(tx, run.id, { done })
    return done
  })
}
