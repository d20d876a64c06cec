/** The conversation domain's public face: agents, sessions and the chat orchestrator. */
export {
  findAgentOwnerId,
  findAgentOwnerIdSync,
  findAgentsUsingProvider,
  findAgentTypeSync,
} from './agents.repository'
export {
  chatModelCheck,
  createAgentService,
  mayUseAgentSync,
  requireChangeableAgentSync,
  requireUsableAgentSync,
} from './agents.service'
export type { KnowledgeRetriever, RetrievedChunk, ToolRuntime, ToolTurn } from './chat-dependencies'
export { type ChatOrchestrator, type ChatOutcome, createChatOrchestrator } from './chat-orchestrator'
export { conversationPlugin } from './conversation.plugin'
export { agent, chatMessage, chatSession } from './conversation.tables'
export { type CitationOfDocument, citationsOfDocumentToSync, sessionExistsSync } from './sessions.repository'
