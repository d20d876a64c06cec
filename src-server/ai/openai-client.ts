import type OpenAI from 'openai'
import type { ClientOptions } from 'openai'

let sdk: Promise<typeof OpenAI> | undefined

/** The `openai` SDK's client class, loaded on first use: a server start without a remote model spends nothing on it. */
export function openAiClass(): Promise<typeof OpenAI> {
  sdk ??= import('openai').then((module) => module.default)
  return sdk
}

/** A client made on the first call and reused after (providers and embedders are built at start, used later). */
export function lazyOpenAiClient(options: ClientOptions): () => Promise<OpenAI> {
  let client: Promise<OpenAI> | undefined
  return () => {
    client ??= openAiClass().then((OpenAIClient) => new OpenAIClient(options))
    return client
  }
}
