import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { AppContext } from '../platform/app-context'
import { NoContent, Page, PageQuery, Uuid } from '../platform/http'
import { createCredentialService } from './credentials.service'
import {
  CreateMcpCredentialBody,
  CreateMcpMountBody,
  CreateMcpServerBody,
  HealthCheckResult,
  McpCallQuery,
  McpCallView,
  McpCredentialView,
  McpMountView,
  McpServerView,
  RotateMcpCredentialBody,
  UpdateMcpCredentialBody,
  UpdateMcpMountBody,
  UpdateMcpServerBody,
} from './mcp.schemas'
import { createMountService } from './mounts.service'
import { createServerService } from './servers.service'
import { createToolRuntime } from './tool-runtime'

const ServerParams = Type.Object({ mcp_server_id: Uuid })
const CredentialParams = Type.Object({ credential_id: Uuid })
const AgentParams = Type.Object({ agent_id: Uuid })
const MountParams = Type.Object({ agent_id: Uuid, mount_id: Uuid })
const SessionParams = Type.Object({ session_id: Type.String({ minLength: 1, maxLength: 200 }) })

/** Tool servers, credentials, mounts and the call audit; the plugin also owns the running servers' lifetime. */
export const mcpRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const runtime = createToolRuntime(ctx)
  const servers = createServerService(ctx, runtime)
  const credentials = createCredentialService(ctx, runtime)
  const mounts = createMountService(ctx)
  app.addHook('onClose', async () => runtime.close())
  const manage = { permission: 'mcp.manage' } as const
  const tags = ['mcp']

  app.post(
    '/mcp-servers',
    { config: manage, schema: { tags, body: CreateMcpServerBody, response: { 201: McpServerView } } },
    async (request, reply) =>
      reply.status(201).send(await servers.create(request.requireUser(), request.body)),
  )

  app.get(
    '/mcp-servers',
    { config: manage, schema: { tags, querystring: PageQuery, response: { 200: Page(McpServerView) } } },
    async (request) => servers.list(request.query),
  )

  app.get(
    '/mcp-servers/:mcp_server_id',
    { config: manage, schema: { tags, params: ServerParams, response: { 200: McpServerView } } },
    async (request) => servers.get(request.params.mcp_server_id),
  )

  app.patch(
    '/mcp-servers/:mcp_server_id',
    {
      config: manage,
      schema: { tags, params: ServerParams, body: UpdateMcpServerBody, response: { 200: McpServerView } },
    },
    async (request) => servers.update(request.requireUser(), request.params.mcp_server_id, request.body),
  )

  app.delete(
    '/mcp-servers/:mcp_server_id',
    { config: manage, schema: { tags, params: ServerParams, response: { 204: NoContent } } },
    async (request, reply) => {
      await servers.remove(request.requireUser().id, request.params.mcp_server_id)
      return reply.status(204).send(null)
    },
  )

  app.post(
    '/mcp-servers/:mcp_server_id/health-check',
    { config: manage, schema: { tags, params: ServerParams, response: { 200: HealthCheckResult } } },
    async (request) => servers.checkHealth(request.params.mcp_server_id),
  )

  app.post(
    '/mcp-credentials',
    { config: manage, schema: { tags, body: CreateMcpCredentialBody, response: { 201: McpCredentialView } } },
    async (request, reply) =>
      reply.status(201).send(await credentials.create(request.requireUser(), request.body)),
  )

  app.get(
    '/mcp-credentials',
    { config: manage, schema: { tags, querystring: PageQuery, response: { 200: Page(McpCredentialView) } } },
    async (request) => credentials.list(request.requireUser(), request.query),
  )

  app.get(
    '/mcp-credentials/:credential_id',
    { config: manage, schema: { tags, params: CredentialParams, response: { 200: McpCredentialView } } },
    async (request) => credentials.get(request.requireUser(), request.params.credential_id),
  )

  app.patch(
    '/mcp-credentials/:credential_id',
    {
      config: manage,
      schema: {
        tags,
        params: CredentialParams,
        body: UpdateMcpCredentialBody,
        response: { 200: McpCredentialView },
      },
    },
    async (request) => credentials.update(request.requireUser(), request.params.credential_id, request.body),
  )

  app.delete(
    '/mcp-credentials/:credential_id',
    { config: manage, schema: { tags, params: CredentialParams, response: { 204: NoContent } } },
    async (request, reply) => {
      await credentials.remove(request.requireUser(), request.params.credential_id)
      return reply.status(204).send(null)
    },
  )

  app.post(
    '/mcp-credentials/:credential_id/rotate',
    {
      config: manage,
      schema: {
        tags,
        params: CredentialParams,
        body: RotateMcpCredentialBody,
        response: { 200: McpCredentialView },
      },
    },
    async (request) =>
      credentials.rotate(request.requireUser(), request.params.credential_id, request.body.secret_payload),
  )

  app.post(
    '/agents/:agent_id/mcp-mounts',
    {
      config: manage,
      schema: { tags, params: AgentParams, body: CreateMcpMountBody, response: { 201: McpMountView } },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await mounts.create(request.requireUser(), request.params.agent_id, request.body)),
  )

  app.get(
    '/agents/:agent_id/mcp-mounts',
    {
      config: manage,
      schema: { tags, params: AgentParams, querystring: PageQuery, response: { 200: Page(McpMountView) } },
    },
    async (request) => mounts.list(request.params.agent_id, request.query),
  )

  app.patch(
    '/agents/:agent_id/mcp-mounts/:mount_id',
    {
      config: manage,
      schema: { tags, params: MountParams, body: UpdateMcpMountBody, response: { 200: McpMountView } },
    },
    async (request) =>
      mounts.update(request.requireUser(), request.params.agent_id, request.params.mount_id, request.body),
  )

  app.delete(
    '/agents/:agent_id/mcp-mounts/:mount_id',
    { config: manage, schema: { tags, params: MountParams, response: { 204: NoContent } } },
    async (request, reply) => {
      await mounts.remove(request.requireUser(), request.params.agent_id, request.params.mount_id)
      return reply.status(204).send(null)
    },
  )

  app.get(
    '/sessions/:session_id/mcp-calls',
    {
      config: manage,
      schema: {
        tags,
        params: SessionParams,
        querystring: McpCallQuery,
        response: { 200: Page(McpCallView) },
      },
    },
    async (request) => mounts.listCalls({ sessionId: request.params.session_id }, request.query),
  )

  app.get(
    '/agents/:agent_id/mcp-calls',
    {
      config: manage,
      schema: { tags, params: AgentParams, querystring: McpCallQuery, response: { 200: Page(McpCallView) } },
    },
    async (request) => mounts.listCalls({ agentId: request.params.agent_id }, request.query),
  )
}
