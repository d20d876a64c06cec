import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { create as contentDisposition } from 'content-disposition'
import type { FastifyRequest } from 'fastify'
import type { AppContext } from '../platform/app-context'
import { multipartBodies, NoContent, Page, PageQuery, type ReceivedFile } from '../platform/http'
import { KnowledgeErrors } from './knowledge.errors'
import {
  AgentParams,
  CreateMountBody,
  CreateSourceBody,
  DocumentParams,
  DocumentSchema,
  IngestBody,
  IngestionJobParams,
  IngestionJobSchema,
  KnowledgeSourceSchema,
  MountParams,
  MountSchema,
  PageParams,
  PassageParams,
  PassageSchema,
  ReadinessSchema,
  RetrievalQueryBody,
  RetrievalResult,
  SourceParams,
  UpdateSourceBody,
  UploadResult,
} from './knowledge.schemas'
import type { KnowledgeServices } from './knowledge.services'

export const knowledgeRoutes: FastifyPluginAsyncTypebox<{
  ctx: AppContext
  services: KnowledgeServices
}> = async (app, { ctx, services }) => {
  const { sources, documents, ingestion, mounts, retrieval } = services
  const tags = ['knowledge']

  app.post(
    '/knowledge-sources',
    { schema: { tags, body: CreateSourceBody, response: { 201: KnowledgeSourceSchema } } },
    async (request, reply) =>
      reply.status(201).send(await sources.create(request.requireUser(), request.body)),
  )
  app.get(
    '/knowledge-sources',
    { schema: { tags, querystring: PageQuery, response: { 200: Page(KnowledgeSourceSchema) } } },
    async (request) => sources.list(request.requireUser(), request.query),
  )
  app.get(
    '/knowledge-sources/:source_id',
    { schema: { tags, params: SourceParams, response: { 200: KnowledgeSourceSchema } } },
    async (request) => sources.get(request.requireUser(), request.params.source_id),
  )
  app.patch(
    '/knowledge-sources/:source_id',
    {
      schema: {
        tags,
        params: SourceParams,
        body: UpdateSourceBody,
        response: { 200: KnowledgeSourceSchema },
      },
    },
    async (request) => sources.update(request.requireUser(), request.params.source_id, request.body),
  )

  await app.register(async (uploads: typeof app) => {
    await uploads.register(multipartBodies, { gate: ctx.uploads })
    uploads.post(
      '/knowledge-sources/:source_id/documents',
      {
        schema: {
          tags,
          params: SourceParams,
          consumes: ['multipart/form-data'],
          response: { 200: UploadResult, 201: UploadResult },
        },
        // A stranger is refused before a byte of the body is read (and before taking an upload slot).
        preValidation: async (request) => {
          await documents.assertManageable(request.requireUser(), request.params.source_id)
        },
      },
      async (request, reply) => {
        const user = request.requireUser()
        const outcomes = await documents.upload(user, request.params.source_id, await readFiles(request))
        const body =
          outcomes.length === 1 && outcomes[0]
            ? outcomes[0].document
            : { items: outcomes.map((o) => o.document) }
        return reply.status(outcomes.some((outcome) => outcome.created) ? 201 : 200).send(body)
      },
    )
  })
  app.get(
    '/knowledge-sources/:source_id/documents',
    {
      schema: { tags, params: SourceParams, querystring: PageQuery, response: { 200: Page(DocumentSchema) } },
    },
    async (request) => documents.list(request.requireUser(), request.params.source_id, request.query),
  )
  app.get(
    '/knowledge-sources/:source_id/documents/:document_id',
    { schema: { tags, params: DocumentParams, response: { 200: DocumentSchema } } },
    async (request) =>
      documents.get(request.requireUser(), request.params.source_id, request.params.document_id),
  )
  // Extensions: the original file for whoever may read the source; a cited passage, and a cited PDF page, for
  // whoever an answer cited them to (see access.ts).
  app.get(
    '/knowledge-sources/:source_id/documents/:document_id/file',
    { schema: { tags, params: DocumentParams } },
    async (request, reply) => {
      const file = await documents.file(
        request.requireUser(),
        request.params.source_id,
        request.params.document_id,
      )
      return reply
        .type(file.mimeType)
        .header('content-disposition', contentDisposition(file.fileName, { type: 'inline' }))
        .send(file.bytes)
    },
  )
  app.get(
    '/knowledge-sources/:source_id/documents/:document_id/passages/:chunk_id',
    { schema: { tags, params: PassageParams, response: { 200: PassageSchema } } },
    async (request) =>
      documents.passage(
        request.requireUser(),
        request.params.source_id,
        request.params.document_id,
        request.params.chunk_id,
      ),
  )
  app.get(
    '/knowledge-sources/:source_id/documents/:document_id/pages/:page_number',
    { schema: { tags, params: PageParams } },
    async (request, reply) => {
      const page = await documents.page(
        request.requireUser(),
        request.params.source_id,
        request.params.document_id,
        request.params.page_number,
      )
      return reply
        .type('application/pdf')
        .header('content-disposition', contentDisposition(page.fileName, { type: 'inline' }))
        .send(page.bytes)
    },
  )
  app.delete(
    '/knowledge-sources/:source_id/documents/:document_id',
    { schema: { tags, params: DocumentParams, response: { 204: NoContent } } },
    async (request, reply) => {
      await documents.delete(request.requireUser(), request.params.source_id, request.params.document_id)
      return reply.status(204).send(null)
    },
  )

  app.post(
    '/knowledge-sources/:source_id/ingest',
    {
      schema: {
        tags,
        params: SourceParams,
        body: IngestBody,
        response: { 200: IngestionJobSchema, 202: IngestionJobSchema },
      },
      // A bare POST (no body) means "with the source's defaults".
      preValidation: async (request) => {
        request.body ??= {}
      },
    },
    async (request, reply) => {
      const { job, created } = await ingestion.start(
        request.requireUser(),
        request.params.source_id,
        request.body,
      )
      return reply.status(created ? 202 : 200).send(job)
    },
  )
  app.get(
    '/knowledge-sources/:source_id/ingestion-jobs',
    {
      schema: {
        tags,
        params: SourceParams,
        querystring: PageQuery,
        response: { 200: Page(IngestionJobSchema) },
      },
    },
    async (request) => ingestion.list(request.requireUser(), request.params.source_id, request.query),
  )
  app.get(
    '/ingestion-jobs/:job_id',
    { schema: { tags, params: IngestionJobParams, response: { 200: IngestionJobSchema } } },
    async (request) => ingestion.get(request.requireUser(), request.params.job_id),
  )

  app.post(
    '/agents/:agent_id/mounts',
    { schema: { tags, params: AgentParams, body: CreateMountBody, response: { 201: MountSchema } } },
    async (request, reply) =>
      reply
        .status(201)
        .send(await mounts.create(request.requireUser(), request.params.agent_id, request.body)),
  )
  app.get(
    '/agents/:agent_id/mounts',
    { schema: { tags, params: AgentParams, querystring: PageQuery, response: { 200: Page(MountSchema) } } },
    async (request) => mounts.list(request.requireUser(), request.params.agent_id, request.query),
  )
  app.delete(
    '/agents/:agent_id/mounts/:source_id',
    { schema: { tags, params: MountParams, response: { 204: NoContent } } },
    async (request, reply) => {
      await mounts.delete(request.requireUser(), request.params.agent_id, request.params.source_id)
      return reply.status(204).send(null)
    },
  )

  app.post(
    '/retrieval/query',
    { schema: { tags, body: RetrievalQueryBody, response: { 200: RetrievalResult } } },
    async (request) => ({ items: await retrieval.query(request.requireUser(), request.body) }),
  )
  app.post(
    '/embedding-model/check-readiness',
    { config: { permission: 'knowledge.manage' }, schema: { tags, response: { 200: ReadinessSchema } } },
    async () => services.embedderStatus.checkReadiness(),
  )
}

/** Every part of field `file`, streamed to temporary files (the upload gate's caps answer 413). */
async function readFiles(request: FastifyRequest): Promise<ReceivedFile[]> {
  const upload = await request.receiveUpload()
  const stray = upload.files.find((file) => file.fieldName !== 'file')
  if (stray) throw KnowledgeErrors.NO_FILE({ field: stray.fieldName })
  return upload.files
}
