import path from 'node:path'
import sharp from 'sharp'
import { reachesEvery, requireAccess, requireAccessGrantable } from '../access'
import { recordAdminAction } from '../admin-audit'
import type { ModelRegistry } from '../ai'
import type { AuthUser } from '../auth'
import type { AppContext } from '../platform/app-context'
import { CommonErrors } from '../platform/errors'
import { type PageQuery, pageWindow, type ReceivedFile, toPage } from '../platform/http'
import { readConfigValue } from '../settings'
import { RecognitionErrors } from './document-recognition.errors'
import * as repo from './document-recognition.repository'
import type {
  FieldReviewPatch,
  ReadRegionBody,
  RerunBody,
  RunCountsQuery,
  RunExportQuery,
  RunListQuery,
} from './document-recognition.schemas'
import { type Bbox, REVIEW_STATUSES } from './document-recognition.tables'
import { ExtractionConfig, lowConfidenceThreshold } from './extraction/field-config'
import { locateValue } from './extraction/locate'
import { earnedConfidence } from './learning/hints'
import { judgeLearned, learnFromPage } from './learning/learning'
import { renderPage } from './pipeline/document-pages'
import type { ReadingProcesses } from './pipeline/reading-processes'
import { type DocumentExecution, documentExtractionExecutor } from './pipeline/run-extraction'
import { type ExportedRun, exportColumns, exportCsv, exportJson } from './review/export'
import { pagesOf, readRegion } from './review/page-words'
import {
  presentDocumentRun,
  presentFieldReview,
  presentRevision,
  reviewStatusOf,
} from './review/review.presenters'
import { createReviewService } from './review/review.service'
import { RunFeed } from './review/run-feed'
import { seedReview } from './review/seed'
import { readTypedValue, valueInText } from './review/typed-value'
import type { AgentRunRow, RuntimeAgentRow } from './runs/runs.repository'
import { BaseAgentConfig } from './runs/runs.schemas'
import {
  type AgentRunService,
  documentAgentResource,
  policyOf,
  readConfig,
  slotOf,
} from './runs/runs.service'

/** Preview pages are rendered at 1.5x their size in points (108 dpi): readable, and light to send. */
const PREVIEW_SCALE = 1.5

export type DocumentRecognitionService = Awaited<ReturnType<typeof createDocumentRecognitionService>>

