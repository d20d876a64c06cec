import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import type { Static, TSchema } from 'typebox'
import { Value } from 'typebox/value'
import { type GrantableResource, type Resource, requireAccessGrantable } from '../../access'
import { type AdminAction, recordAdminAction } from '../../admin-audit'
import type { AuthUser } from '../../auth'
import { holdsAssetGrant } from '../../marketplace'
import type { AppContext } from '../../platform/app-context'
import { type EngineDb, nowIso } from '../../platform/db'
import { CommonErrors } from '../../platform/errors'
import { type ReceivedFile, sniffFileMimeType } from '../../platform/http'
import { findJobByPayload } from '../../platform/jobs'
import { AgentRunErrors } from './runs.errors'
import type { AgentRunRow, RuntimeAgentRow, RuntimeAgentVersionRow } from './runs.repository'
import * as repo from './runs.repository'
import { BaseAgentConfig, type ExecutionPolicy, type InputSlot } from './runs.schemas'
import type { RUNTIME_AGENT_TYPES } from './runs.tables'

export type RuntimeAgentType = (typeof RUNTIME_AGENT_TYPES)[number]
export const AGENT_RUN_JOB = 'agent-run'

export interface ExecutionResult {
  output: unknown
  pdfSha256: string | null
  pageCount: number | null
}

/** A runtime agent's config as its type reads it: the base keys and the keys its type adds. */
export type AgentConfig<Keys extends TSchema> = BaseAgentConfig & Static<Keys>

/** A run's step, and for page-by-page steps the page it is on and how many it has. */
export interface RunProgress {
  step: string
  page?: number
  pages?: number
  pages_read?: number
}

/** A run the server stopped under this many times (killed, out of memory) is failed rather than resumed again. */
export const MAX_RUN_CRASHES = 2

/** How one runtime agent type validates its config and executes a run; registered by the domain that owns it. */
export interface RunExecutor<Keys extends TSchema> {
  /** The keys this type adds to the base config: a stored config is read against them before a run. */
  configSchema: Keys
  /** Problems with a config beyond the base shape, as messages; empty when valid. */
  validateConfig(config: unknown): string[]
  execute(input: {
    run: AgentRunRow
    config: AgentConfig<Keys>
    source: Buffer
    signal: AbortSignal
    /** Where the run is (kept with its job, so a run the server stopped under can say where it stopped). */
    progress(progress: RunProgress): void
  }): Promise<ExecutionResult>
  /** Runs inside the transaction that marks the run completed. */
  onCompleted?(
    tx: EngineDb,
    run: AgentRunRow,
    result: ExecutionResult,
    config: AgentConfig<Keys>,
  ): Promise<void>
}

/** A registered type with one run's config read once, so the service need not know the type's keys. */
interface ConfiguredRun {
  config: BaseAgentConfig
  execute(input: {
    run: AgentRunRow
    source: Buffer
    signal: AbortSignal
    progress(progress: RunProgress): void
  }): Promise<ExecutionResult>
  onCompleted(tx: EngineDb, run: AgentRunRow, result: ExecutionResult): Promise<void>
}

interface RegisteredType {
  validateConfig(config: unknown): string[]
  configure(config: unknown): ConfiguredRun
}

export interface ShippedDefinition {
  key: string
  name: string
  type: RuntimeAgentType
  config: unknown
}

/** A config's identity: its JSON as stored (key order kept), hashed. */
const configSha = (config: unknown) => createHash('sha256').update(JSON.stringify(config)).digest('hex')

/**
 * A stored config read as its type's; from here on the config is typed. Configs are validated when written, so a
 * mismatch is a version stored before its type's schema changed (or edited in the database): not the caller's
 * mistake, but a state only an admin's corrected version ends, so a 409 that names the problems rather than a 500.
 */
export function readConfig<Keys extends TSchema>(config: unknown, keys: Keys): AgentConfig<Keys> {
  if (Value.Check(BaseAgentConfig, config) && Value.Check(keys, config)) return config
  const problems = [BaseAgentConfig, keys].flatMap((schema) => schemaProblems(schema, config))
  throw AgentRunErrors.STORED_CONFIG_INVALID(
    { problems },
    `The stored config of this runtime agent version does not match its type (${problems.join('; ')}); publish a corrected version.`,
  )
}

