import { readFile } from 'node:fs/promises'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { AppContext } from '../platform/app-context'
import { CommonErrors } from '../platform/errors'
import { multipartBodies, Page, PageQuery, Uuid } from '../platform/http'
import { createDatasetService } from './datasets.service'
import {
  CreateDatasetBody,
  CreateRunBody,
  DatasetItemView,
  DatasetView,
  ImportResult,
  ResultView,
  RunView,
} from './evaluation.schemas'
import { type EvaluationDeps, registerEvaluationJob } from './run-job'
import { createRunService } from './runs.service'

const DatasetParams = Type.Object({ dataset_id: Uuid })
const AgentParams = Type.Object({ agent_id: Uuid })
const RunParams = Type.Object({ agent_id: Uuid, run_id: Uuid })

/** Datasets, their CSV import, and evaluation runs of agents (a durable job per run). */
export const evaluationRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext } & EvaluationDeps> = async (
  app,
  { ctx, chat, models },
) => {
  registerEvaluationJob(ctx, { chat, models })
  const datasets = createDatasetService(ctx)
  const runs = createRunService(ctx, models)
  const manage = { permission: 'evaluation.manage' } as const
  const tags = ['evaluation']

  app.post(
    '/evaluation-datasets',
    { config: manage, schema: { tags, body: CreateDatasetBody, response: { 201: DatasetView } } },
    async (request, reply) =>
      reply.status(201).send(await datasets.create(request.requireUser().id, request.body)),
  )

  app.get(
    '/evaluation-datasets',
    { config: manage, schema: { tags, querystring: PageQuery, response: { 200: Page(DatasetView) } } },
    async (request) => datasets.list(request.query),
  )

  app.get(
    '/evaluation-datasets/:dataset_id',
    { config: manage, schema: { tags, params: DatasetParams, response: { 200: DatasetView } } },
    async (request) => datasets.get(request.params.dataset_id),
  )

  await app.register(async (uploads: typeof app) => {
    await uploads.register(multipartBodies, { gate: ctx.uploads })
    uploads.post(
      '/evaluation-datasets/:dataset_id/import',
      {
        config: manage,
        schema: {
          tags,
          params: DatasetParams,
          consumes: ['multipart/form-data'],
          description: 'Multipart field `file`: a CSV with columns input, expected and optionally metadata.',
          response: { 200: ImportResult },
        },
      },
      async (request) => {
        const upload = await request.receiveUpload({
          authorize: () => datasets.get(request.params.dataset_id),
        })
        const file = upload.files[0]
        if (file?.fieldName !== 'file')
          throw CommonErrors.VALIDATION_ERROR({
            fields: [{ field: 'body.file', message: 'a CSV file is required' }],
          })
        // A CSV is parsed whole; the upload's per-file cap bounds it.
        return datasets.importCsv(request.params.dataset_id, await readFile(file.path))
      },
    )
  })

  app.get(
    '/evaluation-datasets/:dataset_id/items',
    {
      config: manage,
      schema: {
        tags,
        params: DatasetParams,
        querystring: PageQuery,
        response: { 200: Page(DatasetItemView) },
      },
    },
    async (request) => datasets.listItems(request.params.dataset_id, request.query),
  )

  app.post(
    '/agents/:agent_id/evaluation-runs',
    {
      config: manage,
      schema: { tags, params: AgentParams, body: CreateRunBody, response: { 202: RunView } },
    },
    async (request, reply) =>
      reply.status(202).send(await runs.create(request.requireUser(), request.params.agent_id, request.body)),
  )

  app.get(
    '/agents/:agent_id/evaluation-runs',
    {
      config: manage,
      schema: { tags, params: AgentParams, querystring: PageQuery, response: { 200: Page(RunView) } },
    },
    async (request) => runs.list(request.requireUser(), request.params.agent_id, request.query),
  )

  app.get(
    '/agents/:agent_id/evaluation-runs/:run_id',
    { config: manage, schema: { tags, params: RunParams, response: { 200: RunView } } },
    async (request) => runs.get(request.requireUser(), request.params.agent_id, request.params.run_id),
  )

  app.get(
    '/agents/:agent_id/evaluation-runs/:run_id/results',
    {
      config: manage,
      schema: { tags, params: RunParams, querystring: PageQuery, response: { 200: Page(ResultView) } },
    },
    async (request) =>
      runs.listResults(request.requireUser(), request.params.agent_id, request.params.run_id, request.query),
  )

  app.post(
    '/agents/:agent_id/evaluation-runs/:run_id/cancel',
    { config: manage, schema: { tags, params: RunParams, response: { 200: RunView } } },
    async (request) => runs.cancel(request.requireUser(), request.params.agent_id, request.params.run_id),
  )
}
