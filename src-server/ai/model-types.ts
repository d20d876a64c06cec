/** The one model interface shared by chat, evaluation and extraction. */

export const CAPABILITIES = ['chat', 'embeddings', 'json_schema', 'tools'] as const
export type Capability = (typeof CAPABILITIES)[number]

export interface ToolCall {
  id: string
  name: string
  /** JSON text, exactly as the model produced it. */
  arguments: string
}

export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string; tool_calls?: ToolCall[] }
  | { role: 'tool'; content: string; tool_call_id: string }

export interface ToolDefinition {
  type: 'function'
  function: { name: string; description?: string; parameters?: Record<string, unknown> }
}

/** Retrieved knowledge handed to the model; `index` is the citation marker number (`[1]`). */
export interface ContextPassage {
  index: number
  documentName: string
  content: string
  score: number
}
export interface ChatContext {
  /** The agent the conversation is with, named in honest "nothing found" answers. */
  agentName: string | null
  passages: ContextPassage[]
}

export type ChatChunk = { type: 'token'; content: string } | { type: 'tool_calls'; calls: ToolCall[] }

export interface ResolvedModel {
  provider: string
  model: string
  temperature: number
}

export interface ModelCatalogue {
  providers: { id: string; type: string; models: { id: string; capabilities: Capability[] }[] }[]
  defaults: { model_provider: string; model_name: string; model_temperature: number }
}

export interface StreamChatInput extends ResolvedModel {
  messages: ChatMessage[]
  tools?: ToolDefinition[]
  context?: ChatContext
  signal: AbortSignal
}

export interface CompleteJsonInput {
  provider: string
  model: string
  messages: ChatMessage[]
  /** A JSON schema (object) the answer must follow. */
  schema: Record<string, unknown>
  temperature?: number
  signal: AbortSignal
}

export interface ModelRegistry {
  listModels(): ModelCatalogue
  /**
   * Fills what is missing from the global defaults and validates the result; throws an AppError
   * (`UNKNOWN_MODEL_PROVIDER`, `UNKNOWN_MODEL`, `INVALID_TEMPERATURE`, `MODEL_CAPABILITY_MISSING`).
   */
  resolve(
    input: { provider?: string | null; model?: string | null; temperature?: number | null },
    capability?: Capability,
  ): ResolvedModel
  streamChat(input: StreamChatInput): AsyncIterable<ChatChunk>
  completeJson(input: CompleteJsonInput): Promise<unknown>
}

/** One backend (builtin or an OpenAI-compatible endpoint). */
export interface ModelProvider {
  id: string
  type: 'builtin' | 'openai_compatible'
  models: { id: string; capabilities: Capability[] }[]
  streamChat(input: StreamChatInput): AsyncIterable<ChatChunk>
  completeJson(input: CompleteJsonInput): Promise<unknown>
}
