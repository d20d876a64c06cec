import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { AppContext } from '../platform/app-context'
import type { ChatOrchestrator } from './chat-orchestrator'
import { conversationRoutes } from './conversation.routes'
import { conversationSockets } from './conversation.ws'

/** The conversation domain over HTTP and WebSocket; `chat` is the one orchestrator built in app.ts. */
export const conversationPlugin: FastifyPluginAsyncTypebox<{
  ctx: AppContext
  chat: ChatOrchestrator
}> = async (app, options) => {
  await app.register(conversationRoutes, options)
  await app.register(conversationSockets, options)
}