export async function createDocumentRecognitionService(
  ctx: AppContext,
  deps: {
    agentRuns: AgentRunService
    models?: ModelRegistry
    reading: ReadingProcesses
    shippedDefinitionsDir: string
  },
) {
  const { database } = ctx
  const db = database.reader
  const { agentRuns } = deps
  // Every move of a run's job (queued, running, completed, failed) and every review action reaches the live feed,
  // on every instance, announced in the transaction that makes it.
  const feed = new RunFeed(ctx.events)
  ctx.jobs.onJobChange((tx, job) => {
    const runId = (job.payload as { runId?: unknown } | null)?.runId
    if (typeof runId === 'string') return feed.publishIn(tx, runId)
  })
  const reviews = createReviewService(database, feed)

  agentRuns.registerExecutor('document_extraction', {
    ...documentExtractionExecutor(ctx, { models: deps.models, reading: deps.reading }),
    async onCompleted(tx, run, result, config) {
      const sampleRate =
        config.review_sample_rate ??
        (await repo.findRegistryEntry(tx, run.runtimeAgentId))?.reviewSampleRate ??
        0
      await seedReview(tx, run, config, result as DocumentExecution, {
        sampleRate,
        serverThreshold: ctx.config.lowConfidenceThreshold,
        learningConfirmations: await readConfigValue(tx, 'learning_confirmations_required'),
      })
    },
  })

  /** Installs the shipped agents not installed yet and registers them: once, before the routes answer. */
  async function installShipped() {
    for (const agent of await agentRuns.installShippedDefinitions(deps.shippedDefinitionsDir))
      await database.transact((tx) =>
        repo.upsertRegistryEntry(tx, agent.id, { displayName: agent.name, enabled: true }),
      )
  }

  function presentRegistryEntry(entry: repo.RegistryRow, agent: RuntimeAgentRow) {
    return {
      agent_id: entry.agentId,
      runtime_agent_id: entry.agentId,
      display_name: entry.displayName,
      enabled: entry.enabled,
      review_sample_rate: entry.reviewSampleRate,
      type: agent.type,
      published_version_id: agent.publishedVersionId,
      created_at: entry.createdAt,
      updated_at: entry.updatedAt,
    }
  }

  /** What the admin audit log keeps of a registry entry, before and after a change. */
  function registryAudit(entry: repo.RegistryRow) {
    return {
      display_name: entry.displayName,
      enabled: entry.enabled,
      review_sample_rate: entry.reviewSampleRate,
    }
  }

  async function registeredAgent(agentId: string, requireEnabled: boolean) {
    const entry = await repo.findRegistryEntry(db, agentId)
    if (!entry || (requireEnabled && !entry.enabled))
      throw CommonErrors.RUNTIME_AGENT_NOT_FOUND({ runtime_agent_id: agentId })
    return { entry, agent: await agentRuns.getAgent(agentId) }
  }

  /** The registered, enabled agent, when the user may run it: checked before an upload's file is read. */
  async function runnableAgent(user: AuthUser, agentId: string): Promise<RuntimeAgentRow> {
    await requireAccessGrantable(
      user,
      'document_agent.run',
      documentAgentResource(ctx.database.reader, agentId, () =>
        CommonErrors.FORBIDDEN({ permission: 'document_recognition.review' }),
      ),
    )
    return (await registeredAgent(agentId, true)).agent
  }

  /** A version of the agent a run may use: any that was published (the current or a retired one), not a draft. */
  async function runnableVersion(agent: RuntimeAgentRow, number: number) {
    const version = (await agentRuns.listVersions(agent.id)).find((v) => v.version === number)
    if (!version) throw RecognitionErrors.VERSION_NOT_FOUND({ runtime_agent_id: agent.id, version: number })
    if (version.status === 'draft') throw RecognitionErrors.VERSION_NOT_RUNNABLE({ version: number })
    return version
  }

  /** A run of a registered runtime agent (whichever endpoint created it). */
  async function getRun(runId: string): Promise<AgentRunRow> {
    const run = await agentRuns.findRun(runId)
    if (!run || !(await repo.findRegistryEntry(db, run.runtimeAgentId)))
      throw CommonErrors.RUN_NOT_FOUND({ run_id: runId })
    return run
  }

  async function configOf(run: AgentRunRow) {
    const version = (await agentRuns.listVersions(run.runtimeAgentId)).find(
      (v) => v.id === run.agentVersionId,
    )
    return version ? readConfig(version.config, ExtractionConfig) : undefined
  }

  async function definitionOf(run: AgentRunRow, fieldKey: string) {
    return (await configOf(run))?.fields.find((f) => f.key === fieldKey)
  }

  /**
   * Accepts the run's open fields in one action (see `acceptOpenFields`); accepting a learned value confirms its
   * hint, as accepting it alone does.
   */
  async function acceptFields(runId: string, actorId: string, options: { approve: boolean }) {
    const run = await getRun(runId)
    const config = await configOf(run)
    const minConfidence =
      options.approve || !config ? 0 : lowConfidenceThreshold(config, ctx.config.lowConfidenceThreshold)
    const learned = (await repo.listFieldReviews(db, run.id)).some((f) => f.source === 'learned')
    const pages = learned ? await pagesOf(ctx, run) : []
    await reviews.acceptOpenFields(run, actorId, { ...options, minConfidence }, async (tx, accepted) => {
      for (const field of accepted)
        if (field.source === 'learned') await judgeLearned(tx, run, field, pages, 'accepted')
    })
    return detail(run)
  }

  /** An approved run as an export row: its current values, who approved it last and when. */
  async function exportedRun(run: AgentRunRow, fields: repo.FieldReviewRow[]): Promise<ExportedRun> {
    const review = await repo.findRunReview(db, run.id)
    const approval = await repo.lastApproval(db, run.id)
    const usernames = await agentRuns.usernamesOf(approval ? [approval.actorId] : [])
    return {
      run_id: run.id,
      file_name: run.fileName,
      runtime_agent_id: run.runtimeAgentId,
      agent_version_id: run.agentVersionId,
      uploaded_at: run.createdAt,
      approved_by: approval
        ? { id: approval.actorId, username: usernames.get(approval.actorId) ?? 'deleted user' }
        : null,
      approved_at: review?.reviewedAt ?? null,
      synced_at: review?.syncedAt ?? null,
      fields: Object.fromEntries(fields.map((f) => [f.fieldKey, f.value ?? null])),
      not_on_document: fields.filter((f) => f.reviewStatus === 'not_on_document').map((f) => f.fieldKey),
    }
  }

  async function exportOf(runs: AgentRunRow[], format: 'csv' | 'json') {
    const withFields: { run: AgentRunRow; fields: repo.FieldReviewRow[] }[] = []
    for (const run of runs) withFields.push({ run, fields: await repo.listFieldReviews(db, run.id) })
    const columns = exportColumns(withFields)
    const rows: ExportedRun[] = []
    for (const { run, fields } of withFields) rows.push(await exportedRun(run, fields))
    return format === 'csv'
      ? { body: exportCsv(columns, rows), mimeType: 'text/csv; charset=utf-8' }
      : { body: exportJson(columns, rows), mimeType: 'application/json; charset=utf-8' }
  }

  /** A box must have a page within the run, and a page number a box. */
  function checkPlacement(run: AgentRunRow, field: repo.FieldReviewRow, patch: FieldReviewPatch) {
    if (patch.bbox) checkBox(patch.bbox)
    const pageNumber = patch.page_number !== undefined ? patch.page_number : field.pageNumber
    if (patch.bbox && pageNumber === null)
      throw CommonErrors.VALIDATION_ERROR({ page_number: 'is required with a bbox' })
    if (pageNumber !== null && patch.page_number !== undefined && pageNumber > (run.pageCount ?? 0))
      throw RecognitionErrors.PAGE_NOT_FOUND({ page_number: pageNumber })
  }

  async function detail(run: AgentRunRow) {
    const fields = await repo.listFieldReviews(db, run.id)
    const usernames = await agentRuns.usernamesOf([
      ...new Set(fields.flatMap((f) => (f.lastRevisedById ? [f.lastRevisedById] : []))),
    ])
    return presentDocumentRun(
      run,
      await repo.findRunReview(db, run.id),
      fields,
      ctx.blobs.has(run.sourceSha256),
      usernames,
      await repo.lastRejectReason(db, run.id),
      run.status === 'running' ? await agentRuns.progressOf(run.id) : null,
    )
  }

  async function listRuns(query: RunListQuery, registeredOnly: boolean) {
    const { page, size, ...filters } = query
    const pageQuery: PageQuery = { page, size }
    const { rows, total } = await repo.listRuns(db, filters, registeredOnly, pageWindow(pageQuery))
    const details = []
    for (const row of rows) details.push(await detail(row))
    return toPage(details, total, pageQuery)
  }

  /** A run as the feed sends it; runs of other domains' jobs or unregistered agents are not sent. */
  async function feedView(runId: string) {
    const run = await agentRuns.findRun(runId)
    return run && (await repo.findRegistryEntry(db, run.runtimeAgentId)) ? detail(run) : null
  }

  await installShipped()

  return {
    feed,
    feedView,

    async listRegisteredAgents() {
      const entries = await repo.listRegistry(db, true)
      const agents = new Map(
        (await agentRuns.listAgents(entries.map((e) => e.agentId))).map((a) => [a.id, a]),
      )
      return entries.flatMap((e) => {
        const agent = agents.get(e.agentId)
        return agent ? [presentRegistryEntry(e, agent)] : []
      })
    },

    async listRegistry() {
      const entries = await repo.listRegistry(db, false)
      const agents = new Map(
        (await agentRuns.listAgents(entries.map((e) => e.agentId))).map((a) => [a.id, a]),
      )
      return entries.flatMap((e) => {
        const agent = agents.get(e.agentId)
        return agent ? [presentRegistryEntry(e, agent)] : []
      })
    },

    async agentDetail(agentId: string) {
      const { entry, agent } = await registeredAgent(agentId, true)
      const versions = await agentRuns.listVersions(agent.id)
      const version = agent.publishedVersionId
        ? versions.find((v) => v.id === agent.publishedVersionId)
        : undefined
      const config = version ? readConfig(version.config, BaseAgentConfig) : null
      const slot = config ? slotOf(config) : null
      const policy = config ? policyOf(config) : null
      return {
        ...presentRegistryEntry(entry, agent),
        published_version: version ? { id: version.id, version: version.version } : null,
        versions: versions
          .filter((v) => v.status !== 'draft')
          .map((v) => ({
            id: v.id,
            version: v.version,
            status: v.status as 'published' | 'retired',
            created_at: v.createdAt,
          })),
        upload_slot:
          slot && policy ? { key: slot.key, accepts: slot.accepts, max_file_mb: policy.max_file_mb } : null,
        execution_policy: policy,
      }
    },

    async register(
      actorId: string,
      agentId: string,
      body: { display_name?: string; enabled?: boolean; review_sample_rate?: number },
    ) {
      const agent = await agentRuns.findAgent(agentId)
      if (!agent) throw CommonErrors.RUNTIME_AGENT_NOT_FOUND({ runtime_agent_id: agentId })
      return database.transact(async (tx) => {
        const before = await repo.findRegistryEntry(tx, agentId)
        const entry = await repo.upsertRegistryEntry(tx, agentId, {
          displayName: body.display_name ?? before?.displayName ?? agent.name,
          enabled: body.enabled ?? before?.enabled ?? true,
          reviewSampleRate: body.review_sample_rate ?? before?.reviewSampleRate,
        })
        await recordAdminAction(tx, {
          actorId,
          action: 'document_recognition.registry.put',
          targetType: 'runtime_agent',
          targetId: agentId,
          before: before ? registryAudit(before) : null,
          after: registryAudit(entry),
        })
        return presentRegistryEntry(entry, agent)
      })
    },

    async unregister(actorId: string, agentId: string) {
      await database.transact(async (tx) => {
        const before = await repo.findRegistryEntry(tx, agentId)
        if (!before || !(await repo.deleteRegistryEntry(tx, agentId)))
          throw CommonErrors.RUNTIME_AGENT_NOT_FOUND({ runtime_agent_id: agentId })
        await recordAdminAction(tx, {
          actorId,
          action: 'document_recognition.registry.delete',
          targetType: 'runtime_agent',
          targetId: agentId,
          before: registryAudit(before),
        })
      })
    },

    runnableAgent,

    async createRun(user: AuthUser, agent: RuntimeAgentRow, file: ReceivedFile | undefined) {
      const run = await agentRuns.createRun({ agent, createdById: user.id, file })
      return detail(run)
    },

    listRuns: (query: RunListQuery) => listRuns(query, true),

    /** The queue's tab counts: registered agents' runs per review status under the other filters. */
    async countRuns(query: RunCountsQuery) {
      const by_review_status = Object.fromEntries(REVIEW_STATUSES.map((status) => [status, 0])) as Record<
        (typeof REVIEW_STATUSES)[number],
        number
      >
      let total = 0
      for (const { reviewStatus, runs } of await repo.runCountsByReviewStatus(db, query)) {
        total += runs
        if (reviewStatus) by_review_status[reviewStatus as keyof typeof by_review_status] = runs
      }
      return { total, by_review_status }
    },
    listAllRuns: (query: RunListQuery) => listRuns(query, false),
    getRun: async (runId: string) => detail(await getRun(runId)),
    runOf: getRun,

    /**
     * Reviewers read every run. Someone who recognises documents through a marketplace grant of the document agent
     * (no review permission) reads the runs they started; any other run is absent for them.
     */
    async readableRun(user: AuthUser, runId: string): Promise<void> {
      if (reachesEvery(user, 'document_run.read')) return
      requireAccess(user, 'document_run.read', {
        ownerId: (await getRun(runId)).createdById,
        denied: () => CommonErrors.RUN_NOT_FOUND({ run_id: runId }),
      })
    },

    /**
     * A reviewer's change to a field. A typed value is read strictly by the field's type; a typed value without a
     * box is located on the page (else its old box is dropped); a value taken from the page (box and page) teaches
     * the layout's learned hints, accepting a learned value confirms its hint and typing over it (or marking it
     * not on the document) weakens it.
     */
    async correctField(runId: string, fieldId: string, patch: FieldReviewPatch, actorId: string) {
      const run = await getRun(runId)
      const field = await repo.findFieldReview(db, run.id, fieldId)
      if (!field) throw RecognitionErrors.FIELD_REVIEW_NOT_FOUND({ field_id: fieldId })
      const definition = await definitionOf(run, field.fieldKey)
      if (
        patch.review_status === 'not_on_document' &&
        ((patch.value ?? null) !== null || (patch.bbox ?? null) !== null)
      )
        throw RecognitionErrors.NOT_ON_DOCUMENT_WITH_VALUE({ field_key: field.fieldKey })
      if (definition && patch.value !== undefined && patch.value !== null) {
        const typed = readTypedValue(definition, patch.value)
        if (!typed.ok)
          throw RecognitionErrors.INVALID_FIELD_VALUE(
            { field_key: field.fieldKey, type: definition.type, value: patch.value },
            typed.message,
          )
        patch = { ...patch, value: typed.value }
      }
      checkPlacement(run, field, patch)
      const tookFromPage = Boolean(patch.bbox && patch.value !== undefined && patch.value !== null)
      const valueChanged =
        patch.value !== undefined && JSON.stringify(patch.value) !== JSON.stringify(field.value)
      const learned = field.source === 'learned'
      const confirmsLearned =
        learned && patch.review_status === 'accepted' && field.reviewStatus !== 'accepted' && !valueChanged
      // Typing another value over a learned one, or marking it not on the document, says the hint was wrong.
      const typedOverLearned =
        learned && (valueChanged || patch.review_status === 'not_on_document') && !tookFromPage
      const pages =
        tookFromPage || confirmsLearned || typedOverLearned || (valueChanged && patch.bbox === undefined)
          ? await pagesOf(ctx, run)
          : []
      if (valueChanged && patch.bbox === undefined) {
        const found = definition ? locateValue(definition, pages, patch.value ?? null) : null
        patch = { ...patch, page_number: found?.pageNumber ?? null, bbox: found?.bbox ?? null }
      }
      const taken = tookFromPage
        ? {
            fieldKey: field.fieldKey,
            pageNumber: (patch.page_number ?? field.pageNumber) as number,
            bbox: patch.bbox as Bbox,
            correctsHint: learned && valueChanged,
          }
        : null
      await reviews.correctField(run, fieldId, patch, actorId, async (tx) => {
        if (taken) await learnFromPage(tx, run, taken, pages)
        else if (confirmsLearned) await judgeLearned(tx, run, field, pages, 'accepted')
        else if (typedOverLearned) await judgeLearned(tx, run, field, pages, 'typed_over')
      })
      const updated = (await repo.findFieldReview(db, run.id, fieldId)) as repo.FieldReviewRow
      return presentFieldReview(updated, await agentRuns.usernamesOf([actorId]))
    },

    /** The words inside a box on a page, read for a field without saving anything. */
    async readRegion(runId: string, fieldId: string, body: ReadRegionBody) {
      const run = await getRun(runId)
      const field = await repo.findFieldReview(db, run.id, fieldId)
      if (!field) throw RecognitionErrors.FIELD_REVIEW_NOT_FOUND({ field_id: fieldId })
      checkBox(body.bbox)
      const page = (await pagesOf(ctx, run)).find((p) => p.page_number === body.page_number)
      if (!page) throw RecognitionErrors.PAGE_NOT_FOUND({ page_number: body.page_number })
      const read = await readRegion(ctx, deps.reading.ocr, run, page, body.bbox as Bbox)
      const definition = await definitionOf(run, field.fieldKey)
      const value = definition && read.text ? valueInText(definition, read.text) : null
      // The box of the value's own words, so a region dragged over "Total 1,190.00" boxes the amount only.
      const placed =
        definition && value !== null ? locateValue(definition, [{ ...page, words: read.words }], value) : null
      return { ...read, value, bbox: placed?.bbox ?? read.bbox }
    },

    async pageWords(runId: string, pageNumber: number) {
      const run = await getRun(runId)
      const page = (await pagesOf(ctx, run)).find((p) => p.page_number === pageNumber)
      if (!page) throw RecognitionErrors.PAGE_NOT_FOUND({ page_number: pageNumber })
      return { page_number: page.page_number, origin: page.origin, words: page.words }
    },

    async learnedHints(agentId: string) {
      await registeredAgent(agentId, false)
      return (await repo.listLearnedHints(db, agentId)).map(presentHint)
    },

    async deleteLearnedHints(actorId: string, agentId: string) {
      await registeredAgent(agentId, false)
      await database.transact(async (tx) => {
        const before = await repo.listLearnedHints(tx, agentId)
        await repo.deleteLearnedHints(tx, agentId)
        await recordAdminAction(tx, {
          actorId,
          action: 'document_recognition.learned_hints.delete',
          targetType: 'runtime_agent',
          targetId: agentId,
          before: {
            count: before.length,
            hints: before.map((h) => ({ fingerprint: h.fingerprint, field_key: h.fieldKey })),
          },
          after: { count: 0 },
        })
      })
    },

    async fieldTimeline(runId: string, fieldId: string) {
      const run = await getRun(runId)
      const field = await repo.findFieldReview(db, run.id, fieldId)
      if (!field) throw RecognitionErrors.FIELD_REVIEW_NOT_FOUND({ field_id: fieldId })
      const tracked = (await repo.findRunReview(db, run.id))?.revisionTracking ?? true
      const revisions = tracked ? await repo.listRevisions(db, field.id) : []
      const usernames = await agentRuns.usernamesOf([...new Set(revisions.map((r) => r.actorId))])
      return {
        field_id: field.id,
        field_key: field.fieldKey,
        baseline: {
          value: field.extractedValue ?? null,
          confidence: field.confidence,
          page_number: field.baselinePageNumber,
          bbox: field.baselineBbox ?? null,
        },
        current_value: field.value ?? null,
        current_review_status: field.reviewStatus as 'pending',
        current_reviewer_note: field.reviewerNote,
        history_status: tracked ? ('recorded' as const) : ('unrecorded' as const),
        revisions: revisions.map((r) => presentRevision(r, usernames)),
      }
    },

    acceptConfident: (runId: string, actorId: string) => acceptFields(runId, actorId, { approve: false }),
    approve: (runId: string, actorId: string) => acceptFields(runId, actorId, { approve: true }),

    /** One approved run's result as a CSV or JSON export. */
    async exportRun(runId: string, format: 'csv' | 'json') {
      const run = await getRun(runId)
      const review = await repo.findRunReview(db, run.id)
      if (review?.reviewStatus !== 'approved')
        throw RecognitionErrors.RESULT_NOT_APPROVED({ review_status: reviewStatusOf(review) })
      const base = path.parse(run.fileName).name || 'document'
      return { ...(await exportOf([run], format)), fileName: `${base}-${run.id.slice(0, 8)}.${format}` }
    },

    /** Every approved run the queue's filters match (a filter on another review status matches none), newest first. */
    async exportRuns(query: RunExportQuery) {
      const { format, ...filters } = query
      const runs: AgentRunRow[] = []
      if (!filters.review_status || filters.review_status === 'approved')
        for (let offset = 0; ; offset += EXPORT_BATCH) {
          const { rows } = await repo.listRuns(db, { ...filters, review_status: 'approved' }, true, {
            limit: EXPORT_BATCH,
            offset,
          })
          runs.push(...rows)
          if (rows.length < EXPORT_BATCH) break
        }
      const day = new Date().toISOString().slice(0, 10)
      return { ...(await exportOf(runs, format)), fileName: `approved-runs-${day}.${format}` }
    },

    async sync(runId: string, actorId: string) {
      const run = await getRun(runId)
      await reviews.sync(run, actorId)
      return detail(run)
    },

    async reject(runId: string, input: { reason: string; reviewer?: string }, actorId: string) {
      const run = await getRun(runId)
      await reviews.reject(run, input, actorId)
      return detail(await agentRuns.getRun(run.id))
    },

    /**
     * Reruns a failed or rejected run from its stored source: by default with its agent's published version; else
     * with another registered extractor the user may run, and/or another (published or retired) version of it.
     */
    async rerun(runId: string, user: AuthUser, body: RerunBody = {}) {
      const source = await getRun(runId)
      if (!(await reviews.isRerunnable(source)))
        throw RecognitionErrors.RUN_NOT_RERUNNABLE({
          status: source.status,
          review_status: (await repo.findRunReview(db, source.id))?.reviewStatus ?? null,
        })
      if (!ctx.blobs.has(source.sourceSha256))
        throw RecognitionErrors.SOURCE_UNRECOVERABLE({ run_id: source.id, source_recoverable: false })
      const agentId = body.runtime_agent_id ?? source.runtimeAgentId
      const agent =
        agentId === source.runtimeAgentId
          ? (await registeredAgent(agentId, false)).agent
          : await runnableAgent(user, agentId)
      const version = body.version === undefined ? undefined : await runnableVersion(agent, body.version)
      const target = await agentRuns.createRun({ agent, createdById: user.id, reuse: source, version })
      return { source_run_id: source.id, target_run_id: target.id, target_run: await detail(target) }
    },

    /** The original bytes, or 410 when the stored object is gone. */
    async sourceDocument(runId: string) {
      const run = await getRun(runId)
      if (!ctx.blobs.has(run.sourceSha256))
        throw RecognitionErrors.SOURCE_UNRECOVERABLE({ run_id: run.id, source_recoverable: false })
      return {
        bytes: await ctx.blobs.readBytes(run.sourceSha256),
        mimeType: run.mimeType,
        fileName: run.fileName,
      }
    },

    async sourcePdf(runId: string) {
      const run = await getRun(runId)
      if (!run.pdfSha256) {
        if (!ctx.blobs.has(run.sourceSha256))
          throw RecognitionErrors.SOURCE_UNRECOVERABLE({ run_id: run.id, source_recoverable: false })
        throw RecognitionErrors.PDF_NOT_AVAILABLE({ status: run.status })
      }
      if (!ctx.blobs.has(run.pdfSha256))
        throw RecognitionErrors.SOURCE_UNRECOVERABLE({ run_id: run.id, source_recoverable: false })
      const base = path.parse(run.fileName).name || 'document'
      return {
        bytes: await ctx.blobs.readBytes(run.pdfSha256),
        mimeType: 'application/pdf',
        fileName: `${base}.pdf`,
      }
    },

    /** The reviewed result: current values by key, with each field's details. */
    async result(runId: string) {
      const run = await getRun(runId)
      if (run.status !== 'completed') throw RecognitionErrors.RESULT_NOT_AVAILABLE({ status: run.status })
      const view = await detail(run)
      return {
        run_id: run.id,
        runtime_agent_id: run.runtimeAgentId,
        agent_version_id: run.agentVersionId,
        review_status: view.review_status,
        fields: Object.fromEntries(view.field_reviews.map((f) => [f.field_key, f.value])),
        field_details: view.field_reviews,
      }
    },

    /** A PNG of one page, rendered on a worker thread from the run's PDF. */
    async pageImage(runId: string, pageNumber: number): Promise<Buffer> {
      const run = await getRun(runId)
      if (!run.pdfSha256 || !run.pageCount || pageNumber > run.pageCount)
        throw RecognitionErrors.PAGE_NOT_FOUND({ page_number: pageNumber })
      if (!ctx.blobs.has(run.pdfSha256))
        throw RecognitionErrors.SOURCE_UNRECOVERABLE({ run_id: run.id, source_recoverable: false })
      const png = await renderPage(ctx, await ctx.blobs.readBytes(run.pdfSha256), pageNumber, PREVIEW_SCALE)
      return sharp(png).png({ compressionLevel: 6 }).toBuffer()
    },

    async overview() {
      const counts = await repo.runCounts(db)
      const registered = (await repo.listRegistry(db, false)).map((e) => e.agentId)
      const countBy = (key: (row: (typeof counts)[number]) => string | null) =>
        counts.reduce<Record<string, number>>((acc, row) => {
          const value = key(row)
          if (value !== null) acc[value] = (acc[value] ?? 0) + row.runs
          return acc
        }, {})
      const runsWhere = (keep: (row: (typeof counts)[number]) => boolean) =>
        counts.reduce((total, row) => (keep(row) ? total + row.runs : total), 0)
      const completed = runsWhere((r) => r.status === 'completed')
      const fields = await repo.completedFieldTotals(db)
      const withValue = fields.reduce((total, f) => total + f.withValue, 0)
      const agents = new Map((await agentRuns.listAgents(registered)).map((a) => [a.id, a]))
      const dates = Array.from({ length: 30 }, (_, i) =>
        new Date(Date.now() - (29 - i) * 24 * 3600 * 1000).toISOString().slice(0, 10),
      )
      const perDay = new Map((await repo.runsPerDay(db, dates[0] as string)).map((d) => [d.date, d.runs]))
      return {
        total_runs: runsWhere(() => true),
        by_status: countBy((r) => r.status),
        by_review_status: countBy((r) => r.reviewStatus),
        per_runtime_agent: registered.map((id) => ({
          runtime_agent_id: id,
          name: agents.get(id)?.name ?? id,
          runs: runsWhere((r) => r.agentId === id),
          flagged: runsWhere((r) => r.agentId === id && r.reviewStatus === 'flagged'),
        })),
        flagged_rate: completed
          ? round(runsWhere((r) => r.status === 'completed' && r.reviewStatus === 'flagged') / completed)
          : null,
        correction_rate_by_field: Object.fromEntries(
          fields.map((f) => [f.fieldKey, round(f.corrected / f.fields)]),
        ),
        // Confidences are stored in thousandths: summed as whole thousandths, the order of a float sum cannot tip
        // a mean that falls on a half.
        mean_confidence: withValue
          ? Math.round(
              fields.reduce((total, f) => total + Math.round((f.confidenceSum ?? 0) * 1000), 0) / withValue,
            ) / 1000
          : null,
        runs_per_day: dates.map((date) => ({ date, runs: perDay.get(date) ?? 0 })),
        median_processing_ms: await repo.medianProcessingMs(db),
      }
    },
  }
}

const round = (n: number) => Math.round(n * 1000) / 1000
/** Runs read per query while an export gathers a queue's approved runs. */
const EXPORT_BATCH = 500

/** A box is [x0, y0, x1, y1] with x0 < x1 and y0 < y1 (fractions are checked by the schema). */
function checkBox(bbox: number[]) {
  const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = bbox
  if (!(x0 < x1 && y0 < y1)) throw CommonErrors.VALIDATION_ERROR({ bbox: 'needs x0 < x1 and y0 < y1' })
}

function presentHint(row: repo.LearnedHintRow) {
  return {
    id: row.id,
    runtime_agent_id: row.runtimeAgentId,
    agent_version_id: row.agentVersionId,
    fingerprint: row.fingerprint,
    field_key: row.fieldKey,
    page_number: row.pageNumber,
    label: row.label,
    label_bbox: row.labelBbox ?? null,
    value_bbox: row.valueBbox,
    value_words: row.valueWords ?? null,
    confirmations: row.confirmations,
    confidence: round(earnedConfidence(row.confirmations)),
    learned_from_run_id: row.learnedFromRunId,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  }
}
