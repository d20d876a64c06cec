import path from 'node:path'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { create as contentDisposition } from 'content-disposition'
import { Type } from 'typebox'
import type { ModelRegistry } from '../ai'
import type { AppContext } from '../platform/app-context'
import { CommonErrors } from '../platform/errors'
import { multipartBodies, NoContent, Page, PageQuery, pageOf } from '../platform/http'
import {
  AgentParams,
  DocumentRun,
  FieldParams,
  FieldReview,
  FieldReviewPatch,
  FieldTimeline,
  LearnedHint,
  Overview,
  PageParams,
  PageWords,
  ReadRegionBody,
  RegionRead,
  RegistryBody,
  RegistryEntry,
  RejectBody,
  RerunBody,
  RerunResponse,
  RunCounts,
  RunCountsQuery,
  RunExportOneQuery,
  RunExportQuery,
  RunListQuery,
  RunParams,
  RuntimeAgentDetail,
  RuntimeAgentParams,
} from './document-recognition.schemas'
import { createDocumentRecognitionService } from './document-recognition.service'
import { ReadingProcesses } from './pipeline/reading-processes'
import { streamRuns } from './review/run-feed'
import { agentRunRoutes } from './runs/runs.routes'
import { createAgentRunService } from './runs/runs.service'
import { requireField } from './runs/upload'

const Binary = Type.Unknown({ description: 'file bytes' })
const ResultDocument = Type.Object({
  run_id: Type.String(),
  runtime_agent_id: Type.String(),
  agent_version_id: Type.String(),
  review_status: Type.String(),
  fields: Type.Record(Type.String(), Type.Unknown()),
  field_details: Type.Array(FieldReview),
})

