/** The conversation domain's public face: agents, sessions and the chat orchestrator. */
export {
  findAgentOwnerId,
  findAgentsUsingProvider,
  findAgentType,
} from './agents.repository'
export {
  chatModelCheck,
  createAgentService,
  mayUseAgent,
  requireChangeableAgent,
  requireUsableAgent,
} from './agents.service'
export type { KnowledgeRetriever, RetrievedChunk, ToolRuntime, ToolTurn } from './chat-dependencies'
export { type ChatOrchestrator, type ChatOutcome, createChatOrchestrator } from './chat-orchestrator'
export { conversationPlugin } from './conversation.plugin'
export { agent, chatMessage, chatSession } from './conversation.tables'
export { type CitationOfDocument, citationsOfDocumentTo, sessionExists } from './sessions.repository'
