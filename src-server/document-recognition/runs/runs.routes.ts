import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { IdParams, multipartBodies, Page, PageQuery, pageOf, type UploadGate } from '../../platform/http'
import { presentAgentRun, presentRuntimeAgent, presentRuntimeAgentVersion } from './runs.presenters'
import {
  AgentRunSchema,
  CreateRuntimeAgentBody,
  CreateVersionBody,
  RuntimeAgentDetail,
  RuntimeAgentSchema,
  RuntimeAgentVersionSchema,
  VersionParams,
} from './runs.schemas'
import type { AgentRunService } from './runs.service'
import { requireField } from './upload'

export const agentRunRoutes: FastifyPluginAsyncTypebox<{
  agentRuns: AgentRunService
  uploadGate: UploadGate
}> = async (app, { agentRuns, uploadGate }) => {
  const tags = ['agent-runs']
  const write = { permission: 'document_recognition.write' } as const

  const agentView = async (id: string) => {
    const agent = await agentRuns.getAgent(id)
    return {
      ...presentRuntimeAgent(agent, await agentRuns.usernamesOf(agent.ownerId ? [agent.ownerId] : [])),
      versions: (await agentRuns.listVersions(agent.id)).map(presentRuntimeAgentVersion),
    }
  }

  app.get(
    '/admin/runtime-agents',
    {
      config: write,
      schema: { tags, querystring: PageQuery, response: { 200: Page(RuntimeAgentSchema) } },
    },
    async (request) => {
      const agents = pageOf(await agentRuns.listAgents(), request.query)
      const usernames = await agentRuns.usernamesOf(
        agents.items.flatMap((a) => (a.ownerId ? [a.ownerId] : [])),
      )
      return { ...agents, items: agents.items.map((agent) => presentRuntimeAgent(agent, usernames)) }
    },
  )

  app.post(
    '/admin/runtime-agents',
    { config: write, schema: { tags, body: CreateRuntimeAgentBody, response: { 201: RuntimeAgentDetail } } },
    async (request, reply) => {
      const agent = await agentRuns.createAgent(request.requireUser().id, request.body)
      return reply.status(201).send(await agentView(agent.id))
    },
  )

  app.get(
    '/admin/runtime-agents/:id',
    { config: write, schema: { tags, params: IdParams, response: { 200: RuntimeAgentDetail } } },
    async (request) => agentView(request.params.id),
  )

  app.post(
    '/admin/runtime-agents/:id/versions',
    {
      config: write,
      schema: {
        tags,
        params: IdParams,
        body: CreateVersionBody,
        response: { 201: RuntimeAgentVersionSchema },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          presentRuntimeAgentVersion(
            await agentRuns.createVersion(request.requireUser().id, request.params.id, request.body.config),
          ),
        ),
  )

  app.post(
    '/admin/runtime-agents/:id/versions/:vid/publish',
    { config: write, schema: { tags, params: VersionParams, response: { 200: RuntimeAgentVersionSchema } } },
    async (request) =>
      presentRuntimeAgentVersion(
        await agentRuns.publishVersion(request.requireUser().id, request.params.id, request.params.vid),
      ),
  )

  await app.register(async (uploads: typeof app) => {
    await uploads.register(multipartBodies, { gate: uploadGate })
    uploads.post(
      '/agent-runs',
      { schema: { tags, consumes: ['multipart/form-data'], response: { 202: AgentRunSchema } } },
      async (request, reply) => {
        const user = request.requireUser()
        // Who may run the agent is decided from the fields ahead of the file, before the file is read.
        const upload = await request.receiveUpload({
          authorize: (fields) => agentRuns.runnableAgent(user, requireField(fields, 'runtime_agent_id')),
        })
        const run = await agentRuns.createRun({
          agent: upload.authorized,
          createdById: user.id,
          file: upload.files[0],
        })
        return reply.status(202).send(presentAgentRun(run))
      },
    )
  })

  app.get(
    '/agent-runs/:id',
    { schema: { tags, params: IdParams, response: { 200: AgentRunSchema } } },
    async (request) => {
      return presentAgentRun(await agentRuns.readableRun(request.requireUser(), request.params.id))
    },
  )
}
