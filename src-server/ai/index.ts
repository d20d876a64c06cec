/** The AI module's public face: the model registry shared by chat, evaluation and extraction, and the embedders. */
export { aiRoutes } from './ai.routes'
export { saysDoNotKnow } from './answer-selector'
export {
  BUILTIN_PROVIDER_ID,
  EMBED_MODEL,
  EXTRACTIVE_MODEL,
  extractiveAnswer,
  JUDGE_MODEL,
} from './builtin-provider'
export {
  BUILTIN_EMBEDDING_DIM,
  BUILTIN_EMBEDDING_MODEL,
  builtinEmbed,
  builtinEmbedMany,
  createEmbedder,
  type Embedder,
  embeddingKey,
  localEmbedderForKey,
  USE_LITE_MODEL,
} from './embeddings'
export { createModelRegistry, type ModelAdmin, type ProviderUsers } from './model-registry'
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
export { findSealedProviderKey } from './provider-config'
export { ENGLISH_STOPWORDS } from './stopwords'
export { multisetF1, overlapF1 } from './text-overlap'