/** Where a value breaks a schema, one message per problem. */
function schemaProblems(schema: TSchema, value: unknown): string[] {
  return [...Value.Errors(schema, value)].map((e) => `${e.instancePath || '/'} ${e.message}`)
}

export function slotOf(config: BaseAgentConfig): InputSlot {
  return config.input_slots[0] as InputSlot
}
export function policyOf(config: BaseAgentConfig): ExecutionPolicy {
  return config.execution_policy
}

/**
 * A document agent as the access rules see it (`document_agent.run`): reviewers run every one, anyone else needs
 * a marketplace grant of it. Its owner has no right of their own: document agents are made by admins, who review.
 */
export function documentAgentResource(
  db: EngineDb,
  agentId: string,
  denied: Resource['denied'],
): GrantableResource {
  return {
    ownerId: null,
    isGranted: (userId) => holdsAssetGrant(db, userId, 'document_agent', agentId),
    denied,
  }
}

export async function findRuntimeAgentOwnerId(db: EngineDb, runtimeAgentId: string): Promise<string | null> {
  return (await repo.findAgent(db, runtimeAgentId))?.ownerId ?? null
}

export type AgentRunService = ReturnType<typeof createAgentRunService>

/** An admin's change to a runtime agent, logged in the transaction that makes it. */
function recordAgentAction(
  tx: EngineDb,
  actorId: string,
  action: 'create' | 'version.create' | 'version.publish',
  agentId: string,
  change: Pick<AdminAction, 'before' | 'after'>,
): Promise<void> {
  return recordAdminAction(tx, {
    actorId,
    action: `runtime_agent.${action}`,
    targetType: 'runtime_agent',
    targetId: agentId,
    ...change,
  })
}

/**
 * The generic agent-run subsystem: versioned runtime agents, and runs of them on the durable job runner.
 * A run's whole flow is one job; its `max_attempts` is the job's, so a crash mid-run resumes.
 */
