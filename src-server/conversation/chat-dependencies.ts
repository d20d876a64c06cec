import type { ToolDefinition } from '../ai'

/**
 * The shapes this domain consumes from knowledge and MCP (declared structurally so either may be absent:
 * no retriever = no retrieval, no tool runtime = no tools).
 */
export interface RetrievedChunk {
  chunk_id: string
  source_id: string
  document_id: string
  document_name: string
  page_number: number | null
  content: string
  score: number
}

export interface KnowledgeRetriever {
  retrieveForAgent(agentId: string, query: string, topK?: number): Promise<RetrievedChunk[]>
}

export interface ToolTurn {
  tools: ToolDefinition[]
  call(
    name: string,
    argumentsJson: string,
  ): Promise<{ content: string; outcome: 'success' | 'timeout' | 'error' | 'blocked' }>
}

export interface ToolRuntime {
  startTurn(input: { agentId: string; sessionId: string }): Promise<ToolTurn>
  close(): Promise<void>
}
