/** The AI module's public face: the model registry shared by chat, evaluation and extraction. */
export { aiRoutes } from './ai.routes'
export { NO_ANSWER_PREFIX } from './answer-selector'
export {
  BUILTIN_PROVIDER_ID,
  EMBED_MODEL,
  EXTRACTIVE_MODEL,
  extractiveAnswer,
  JUDGE_MODEL,
} from './builtin-provider'
export { createModelRegistry, type ModelAdmin } from './model-registry'
export type {
  Capability,
  ChatChunk,
  ChatContext,
  ChatMessage,
  CompleteJsonInput,
  ContextPassage,
  ModelCatalogue,
  ModelRegistry,
  ResolvedModel,
  StreamChatInput,
  ToolCall,
  ToolDefinition,
} from './model-types'
export { parseJsonFromText } from './openai-provider'
export { multisetF1, overlapF1 } from './text-overlap'
