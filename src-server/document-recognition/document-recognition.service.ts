import path from 'node:path'
import sharp from 'sharp'
import { recordAdminAction } from '../admin-audit/admin-audit.service'
import { type AgentRunRow, type AgentRunService, policyOf, type RuntimeAgentRow, slotOf } from '../agent-runs'
import type { ModelRegistry } from '../ai'
import type { AppContext } from '../app-context'
import type { AuthUser } from '../auth/auth.service'
import type { PageQuery } from '../http/common.schemas'
import { pageWindow, toPage } from '../http/pagination'
import { RecognitionErrors } from './document-recognition.errors'
import * as repo from './document-recognition.repository'
import type { FieldReviewPatch, RunListQuery } from './document-recognition.schemas'
import type { ExtractionConfig } from './extraction/field-config'
import { renderPage } from './pipeline/document-pages'
import type { OcrEngine } from './pipeline/ocr'
import { documentExtractionExecutor, type ExtractionOutput } from './pipeline/run-extraction'
import { correctField, isRerunnable, rejectRun, syncRun } from './review/review.service'
import { seedReview } from './review/seed'
import { readTypedValue } from './review/typed-value'
import { toDocumentRun, toFieldReview, toRevision } from './review/views'

/** Preview pages are rendered at 1.5x their size in points (108 dpi): readable, and light to send. */
const PREVIEW_SCALE = 1.5

export type DocumentRecognitionService = ReturnType<typeof createDocumentRecognitionService>