export function createAgentRunService(ctx: AppContext) {
  const { database } = ctx
  const db = database.reader
  ctx.blobs.addHolder((sha256) => repo.runUsesBlob(db, sha256))
  const executors = new Map<string, RegisteredType>()

  function executorOf(type: string): RegisteredType {
    const executor = executors.get(type)
    if (!executor) throw new Error(`No executor for runtime agent type ${type}.`)
    return executor
  }

  function checkConfig(type: string, config: unknown): void {
    const problems = Value.Check(BaseAgentConfig, config)
      ? executorOf(type).validateConfig(config)
      : schemaProblems(BaseAgentConfig, config)
    if (problems.length > 0) throw AgentRunErrors.INVALID_AGENT_CONFIG({ problems })
  }

  async function getAgent(id: string): Promise<RuntimeAgentRow> {
    const agent = await repo.findAgent(db, id)
    if (!agent) throw CommonErrors.RUNTIME_AGENT_NOT_FOUND({ runtime_agent_id: id })
    return agent
  }

  /**
   * The agent still runs what was shipped: its published config is the one last installed from the release
   * (installs before the sha was kept: it never had a second version).
   */
  async function runsShippedConfig(agent: RuntimeAgentRow): Promise<boolean> {
    const versions = await repo.listVersions(db, agent.id)
    const published = versions.find((v) => v.id === agent.publishedVersionId)
    if (!published) return false
    return agent.shippedConfigSha
      ? configSha(published.config) === agent.shippedConfigSha
      : versions.length === 1
  }

  async function publishedVersionOf(agent: RuntimeAgentRow): Promise<RuntimeAgentVersionRow> {
    const version = agent.publishedVersionId ? await repo.findVersion(db, agent.publishedVersionId) : null
    if (!version) throw AgentRunErrors.AGENT_NOT_PUBLISHED({ runtime_agent_id: agent.id })
    return version
  }

  async function getRun(id: string): Promise<AgentRunRow> {
    const run = await repo.findRun(db, id)
    if (!run) throw CommonErrors.RUN_NOT_FOUND({ run_id: id })
    return run
  }

  /** The agent, when the user may run it; else 403. */
  async function runnableAgent(user: AuthUser, agentId: string): Promise<RuntimeAgentRow> {
    const agent = await getAgent(agentId)
    await requireAccessGrantable(
      user,
      'document_agent.run',
      documentAgentResource(ctx.database.reader, agent.id, () => CommonErrors.FORBIDDEN()),
    )
    return agent
  }

  /** The run, when the user started it or may run its agent; any other run is absent for them. */
  async function readableRun(user: AuthUser, id: string): Promise<AgentRunRow> {
    const run = await getRun(id)
    await requireAccessGrantable(user, 'document_agent.run', {
      ...documentAgentResource(ctx.database.reader, run.runtimeAgentId, () =>
        CommonErrors.NOT_FOUND({ run_id: run.id }, 'No such run.'),
      ),
      ownerId: run.createdById,
    })
    return run
  }

  /**
   * Where each run this process is executing is now: what its job records, read without the database. On SQLite
   * this process runs every run; on PostgreSQL another instance's runs are read from their job rows.
   */
  const live = new Map<string, RunProgress>()

  async function handleJob({
    job,
    payload,
    signal,
    progress,
  }: {
    job: { attempts: number; maxAttempts: number; crashes: number; progress: Record<string, unknown> | null }
    payload: { runId: string }
    signal: AbortSignal
    progress(progress: Record<string, unknown>): void
  }) {
    const run = await repo.findRun(db, payload.runId)
    if (!run || run.status === 'completed' || run.status === 'failed') return
    // The document itself may be what stops the server: reading it a third time would stop it again.
    if (job.crashes >= MAX_RUN_CRASHES) return failUnfinished(run.id, job, null)
    const version = (await repo.findVersion(db, run.agentVersionId)) as RuntimeAgentVersionRow
    let configured: ConfiguredRun
    try {
      configured = executorOf(run.agentTypeSnapshot).configure(version.config)
    } catch (error) {
      // A config that does not read as its type will not on a retry either: the run fails now, not queued forever.
      await database.transact((tx) =>
        repo.updateRun(tx, run.id, {
          status: 'failed',
          errorMessage: error instanceof Error ? error.message : String(error),
          completedAt: nowIso(),
        }),
      )
      return
    }
    const policy = policyOf(configured.config)
    await database.transact((tx) => repo.markRunning(tx, run.id, job.attempts))
    try {
      if (!ctx.blobs.has(run.sourceSha256)) throw new Error('The source document is no longer stored.')
      const source = await ctx.blobs.readBytes(run.sourceSha256)
      const result = await configured.execute({
        run,
        source,
        signal: AbortSignal.any([signal, AbortSignal.timeout(policy.timeout_ms)]),
        progress: (where) => {
          live.set(run.id, { ...where })
          progress({ ...where })
        },
      })
      if (signal.aborted) throw signal.reason
      await database.transact(async (tx) => {
        await repo.updateRun(tx, run.id, {
          status: 'completed',
          output: result.output,
          pdfSha256: result.pdfSha256,
          pageCount: result.pageCount,
          errorMessage: null,
          completedAt: nowIso(),
        })
        await configured.onCompleted(tx, run, result)
      })
    } catch (error) {
      // Shutdown or cancellation: the job runner hands the job back; the run stays as it is.
      if (signal.aborted) throw error
      const message = describeFailure(error, policy)
      if (job.attempts >= job.maxAttempts) {
        await database.transact((tx) =>
          repo.updateRun(tx, run.id, { status: 'failed', errorMessage: message, completedAt: nowIso() }),
        )
        return
      }
      await database.transact((tx) => repo.updateRun(tx, run.id, { status: 'queued', errorMessage: message }))
      throw error
    } finally {
      live.delete(run.id)
    }
  }

  /** Fails a run its job will not run again: after crashes, naming where it was, else for `reason`. */
  async function failUnfinished(
    runId: string,
    job: { crashes: number; progress: Record<string, unknown> | null },
    reason: string | null,
  ): Promise<void> {
    const message =
      job.crashes > 0 || !reason ? crashMessage(job.crashes, job.progress as RunProgress | null) : reason
    await database.transact(async (tx) => {
      const run = await repo.findRun(tx, runId)
      if (!run || run.status === 'completed' || run.status === 'failed') return
      await repo.updateRun(tx, run.id, { status: 'failed', errorMessage: message, completedAt: nowIso() })
    })
  }

  ctx.jobs.register(AGENT_RUN_JOB, handleJob, {
    onGiveUp: (job, reason) => failUnfinished((job.payload as { runId: string }).runId, job, reason),
  })

  return {
    registerExecutor<Keys extends TSchema>(type: RuntimeAgentType, executor: RunExecutor<Keys>) {
      executors.set(type, {
        validateConfig: (config) => executor.validateConfig(config),
        configure(stored) {
          const config = readConfig(stored, executor.configSchema)
          return {
            config,
            execute: (input) => executor.execute({ ...input, config }),
            onCompleted: async (tx, run, result) => executor.onCompleted?.(tx, run, result, config),
          }
        },
      })
    },
    getAgent,
    publishedVersionOf,
    getRun,
    runnableAgent,
    readableRun,
    findRun: (id: string) => repo.findRun(db, id),
    /**
     * Where a running run is (its step; pages read and to read in a page-by-page step), null when not running:
     * from memory when this process runs it, else (another instance on PostgreSQL) as its job last recorded.
     */
    progressOf: async (runId: string): Promise<RunProgress | null> =>
      live.get(runId) ?? (database.engine === 'postgres' ? recordedProgress(db, runId) : null),
    findAgent: (id: string) => repo.findAgent(db, id),
    listAgents: (ids?: string[]) => repo.listAgents(db, ids),
    listVersions: (agentId: string) => repo.listVersions(db, agentId),
    usernamesOf: (ids: string[]) => ctx.auth.usernamesOf(ids),

    async createAgent(actorId: string, input: { name: string; type: RuntimeAgentType; config?: unknown }) {
      if (input.config !== undefined) checkConfig(input.type, input.config)
      return database.transact(async (tx) => {
        const agent = await repo.insertAgent(tx, { name: input.name, type: input.type, ownerId: actorId })
        if (input.config !== undefined) await repo.insertVersion(tx, agent.id, input.config)
        await recordAgentAction(tx, actorId, 'create', agent.id, {
          after: { name: agent.name, type: agent.type },
        })
        return agent
      })
    },

    async createVersion(actorId: string, agentId: string, config: unknown) {
      const agent = await getAgent(agentId)
      checkConfig(agent.type, config)
      return database.transact(async (tx) => {
        const version = await repo.insertVersion(tx, agent.id, config)
        await recordAgentAction(tx, actorId, 'version.create', agent.id, {
          after: { version_id: version.id, version: version.version },
        })
        return version
      })
    },

    async publishVersion(actorId: string, agentId: string, versionId: string) {
      const agent = await getAgent(agentId)
      const version = await repo.findVersion(db, versionId)
      if (!version || version.agentId !== agent.id)
        throw AgentRunErrors.RUNTIME_AGENT_VERSION_NOT_FOUND({ version_id: versionId })
      if (version.status !== 'draft')
        throw AgentRunErrors.VERSION_NOT_PUBLISHABLE({ version_id: versionId, status: version.status })
      return database.transact(async (tx) => {
        await repo.publishVersion(tx, agent.id, version.id)
        await recordAgentAction(tx, actorId, 'version.publish', agent.id, {
          before: { published_version_id: agent.publishedVersionId },
          after: { published_version_id: version.id },
        })
        return (await repo.findVersion(tx, version.id)) as RuntimeAgentVersionRow
      })
    },

    /**
     * Installs each shipped definition not installed yet (by its key), published as version 1, and brings
     * installed ones up to date: when the shipped config changed in a new release and the agent still runs the
     * config it was installed with (no admin published another), the new config becomes the next published
     * version. An agent an admin changed is left as it is. Returns the agents installed now, so their owner
     * domain can register them.
     */
    async installShippedDefinitions(dir: string): Promise<RuntimeAgentRow[]> {
      const files = readdirSync(dir).filter((name) => name.endsWith('.json'))
      const installed: RuntimeAgentRow[] = []
      for (const file of files.sort()) {
        const definition = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as ShippedDefinition
        checkConfig(definition.type, definition.config)
        const shippedSha = configSha(definition.config)
        const existing = await repo.findAgentByDefinitionKey(db, definition.key)
        if (existing) {
          if (existing.shippedConfigSha !== shippedSha && (await runsShippedConfig(existing)))
            await database.transact(async (tx) => {
              const version = await repo.insertVersion(tx, existing.id, definition.config)
              await repo.publishVersion(tx, existing.id, version.id)
              await repo.setShippedConfigSha(tx, existing.id, shippedSha)
            })
          continue
        }
        const added = await database.transact(async (tx) => {
          const agent = await repo.insertShippedAgent(tx, {
            name: definition.name,
            type: definition.type,
            definitionKey: definition.key,
            shippedConfigSha: shippedSha,
          })
          // Another instance starting beside this one installed it first.
          if (!agent) return null
          const version = await repo.insertVersion(tx, agent.id, definition.config)
          await repo.publishVersion(tx, agent.id, version.id)
          return (await repo.findAgent(tx, agent.id)) as RuntimeAgentRow
        })
        if (added) installed.push(added)
      }
      return installed
    },

    /**
     * Validates the upload against the published version's slot and policy (or the given version's), stores the
     * source once, and queues the run. `reuse` reruns a stored source without a new upload, if the version's slot
     * accepts its type.
     */
    async createRun(input: {
      agent: RuntimeAgentRow
      createdById: string
      file?: ReceivedFile
      reuse?: AgentRunRow
      version?: RuntimeAgentVersionRow
      afterInsert?: (tx: EngineDb, run: AgentRunRow) => Promise<void>
    }): Promise<AgentRunRow> {
      const version = input.version ?? (await publishedVersionOf(input.agent))
      const config = readConfig(version.config, BaseAgentConfig)
      const slot = slotOf(config)
      const policy = policyOf(config)
      let source: { sha256: string; fileName: string; mimeType: string }
      if (input.reuse) {
        if (!slot.accepts.includes(input.reuse.mimeType))
          throw CommonErrors.UNSUPPORTED_FILE_TYPE({ detected: input.reuse.mimeType, accepts: slot.accepts })
        source = {
          sha256: input.reuse.sourceSha256,
          fileName: input.reuse.fileName,
          mimeType: input.reuse.mimeType,
        }
      } else {
        const file = input.file
        if (!file) throw AgentRunErrors.MISSING_UPLOAD_FIELD({ field: slot.key })
        if (file.size === 0) throw CommonErrors.EMPTY_FILE()
        if (file.size > policy.max_file_mb * 1024 * 1024)
          throw CommonErrors.FILE_TOO_LARGE(
            { max_file_mb: policy.max_file_mb },
            `The file is ${(file.size / 1024 / 1024).toFixed(1)} MB; this agent accepts up to ${policy.max_file_mb} MB.`,
          )
        const mimeType = await sniffFileMimeType(file.path)
        if (!mimeType || !slot.accepts.includes(mimeType))
          throw CommonErrors.UNSUPPORTED_FILE_TYPE({ detected: mimeType, accepts: slot.accepts })
        const stored = await ctx.blobs.adopt(file.path, file)
        source = { sha256: stored.sha256, fileName: file.fileName, mimeType }
      }
      const run = await database.transact(async (tx) => {
        const row = await repo.insertRun(tx, {
          runtimeAgentId: input.agent.id,
          agentVersionId: version.id,
          agentTypeSnapshot: input.agent.type,
          inputSlot: input.reuse?.runtimeAgentId === input.agent.id ? input.reuse.inputSlot : slot.key,
          sourceSha256: source.sha256,
          fileName: source.fileName,
          mimeType: source.mimeType,
          rerunSourceRunId: input.reuse?.id ?? null,
          createdById: input.createdById,
        })
        await input.afterInsert?.(tx, row)
        await ctx.jobs.enqueue(tx, AGENT_RUN_JOB, { runId: row.id }, { maxAttempts: policy.max_attempts })
        return row
      })
      return run
    },
  }
}

/** The progress a run's running job last recorded, on whichever instance runs it; null when none runs. */
async function recordedProgress(db: EngineDb, runId: string): Promise<RunProgress | null> {
  const job = await findJobByPayload(db, {
    type: AGENT_RUN_JOB,
    field: 'runId',
    value: runId,
    statuses: ['running'],
  })
  return (job?.progress as RunProgress | null | undefined) ?? null
}

/** Why a run the server stopped under is not resumed, naming the step and page it was on. */
function crashMessage(crashes: number, where: RunProgress | null): string {
  const at = where?.page ? `page ${where.page} (${where.step})` : (where?.step ?? 'an unknown step')
  const code = where?.step === 'ocr' ? 'OCR_FAILED' : 'RUN_CRASHED'
  return `${code}: the server stopped ${crashes} times while this run was at ${at}; it is not resumed again.`
}

function describeFailure(error: unknown, policy: ExecutionPolicy): string {
  if (error instanceof DOMException && error.name === 'TimeoutError')
    return `The run took longer than its ${policy.timeout_ms} ms limit.`
  return error instanceof Error ? error.message : String(error)
}
