/**
 * Composes the conversation domain for the routes, the WebSocket and evaluation: session state, the reply
 * pipeline and the agent service (built in app.ts) over one socket hub. Invariant: `/stream`, the WebSocket and
 * evaluation runs share one set of reply fences, so a takeover made anywhere fences replies everywhere.
 */
import type { ModelRegistry } from '../ai'
import type { AppContext } from '../platform/app-context'
import type { AgentService } from './agents.service'
import { createCannedResponses } from './canned-responses.service'
import type { KnowledgeRetriever, ToolRuntime } from './chat-dependencies'
import { createOperatorPresence } from './operator-presence'
import { createReplyPipeline } from './reply-pipeline'
import { createSessionPublisher } from './session-publisher'
import { createSessionState, ReplyFences } from './session-state'

export type { ChatOutcome } from './reply-pipeline'

export function createChatOrchestrator(
  ctx: AppContext,
  deps: { models: ModelRegistry; agents: AgentService; retriever?: KnowledgeRetriever; tools?: ToolRuntime },
) {
  const fences = new ReplyFences()
  const publisher = createSessionPublisher(ctx.database, ctx.events, fences)
  const presence = createOperatorPresence(ctx.database, publisher.hub, ctx.log)
  const replies = createReplyPipeline(ctx, { ...deps, publisher, fences, presence })

  return {
    agents: deps.agents,
    cannedResponses: createCannedResponses(ctx.database),
    ...createSessionState(ctx.database, { agents: deps.agents, publisher, presence }),
    converse: replies.converse,
    complete: replies.complete,

    /**
     * Server shutdown: stop every reply in flight, close every socket with a message, stop counting this
     * instance's operators as online, stop tool servers.
     */
    async close(): Promise<void> {
      replies.stop()
      publisher.close('The server is shutting down.')
      await presence.close()
      await deps.tools?.close()
    },
  }
}

export type ChatOrchestrator = ReturnType<typeof createChatOrchestrator>
