import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { create as contentDisposition } from 'content-disposition'
import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import type { AppContext } from '../platform/app-context'
import { NoContent, Page, PageQuery, UserRef } from '../platform/http'
import type { ChatOrchestrator } from './chat-orchestrator'
import {
  AgentIdParams,
  AgentMessageBody,
  AgentPage,
  AgentPageQuery,
  AgentSchema,
  AssignBody,
  CannedResponseIdParams,
  CannedResponsePage,
  CannedResponseSchema,
  CreateAgentBody,
  CreateCannedResponseBody,
  ExportQuery,
  HandoffRequestSchema,
  HandoverBody,
  MessageListQuery,
  MessagePage,
  MessageSchema,
  NoteBody,
  SessionExport,
  SessionIdParams,
  SessionListQuery,
  SessionPage,
  SessionSchema,
  StreamBody,
  UpdateAgentBody,
} from './conversation.schemas'
import { streamChat } from './sse-stream'
import { toMarkdown } from './transcript'

/** Takeover, release and resolve take an optional body: a bare POST means `{}`. */
async function emptyBodyAsObject(request: FastifyRequest) {
  request.body ??= {}
}

/** Agents, sessions and `/stream` over HTTP; the rules live in the orchestrator. */
export const conversationRoutes: FastifyPluginAsyncTypebox<{
  ctx: AppContext
  chat: ChatOrchestrator
}> = async (app, { ctx, chat }) => {
  const agentTags = ['agents']
  const chatTags = ['chat']
  const operate = { permission: 'chat.operate' } as const

  app.post(
    '/agents',
    { schema: { tags: agentTags, body: CreateAgentBody, response: { 201: AgentSchema } } },
    async (request, reply) =>
      reply.status(201).send(await chat.agents.create(request.requireUser(), request.body)),
  )
  app.get(
    '/agents',
    { schema: { tags: agentTags, querystring: AgentPageQuery, response: { 200: AgentPage } } },
    async (request) => chat.agents.list(request.requireUser(), request.query),
  )
  app.get(
    '/agents/:agent_id',
    { schema: { tags: agentTags, params: AgentIdParams, response: { 200: AgentSchema } } },
    async (request) => chat.agents.get(request.requireUser(), request.params.agent_id),
  )
  app.patch(
    '/agents/:agent_id',
    {
      schema: {
        tags: agentTags,
        params: AgentIdParams,
        body: UpdateAgentBody,
        response: { 200: AgentSchema },
      },
    },
    async (request) => chat.agents.update(request.requireUser(), request.params.agent_id, request.body),
  )

  app.post(
    '/stream',
    {
      schema: {
        tags: chatTags,
        description: 'Streamed chat: `data: {json}` events (token, error, done last) as text/event-stream.',
        body: StreamBody,
        produces: ['text/event-stream'],
        response: { 200: Type.String({ description: 'text/event-stream' }) },
      },
    },
    async (request, reply) =>
      streamChat(chat, request.requireUser(), request.body, reply, request.log, ctx.config.ssePingIntervalMs),
  )

  app.get(
    '/sessions',
    { schema: { tags: chatTags, querystring: SessionListQuery, response: { 200: SessionPage } } },
    async (request) => chat.listSessions(request.requireUser(), request.query),
  )
  app.get(
    '/sessions/:session_id/messages',
    {
      schema: {
        tags: chatTags,
        params: SessionIdParams,
        querystring: MessageListQuery,
        response: { 200: MessagePage },
      },
    },
    async (request) => chat.listMessages(request.requireUser(), request.params.session_id, request.query),
  )
  app.get(
    '/sessions/:session_id/export',
    {
      schema: {
        tags: chatTags,
        params: SessionIdParams,
        querystring: ExportQuery,
        response: { 200: Type.Union([SessionExport, Type.String()]) },
      },
    },
    async (request, reply) => {
      const transcript = await chat.exportSession(request.requireUser(), request.params.session_id)
      if (request.query.format !== 'markdown') return transcript
      return reply
        .type('text/markdown; charset=utf-8')
        .header('content-disposition', contentDisposition(`session-${transcript.session.id}.md`))
        .send(toMarkdown(transcript))
    },
  )
  const handovers = [
    { action: 'takeover', run: chat.takeover },
    { action: 'release', run: chat.release },
    {
      action: 'resolve',
      run: chat.resolve,
      description: 'Close the conversation: back to the AI, unassigned, out of the default inbox view.',
    },
  ]
  for (const { action, run, description } of handovers)
    app.post(
      `/sessions/:session_id/${action}`,
      {
        config: operate,
        preValidation: emptyBodyAsObject,
        schema: {
          tags: chatTags,
          ...(description && { description }),
          params: SessionIdParams,
          body: HandoverBody,
          response: { 200: SessionSchema },
        },
      },
      async (request) => run(request.requireUser(), request.params.session_id, request.body),
    )
  app.post(
    '/sessions/:session_id/request-human',
    {
      schema: {
        tags: chatTags,
        description:
          'The user asks for a person: the session waits for one (top of the inbox, operators alerted) and the user is told so in the configured words.',
        params: SessionIdParams,
        response: { 200: HandoffRequestSchema },
      },
    },
    async (request) => chat.requestHuman(request.requireUser(), request.params.session_id),
  )
  app.post(
    '/sessions/:session_id/agent-message',
    {
      config: operate,
      schema: {
        tags: chatTags,
        params: SessionIdParams,
        body: AgentMessageBody,
        response: { 201: MessageSchema },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await chat.agentMessage(request.requireUser(), request.params.session_id, request.body.content),
        ),
  )
  app.post(
    '/sessions/:session_id/assign',
    {
      config: operate,
      schema: { tags: chatTags, params: SessionIdParams, body: AssignBody, response: { 200: SessionSchema } },
    },
    async (request) => chat.assign(request.requireUser(), request.params.session_id, request.body),
  )
  app.post(
    '/sessions/:session_id/read',
    {
      config: operate,
      schema: {
        tags: chatTags,
        description: 'Marks the session read for the calling operator (their unread count drops to 0).',
        params: SessionIdParams,
        response: { 200: SessionSchema },
      },
    },
    async (request) => chat.markRead(request.requireUser(), request.params.session_id),
  )
  app.post(
    '/sessions/:session_id/notes',
    {
      config: operate,
      schema: {
        tags: chatTags,
        description: 'A private note (role `note`): shown to operators, never to the user.',
        params: SessionIdParams,
        body: NoteBody,
        response: { 201: MessageSchema },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await chat.addNote(request.requireUser(), request.params.session_id, request.body.content)),
  )

  app.get(
    '/operators',
    {
      config: operate,
      schema: {
        tags: chatTags,
        description: 'Active users holding chat.operate: whom a session can be assigned to.',
        querystring: PageQuery,
        response: { 200: Page(UserRef) },
      },
    },
    async (request) => chat.listOperators(request.requireUser(), request.query),
  )
  app.get(
    '/canned-responses',
    {
      config: operate,
      schema: { tags: chatTags, querystring: PageQuery, response: { 200: CannedResponsePage } },
    },
    async (request) => chat.cannedResponses.list(request.requireUser(), request.query),
  )
  app.post(
    '/canned-responses',
    {
      config: operate,
      schema: { tags: chatTags, body: CreateCannedResponseBody, response: { 201: CannedResponseSchema } },
    },
    async (request, reply) =>
      reply.status(201).send(await chat.cannedResponses.create(request.requireUser(), request.body)),
  )
  app.delete(
    '/canned-responses/:canned_response_id',
    {
      config: operate,
      schema: { tags: chatTags, params: CannedResponseIdParams, response: { 204: NoContent } },
    },
    async (request, reply) => {
      await chat.cannedResponses.remove(request.requireUser(), request.params.canned_response_id)
      return reply.status(204).send(null)
    },
  )
}