export function createDocumentRecognitionService(
  ctx: AppContext,
  deps: { agentRuns: AgentRunService; models?: ModelRegistry; ocr: OcrEngine; shippedDefinitionsDir: string },
) {
  const { db } = ctx
  const { agentRuns } = deps

  agentRuns.registerExecutor('document_extraction', {
    ...documentExtractionExecutor(ctx, { models: deps.models, ocr: deps.ocr }),
    onCompleted(tx, run, result, config) {
      const extraction = config as ExtractionConfig
      const sampleRate =
        extraction.review_sample_rate ?? repo.findRegistryEntry(tx, run.runtimeAgentId)?.reviewSampleRate ?? 0
      seedReview(tx, run, extraction, result.output as ExtractionOutput, sampleRate)
    },
  })

  for (const agent of agentRuns.installShippedDefinitions(deps.shippedDefinitionsDir))
    repo.upsertRegistryEntry(db, agent.id, { displayName: agent.name, enabled: true })

  function registryView(entry: repo.RegistryRow, agent: RuntimeAgentRow) {
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

  function registeredAgent(agentId: string, requireEnabled: boolean) {
    const entry = repo.findRegistryEntry(db, agentId)
    if (!entry || (requireEnabled && !entry.enabled))
      throw RecognitionErrors.RUNTIME_AGENT_NOT_FOUND({ runtime_agent_id: agentId })
    return { entry, agent: agentRuns.getAgent(agentId) }
  }

  /** A run of a registered runtime agent (whichever endpoint created it). */
  function getRun(runId: string): AgentRunRow {
    const run = agentRuns.findRun(runId)
    if (!run || !repo.findRegistryEntry(db, run.runtimeAgentId))
      throw RecognitionErrors.RUN_NOT_FOUND({ run_id: runId })
    return run
  }

  function detail(run: AgentRunRow) {
    const fields = repo.listFieldReviews(db, run.id)
    const usernames = agentRuns.usernamesOf([
      ...new Set(fields.flatMap((f) => (f.lastRevisedById ? [f.lastRevisedById] : []))),
    ])
    return toDocumentRun(
      run,
      repo.findRunReview(db, run.id),
      fields,
      ctx.blobs.has(run.sourceSha256),
      usernames,
    )
  }

  function listRuns(query: RunListQuery, registeredOnly: boolean) {
    const { page, size, ...filters } = query
    const pageQuery: PageQuery = { page, size }
    const { rows, total } = repo.listRuns(db, filters, registeredOnly, pageWindow(pageQuery))
    return toPage(rows.map(detail), total, pageQuery)
  }

  return {
    listRegisteredAgents() {
      const entries = repo.listRegistry(db, true)
      const agents = new Map(agentRuns.listAgents(entries.map((e) => e.agentId)).map((a) => [a.id, a]))
      return entries.flatMap((e) => {
        const agent = agents.get(e.agentId)
        return agent ? [registryView(e, agent)] : []
      })
    },

    listRegistry() {
      const entries = repo.listRegistry(db, false)
      const agents = new Map(agentRuns.listAgents(entries.map((e) => e.agentId)).map((a) => [a.id, a]))
      return entries.flatMap((e) => {
        const agent = agents.get(e.agentId)
        return agent ? [registryView(e, agent)] : []
      })
    },

    agentDetail(agentId: string) {
      const { entry, agent } = registeredAgent(agentId, true)
      const version = agent.publishedVersionId
        ? agentRuns.listVersions(agent.id).find((v) => v.id === agent.publishedVersionId)
        : undefined
      const slot = version ? slotOf(version.config) : null
      const policy = version ? policyOf(version.config) : null
      return {
        ...registryView(entry, agent),
        published_version: version ? { id: version.id, version: version.version } : null,
        upload_slot:
          slot && policy ? { key: slot.key, accepts: slot.accepts, max_file_mb: policy.max_file_mb } : null,
        execution_policy: policy,
      }
    },

    register(actorId: string, agentId: string, body: { display_name?: string; enabled?: boolean }) {
      const agent = agentRuns.findAgent(agentId)
      if (!agent) throw RecognitionErrors.RUNTIME_AGENT_NOT_FOUND({ runtime_agent_id: agentId })
      const before = repo.findRegistryEntry(db, agentId)
      return db.transaction((tx) => {
        const entry = repo.upsertRegistryEntry(tx, agentId, {
          displayName: body.display_name ?? before?.displayName ?? agent.name,
          enabled: body.enabled ?? before?.enabled ?? true,
        })
        recordAdminAction(tx, {
          actorId,
          action: 'document_recognition.registry.put',
          targetType: 'runtime_agent',
          targetId: agentId,
          before: before ? { display_name: before.displayName, enabled: before.enabled } : null,
          after: { display_name: entry.displayName, enabled: entry.enabled },
        })
        return registryView(entry, agent)
      })
    },

    unregister(actorId: string, agentId: string) {
      const before = repo.findRegistryEntry(db, agentId)
      if (!before) throw RecognitionErrors.RUNTIME_AGENT_NOT_FOUND({ runtime_agent_id: agentId })
      db.transaction((tx) => {
        repo.deleteRegistryEntry(tx, agentId)
        recordAdminAction(tx, {
          actorId,
          action: 'document_recognition.registry.delete',
          targetType: 'runtime_agent',
          targetId: agentId,
          before: { display_name: before.displayName, enabled: before.enabled },
        })
      })
    },

    async createRun(user: AuthUser, agentId: string, file: { fileName: string; bytes: Buffer } | undefined) {
      const { agent } = registeredAgent(agentId, true)
      return detail(await agentRuns.createRun({ agent, createdById: user.id, file }))
    },

    listRuns: (query: RunListQuery) => listRuns(query, true),
    listAllRuns: (query: RunListQuery) => listRuns(query, false),
    getRun: (runId: string) => detail(getRun(runId)),
    runOf: getRun,

    correctField(runId: string, fieldId: string, patch: FieldReviewPatch, actorId: string) {
      const run = getRun(runId)
      const field = repo.findFieldReview(db, run.id, fieldId)
      if (!field) throw RecognitionErrors.FIELD_REVIEW_NOT_FOUND({ field_id: fieldId })
      const config = agentRuns.listVersions(run.runtimeAgentId).find((v) => v.id === run.agentVersionId)
        ?.config as ExtractionConfig | undefined
      const definition = config?.fields.find((f) => f.key === field.fieldKey)
      if (definition && patch.value !== undefined && patch.value !== null) {
        const typed = readTypedValue(definition, patch.value)
        if (!typed.ok)
          throw RecognitionErrors.INVALID_FIELD_VALUE(
            { field_key: field.fieldKey, type: definition.type, value: patch.value },
            typed.message,
          )
        patch = { ...patch, value: typed.value }
      }
      correctField(db, run, fieldId, patch, actorId)
      const updated = repo.findFieldReview(db, run.id, fieldId) as repo.FieldReviewRow
      return toFieldReview(updated, agentRuns.usernamesOf([actorId]))
    },

    fieldTimeline(runId: string, fieldId: string) {
      const run = getRun(runId)
      const field = repo.findFieldReview(db, run.id, fieldId)
      if (!field) throw RecognitionErrors.FIELD_REVIEW_NOT_FOUND({ field_id: fieldId })
      const tracked = repo.findRunReview(db, run.id)?.revisionTracking ?? true
      const revisions = tracked ? repo.listRevisions(db, field.id) : []
      const usernames = agentRuns.usernamesOf([...new Set(revisions.map((r) => r.actorId))])
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
        revisions: revisions.map((r) => toRevision(r, usernames)),
      }
    },

    sync(runId: string, actorId: string) {
      const run = getRun(runId)
      syncRun(db, run, actorId)
      return detail(run)
    },

    reject(runId: string, input: { reason: string; reviewer?: string }, actorId: string) {
      const run = getRun(runId)
      rejectRun(db, run, input, actorId)
      return detail(agentRuns.getRun(run.id))
    },

    async rerun(runId: string, user: AuthUser) {
      const source = getRun(runId)
      if (!isRerunnable(db, source))
        throw RecognitionErrors.RUN_NOT_RERUNNABLE({
          status: source.status,
          review_status: repo.findRunReview(db, source.id)?.reviewStatus ?? null,
        })
      if (!ctx.blobs.has(source.sourceSha256))
        throw RecognitionErrors.SOURCE_UNRECOVERABLE({ run_id: source.id, source_recoverable: false })
      const { agent } = registeredAgent(source.runtimeAgentId, false)
      const target = await agentRuns.createRun({ agent, createdById: user.id, reuse: source })
      return { source_run_id: source.id, target_run_id: target.id, target_run: detail(target) }
    },

    /** The original bytes, or 410 when the stored object is gone. */
    async sourceDocument(runId: string) {
      const run = getRun(runId)
      if (!ctx.blobs.has(run.sourceSha256))
        throw RecognitionErrors.SOURCE_UNRECOVERABLE({ run_id: run.id, source_recoverable: false })
      return {
        bytes: await ctx.blobs.readBytes(run.sourceSha256),
        mimeType: run.mimeType,
        fileName: run.fileName,
      }
    },

    async sourcePdf(runId: string) {
      const run = getRun(runId)
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
    result(runId: string) {
      const run = getRun(runId)
      if (run.status !== 'completed') throw RecognitionErrors.RESULT_NOT_AVAILABLE({ status: run.status })
      const view = detail(run)
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
      const run = getRun(runId)
      if (!run.pdfSha256 || !run.pageCount || pageNumber > run.pageCount)
        throw RecognitionErrors.PAGE_NOT_FOUND({ page_number: pageNumber })
      if (!ctx.blobs.has(run.pdfSha256))
        throw RecognitionErrors.SOURCE_UNRECOVERABLE({ run_id: run.id, source_recoverable: false })
      const pdf = await ctx.blobs.readBytes(run.pdfSha256)
      const png = await renderPage(ctx, new Uint8Array(pdf), pageNumber, PREVIEW_SCALE)
      return sharp(png).png({ compressionLevel: 6 }).toBuffer()
    },

    overview() {
      const since = new Date(Date.now() - 30 * 24 * 3600 * 1000)
      const ofRecognition = repo.registeredRunsWithReview(db)
      const registered = new Set(repo.listRegistry(db, false).map((e) => e.agentId))
      const countBy = (values: string[]) =>
        values.reduce<Record<string, number>>((acc, v) => {
          acc[v] = (acc[v] ?? 0) + 1
          return acc
        }, {})
      const completed = ofRecognition.filter((r) => r.status === 'completed')
      const fields = repo.fieldReviewsOfRuns(
        db,
        completed.map((r) => r.id),
      )
      const correctionRate: Record<string, number> = {}
      for (const key of new Set(fields.map((f) => f.fieldKey))) {
        const ofKey = fields.filter((f) => f.fieldKey === key)
        correctionRate[key] = round(ofKey.filter((f) => f.reviewStatus === 'corrected').length / ofKey.length)
      }
      const confidences = fields.filter((f) => f.value !== null).map((f) => f.confidence)
      const durations = completed
        .flatMap((r) => (r.completedAt ? [Date.parse(r.completedAt) - Date.parse(r.createdAt)] : []))
        .sort((a, b) => a - b)
      const agents = new Map(agentRuns.listAgents([...registered]).map((a) => [a.id, a]))
      const days: { date: string; runs: number }[] = []
      for (let i = 29; i >= 0; i--) {
        const date = new Date(Date.now() - i * 24 * 3600 * 1000).toISOString().slice(0, 10)
        days.push({ date, runs: ofRecognition.filter((r) => r.createdAt.startsWith(date)).length })
      }
      return {
        total_runs: ofRecognition.length,
        by_status: countBy(ofRecognition.map((r) => r.status)),
        by_review_status: countBy(ofRecognition.flatMap((r) => (r.reviewStatus ? [r.reviewStatus] : []))),
        per_runtime_agent: [...registered].map((id) => ({
          runtime_agent_id: id,
          name: agents.get(id)?.name ?? id,
          runs: ofRecognition.filter((r) => r.runtimeAgentId === id).length,
          flagged: ofRecognition.filter((r) => r.runtimeAgentId === id && r.reviewStatus === 'flagged')
            .length,
        })),
        flagged_rate: completed.length
          ? round(completed.filter((r) => r.reviewStatus === 'flagged').length / completed.length)
          : null,
        correction_rate_by_field: correctionRate,
        mean_confidence: confidences.length
          ? round(confidences.reduce((a, b) => a + b, 0) / confidences.length)
          : null,
        runs_per_day: days.filter((d) => d.date >= since.toISOString().slice(0, 10)),
        median_processing_ms: durations.length
          ? (durations[Math.floor((durations.length - 1) / 2)] as number)
          : null,
      }
    },
  }
}

const round = (n: number) => Math.round(n * 1000) / 1000
