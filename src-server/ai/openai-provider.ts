import type OpenAI from 'openai'
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions'
import { AiErrors } from './ai.errors'
import type {
  ChatChunk,
  ChatContext,
  ChatMessage,
  CompleteJsonInput,
  ModelProvider,
  StreamChatInput,
  ToolCall,
} from './model-types'
import { lazyOpenAiClient, openAiClass } from './openai-client'

export interface OpenAiProviderConfig {
  id: string
  baseUrl: string
  apiKey: string | null
  models: string[]
}

/** Retrieved passages become one system message after the agent's own, with markers the model can cite. */
function withContext(messages: ChatMessage[], context: ChatContext | undefined): ChatMessage[] {
  if (!context || context.passages.length === 0) return messages
  const knowledge = context.passages
    .map((passage) => `[${passage.index}] (${passage.documentName}) ${passage.content}`)
    .join('\n\n')
  const note: ChatMessage = {
    role: 'system',
    content: `Answer from the knowledge below when it is relevant, citing passages with their markers like [1].\n\n${knowledge}`,
  }
  const firstNonSystem = messages.findIndex((message) => message.role !== 'system')
  const at = firstNonSystem === -1 ? messages.length : firstNonSystem
  return [...messages.slice(0, at), note, ...messages.slice(at)]
}

function toOpenAi(messages: ChatMessage[]): ChatCompletionMessageParam[] {
  return messages.map((message): ChatCompletionMessageParam => {
    if (message.role === 'tool')
      return { role: 'tool', content: message.content, tool_call_id: message.tool_call_id }
    if (message.role === 'assistant' && message.tool_calls?.length)
      return {
        role: 'assistant',
        content: message.content || null,
        tool_calls: message.tool_calls.map((call) => ({
          id: call.id,
          type: 'function' as const,
          function: { name: call.name, arguments: call.arguments },
        })),
      }
    return { role: message.role, content: message.content }
  })
}

function providerFailure(sdk: typeof OpenAI, providerId: string, error: unknown): Error {
  if (error instanceof sdk.APIUserAbortError) return error
  const status = error instanceof sdk.APIError && error.status ? ` (HTTP ${error.status})` : ''
  const reason = error instanceof Error ? error.message : String(error)
  return AiErrors.MODEL_PROVIDER_FAILED(
    { provider: providerId },
    `The model provider "${providerId}" failed${status}: ${reason}`,
  )
}

/** The first JSON object or array in a text, also inside a ```json fence. */
export function parseJsonFromText(text: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/u.exec(text)?.[1]
  for (const candidate of [text, fenced]) {
    if (candidate === undefined) continue
    try {
      return JSON.parse(candidate.trim())
    } catch {
      // Try the next form.
    }
  }
  const start = text.search(/[{[]/u)
  const end = Math.max(text.lastIndexOf('}'), text.lastIndexOf(']'))
  if (start !== -1 && end > start) {
    try {
      return JSON.parse(text.slice(start, end + 1))
    } catch {
      // Fall through to the error below.
    }
  }
  throw AiErrors.STRUCTURED_OUTPUT_FAILED({}, 'The model did not return valid JSON.')
}

/**
 * An OpenAI-compatible endpoint (OpenAI, Ollama, vLLM, LM Studio, llama.cpp server) through the `openai` SDK:
 * real token streaming, function calling with streamed `tool_calls` deltas assembled by index, and structured
 * output with `response_format: json_schema`, falling back to JSON in plain text for servers without it.
 */
export function createOpenAiProvider(config: OpenAiProviderConfig): ModelProvider {
  const clientOf = lazyOpenAiClient({
    baseURL: config.baseUrl,
    // Local servers (Ollama, llama.cpp) accept any key; the SDK insists on one.
    apiKey: config.apiKey ?? 'no-key',
    maxRetries: 0,
    timeout: 120_000,
  })

  async function* streamChat(input: StreamChatInput): AsyncIterable<ChatChunk> {
    const calls = new Map<number, ToolCall>()
    const [sdk, client] = await Promise.all([openAiClass(), clientOf()])
    try {
      const stream = await client.chat.completions.create(
        {
          model: input.model,
          temperature: input.temperature,
          messages: toOpenAi(withContext(input.messages, input.context)),
          stream: true,
          ...(input.tools?.length ? { tools: input.tools } : {}),
        },
        { signal: input.signal },
      )
      for await (const chunk of stream) {
        const delta = chunk.choices[0]?.delta
        if (delta?.content) yield { type: 'token', content: delta.content }
        for (const part of delta?.tool_calls ?? []) {
          const call = calls.get(part.index) ?? { id: '', name: '', arguments: '' }
          if (part.id) call.id = part.id
          if (part.function?.name) call.name += part.function.name
          if (part.function?.arguments) call.arguments += part.function.arguments
          calls.set(part.index, call)
        }
      }
    } catch (error) {
      throw providerFailure(sdk, config.id, error)
    }
    if (calls.size > 0)
      yield {
        type: 'tool_calls',
        calls: [...calls.entries()]
          .sort(([a], [b]) => a - b)
          .map(([index, call]) => ({ ...call, id: call.id || `call_${index}` })),
      }
  }

  async function completeJson(input: CompleteJsonInput): Promise<unknown> {
    const messages = toOpenAi(input.messages)
    const base = { model: input.model, temperature: input.temperature ?? 0, messages }
    let content: string | null | undefined
    const [sdk, client] = await Promise.all([openAiClass(), clientOf()])
    try {
      const response = await client.chat.completions.create(
        {
          ...base,
          response_format: {
            type: 'json_schema',
            json_schema: { name: 'answer', schema: input.schema, strict: true },
          },
        },
        { signal: input.signal },
      )
      content = response.choices[0]?.message.content
    } catch (error) {
      // A server without structured output rejects response_format with a 4xx: ask for JSON in text instead.
      if (!(error instanceof sdk.APIError) || !error.status || error.status >= 500 || error.status === 401)
        throw providerFailure(sdk, config.id, error)
      try {
        const response = await client.chat.completions.create(
          {
            ...base,
            messages: [
              ...messages,
              {
                role: 'system',
                content: `Answer with one JSON value only, following this JSON schema:\n${JSON.stringify(input.schema)}`,
              },
            ],
          },
          { signal: input.signal },
        )
        content = response.choices[0]?.message.content
      } catch (fallbackError) {
        throw providerFailure(sdk, config.id, fallbackError)
      }
    }
    return parseJsonFromText(content ?? '')
  }

  return {
    id: config.id,
    type: 'openai_compatible',
    models: config.models.map((id) => ({ id, capabilities: ['chat', 'json_schema', 'tools'] })),
    streamChat,
    completeJson,
  }
}
