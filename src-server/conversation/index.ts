/** The conversation domain's public face: agents, sessions and the chat orchestrator. */
export { findAgentOwnerId, findAgentsUsingProvider, findAgentType } from './agents.repository'
export { chatModelCheck, createAgentService, requireUsableAgent } from './agents.service'
export type { KnowledgeRetriever, RetrievedChunk, ToolRuntime, ToolTurn } from './chat-dependencies'
export { type ChatOrchestrator, type ChatOutcome, createChatOrchestrator } from './chat-orchestrator'
export { conversationPlugin } from './conversation.plugin'
export { agent, chatMessage, chatSession } from './conversation.tables'
export { isDocumentCitedTo, sessionExists } from './sessions.repository'