export const documentRecognitionRoutes: FastifyPluginAsyncTypebox<{
  ctx: AppContext
  models?: ModelRegistry
  /** The reading processes' entry module, where a test names a bundled one (`CreateServerOptions`). */
  readingProcessEntry?: URL
}> = async (app, { ctx, models, readingProcessEntry }) => {
  const agentRuns = createAgentRunService(ctx)
  await app.register(agentRunRoutes, { agentRuns, uploadGate: ctx.uploads })
  // Documents are decoded and read in child processes that exit when idle: their memory goes with them.
  const reading = new ReadingProcesses(readingProcessEntry)
  const service = await createDocumentRecognitionService(ctx, {
    agentRuns,
    models,
    reading,
    shippedDefinitionsDir: path.join(ctx.config.appRoot, 'resources', 'runtime-agents'),
  })
  app.addHook('onClose', async () => {
    reading.close()
    service.feed.close()
  })
  const tags = ['document-recognition']
  const review = { permission: 'document_recognition.review' } as const
  const write = { permission: 'document_recognition.write' } as const

  app.get(
    '/document-recognition/runtime-agents',
    {
      config: review,
      schema: { tags, querystring: PageQuery, response: { 200: Page(RegistryEntry) } },
    },
    async (request) => pageOf(await service.listRegisteredAgents(), request.query),
  )

  app.get(
    '/document-recognition/runtime-agents/:runtime_agent_id',
    { config: review, schema: { tags, params: RuntimeAgentParams, response: { 200: RuntimeAgentDetail } } },
    async (request) => service.agentDetail(request.params.runtime_agent_id),
  )

  await app.register(async (uploads: typeof app) => {
    await uploads.register(multipartBodies, { gate: ctx.uploads })
    uploads.post(
      '/document-recognition/runs',
      { schema: { tags, consumes: ['multipart/form-data'], response: { 202: DocumentRun } } },
      async (request, reply) => {
        const user = request.requireUser()
        // Who may run the agent is decided from the fields ahead of the file, before the file is read.
        const upload = await request.receiveUpload({
          authorize: (fields) => {
            const agentId = requireField(fields, 'runtime_agent_id')
            if (!/^[0-9a-f-]{36}$/i.test(agentId))
              throw CommonErrors.VALIDATION_ERROR({ runtime_agent_id: 'must be a UUID' })
            return service.runnableAgent(user, agentId)
          },
        })
        const file = upload.files.find((received) => received.fieldName === 'file')
        return reply.status(202).send(await service.createRun(user, upload.authorized, file))
      },
    )
  })

  app.get(
    '/document-recognition/runs',
    { config: review, schema: { tags, querystring: RunListQuery, response: { 200: Page(DocumentRun) } } },
    async (request) => service.listRuns(request.query),
  )

  const ExportFile = Type.String({ description: 'text/csv or application/json' })
  app.get(
    '/document-recognition/runs/export',
    {
      config: review,
      schema: {
        tags,
        description:
          'Every approved run the queue filters match, one row per run with a column per field, who approved it and when.',
        querystring: RunExportQuery,
        produces: ['text/csv', 'application/json'],
        response: { 200: ExportFile },
      },
    },
    async (request, reply) => {
      const file = await service.exportRuns(request.query)
      return reply
        .type(file.mimeType)
        .header('content-disposition', contentDisposition(file.fileName))
        .send(file.body)
    },
  )

  app.get(
    '/document-recognition/runs/counts',
    { config: review, schema: { tags, querystring: RunCountsQuery, response: { 200: RunCounts } } },
    async (request) => service.countRuns(request.query),
  )

  // Open feeds end before the server closes, so shutdown does not wait on them.
  const openFeeds = new Set<() => void>()
  app.addHook('preClose', async () => {
    for (const stop of [...openFeeds]) stop()
  })
  app.get(
    '/document-recognition/runs/events',
    {
      config: review,
      schema: {
        tags,
        description:
          'Live feed of recognition runs as text/event-stream: `data: {"type": "run", "run": DocumentRun}` whenever a run is created, its job moves, or a reviewer changes it.',
        produces: ['text/event-stream'],
        response: { 200: Type.String({ description: 'text/event-stream' }) },
      },
    },
    async (_request, reply) => streamRuns(service.feed, reply, service.feedView, openFeeds),
  )

  app.get(
    '/document-recognition/runs/:run_id',
    { schema: { tags, params: RunParams, response: { 200: DocumentRun } } },
    async (request) => {
      await service.readableRun(request.requireUser(), request.params.run_id)
      return service.getRun(request.params.run_id)
    },
  )

  app.post(
    '/document-recognition/runs/:run_id/reject',
    { config: review, schema: { tags, params: RunParams, body: RejectBody, response: { 200: DocumentRun } } },
    async (request) => service.reject(request.params.run_id, request.body, request.requireUser().id),
  )

  app.post(
    '/document-recognition/runs/:run_id/rerun',
    {
      config: review,
      schema: { tags, params: RunParams, body: RerunBody, response: { 202: RerunResponse } },
      // A rerun without a body (the source's extractor at its published version) validates as an empty one.
      preValidation: async (request) => {
        request.body ??= {}
      },
    },
    async (request, reply) =>
      reply.status(202).send(await service.rerun(request.params.run_id, request.requireUser(), request.body)),
  )

  app.post(
    '/document-recognition/runs/:run_id/accept-confident',
    { config: review, schema: { tags, params: RunParams, response: { 200: DocumentRun } } },
    async (request) => service.acceptConfident(request.params.run_id, request.requireUser().id),
  )

  app.post(
    '/document-recognition/runs/:run_id/approve',
    { config: review, schema: { tags, params: RunParams, response: { 200: DocumentRun } } },
    async (request) => service.approve(request.params.run_id, request.requireUser().id),
  )

  app.get(
    '/document-recognition/runs/:run_id/export',
    {
      schema: {
        tags,
        params: RunParams,
        querystring: RunExportOneQuery,
        produces: ['text/csv', 'application/json'],
        response: { 200: ExportFile },
      },
    },
    async (request, reply) => {
      await service.readableRun(request.requireUser(), request.params.run_id)
      const file = await service.exportRun(request.params.run_id, request.query.format)
      return reply
        .type(file.mimeType)
        .header('content-disposition', contentDisposition(file.fileName))
        .send(file.body)
    },
  )

  app.post(
    '/document-recognition/runs/:run_id/sync',
    { config: review, schema: { tags, params: RunParams, response: { 200: DocumentRun } } },
    async (request) => service.sync(request.params.run_id, request.requireUser().id),
  )

  app.patch(
    '/document-recognition/runs/:run_id/field-reviews/:field_id',
    {
      config: review,
      schema: { tags, params: FieldParams, body: FieldReviewPatch, response: { 200: FieldReview } },
    },
    async (request) =>
      service.correctField(
        request.params.run_id,
        request.params.field_id,
        request.body,
        request.requireUser().id,
      ),
  )

  app.post(
    '/document-recognition/runs/:run_id/field-reviews/:field_id/read-region',
    {
      config: review,
      schema: { tags, params: FieldParams, body: ReadRegionBody, response: { 200: RegionRead } },
    },
    async (request) => service.readRegion(request.params.run_id, request.params.field_id, request.body),
  )

  app.get(
    '/document-recognition/runs/:run_id/pages/:page_number/words',
    { config: review, schema: { tags, params: PageParams, response: { 200: PageWords } } },
    async (request) => service.pageWords(request.params.run_id, request.params.page_number),
  )

  app.get(
    '/document-recognition/runs/:run_id/field-reviews/:field_id/revisions',
    { config: review, schema: { tags, params: FieldParams, response: { 200: FieldTimeline } } },
    async (request) => service.fieldTimeline(request.params.run_id, request.params.field_id),
  )

  // The two file downloads: the original as uploaded, and the normalised PDF.
  const downloads = { 'source-document': service.sourceDocument, 'source-pdf': service.sourcePdf }
  for (const [name, read] of Object.entries(downloads))
    app.get(
      `/document-recognition/runs/:run_id/${name}`,
      { schema: { tags, params: RunParams, response: { 200: Binary } } },
      async (request, reply) => {
        await service.readableRun(request.requireUser(), request.params.run_id)
        const file = await read(request.params.run_id)
        return reply
          .type(file.mimeType)
          .header('content-disposition', contentDisposition(file.fileName))
          .send(file.bytes)
      },
    )

  app.get(
    '/document-recognition/runs/:run_id/result',
    { schema: { tags, params: RunParams, response: { 200: ResultDocument } } },
    async (request, reply) => {
      await service.readableRun(request.requireUser(), request.params.run_id)
      const result = await service.result(request.params.run_id)
      return reply.header('content-disposition', contentDisposition(`${result.run_id}.json`)).send(result)
    },
  )

  app.get(
    '/document-recognition/runs/:run_id/pages/:page_number/image',
    { schema: { tags, params: PageParams, response: { 200: Binary } } },
    async (request, reply) => {
      await service.readableRun(request.requireUser(), request.params.run_id)
      return reply
        .type('image/png')
        .send(await service.pageImage(request.params.run_id, request.params.page_number))
    },
  )

  app.get(
    '/admin/document-recognition/overview',
    { config: write, schema: { tags, response: { 200: Overview } } },
    async () => service.overview(),
  )

  app.get(
    '/admin/document-recognition/runs',
    { config: write, schema: { tags, querystring: RunListQuery, response: { 200: Page(DocumentRun) } } },
    async (request) => service.listAllRuns(request.query),
  )

  app.get(
    '/admin/document-recognition/runtime-agents',
    { config: write, schema: { tags, querystring: PageQuery, response: { 200: Page(RegistryEntry) } } },
    async (request) => pageOf(await service.listRegistry(), request.query),
  )

  app.put(
    '/admin/document-recognition/runtime-agents/:agent_id',
    {
      config: write,
      schema: { tags, params: AgentParams, body: RegistryBody, response: { 200: RegistryEntry } },
    },
    async (request) => service.register(request.requireUser().id, request.params.agent_id, request.body),
  )

  app.get(
    '/admin/document-recognition/runtime-agents/:agent_id/learned-hints',
    {
      config: write,
      schema: { tags, params: AgentParams, querystring: PageQuery, response: { 200: Page(LearnedHint) } },
    },
    async (request) => pageOf(await service.learnedHints(request.params.agent_id), request.query),
  )

  app.delete(
    '/admin/document-recognition/runtime-agents/:agent_id/learned-hints',
    { config: write, schema: { tags, params: AgentParams, response: { 204: NoContent } } },
    async (request, reply) => {
      await service.deleteLearnedHints(request.requireUser().id, request.params.agent_id)
      return reply.status(204).send(null)
    },
  )

  app.delete(
    '/admin/document-recognition/runtime-agents/:agent_id',
    { config: write, schema: { tags, params: AgentParams, response: { 204: NoContent } } },
    async (request, reply) => {
      await service.unregister(request.requireUser().id, request.params.agent_id)
      return reply.status(204).send(null)
    },
  )
}
