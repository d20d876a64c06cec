import type { ChatContext, ChatMessage, ModelRegistry, ResolvedModel } from '../ai'
import type { KnowledgeRetriever, ToolRuntime } from './chat-dependencies'
import type { StoredCitation } from './conversation.tables'
import type { MessageWithAuthor } from './sessions.repository'

/** Tool rounds per reply; after the last one the model answers without tools. */
export const MAX_TOOL_ROUNDS = 4
/** Passages retrieved per question. */
const RETRIEVAL_TOP_K = 5
const SNIPPET_LENGTH = 240

/** The citations a reply refers to by marker (`[2]`): a passage the reply does not use is not cited. */
export function citedIn(content: string, citations: StoredCitation[]): StoredCitation[] {
  return citations.filter((citation) => content.includes(`[${citation.index}]`))
}

/** The text a model sees for a stored message: non-chat message types carry their type on a first line. */
export function modelText(content: string, messageType: string): string {
  return messageType === 'user_chat' ? content : `[message_type=${messageType}]\n${content}`
}

function toModelMessage(row: MessageWithAuthor): ChatMessage {
  if (row.role === 'user') return { role: 'user', content: modelText(row.content, row.messageType) }
  // An operator's words are the conversation's side of the exchange, like the AI's.
  return { role: 'assistant', content: row.content }
}

export interface GenerationInput {
  model: ResolvedModel
  supportsTools: boolean
  sessionId: string
  agent: { id: string; name: string; systemPrompt: string } | null
  history: MessageWithAuthor[]
  question: string
  signal: AbortSignal
  onToken(text: string): void
  /** Called once retrieval is done, so citations are known even if generation stops early. */
  onCitations(citations: StoredCitation[]): void
}

/**
 * One AI reply: retrieval over the agent's mounts, the agent's system prompt, the history, then the model's
 * stream with up to MAX_TOOL_ROUNDS rounds of tool calls. Returns the streamed text (exactly the tokens
 * handed to `onToken`). Stops quietly when `signal` aborts; model failures throw.
 */
export async function generateReply(
  deps: { models: ModelRegistry; retriever?: KnowledgeRetriever; tools?: ToolRuntime },
  input: GenerationInput,
): Promise<string> {
  let context: ChatContext = { agentName: input.agent?.name ?? null, passages: [] }
  if (input.agent && deps.retriever) {
    const chunks = await deps.retriever.retrieveForAgent(input.agent.id, input.question, RETRIEVAL_TOP_K)
    context = {
      agentName: input.agent.name,
      passages: chunks.map((chunk, i) => ({
        index: i + 1,
        documentName: chunk.document_name,
        content: chunk.content,
        score: chunk.score,
      })),
    }
    input.onCitations(
      chunks.map((chunk, i) => ({
        index: i + 1,
        source_id: chunk.source_id,
        document_id: chunk.document_id,
        chunk_id: chunk.chunk_id,
        document_name: chunk.document_name,
        page_number: chunk.page_number,
        snippet: chunk.content.slice(0, SNIPPET_LENGTH),
        score: chunk.score,
      })),
    )
  }
  if (input.signal.aborted) return ''

  const messages: ChatMessage[] = [
    ...(input.agent?.systemPrompt ? [{ role: 'system' as const, content: input.agent.systemPrompt }] : []),
    ...input.history.map(toModelMessage),
  ]
  const turn =
    input.agent && deps.tools && input.supportsTools
      ? await deps.tools.startTurn({ agentId: input.agent.id, sessionId: input.sessionId })
      : null

  let content = ''
  for (let round = 0; ; round++) {
    const offerTools = turn !== null && turn.tools.length > 0 && round < MAX_TOOL_ROUNDS
    let roundText = ''
    let calls: { id: string; name: string; arguments: string }[] = []
    for await (const chunk of deps.models.streamChat({
      ...input.model,
      messages,
      ...(offerTools ? { tools: turn.tools } : {}),
      context,
      signal: input.signal,
    })) {
      if (input.signal.aborted) return content
      if (chunk.type === 'token') {
        roundText += chunk.content
        content += chunk.content
        input.onToken(chunk.content)
      } else calls = chunk.calls
    }
    if (!offerTools || calls.length === 0 || input.signal.aborted) return content
    messages.push({ role: 'assistant', content: roundText, tool_calls: calls })
    for (const call of calls) {
      const result = await turn.call(call.name, call.arguments)
      messages.push({ role: 'tool', tool_call_id: call.id, content: result.content })
      if (input.signal.aborted) return content
    }
  }
}
