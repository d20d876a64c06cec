import { AiErrors } from './ai.errors'
import { doNotKnow, selectAnswer } from './answer-selector'
import type {
  ChatChunk,
  ChatContext,
  ChatMessage,
  CompleteJsonInput,
  ModelProvider,
  StreamChatInput,
} from './model-types'
import { overlapF1, spaceFragments } from './text-overlap'

export const BUILTIN_PROVIDER_ID = 'builtin'
export const EXTRACTIVE_MODEL = 'extractive'
export const JUDGE_MODEL = 'judge'
export const EMBED_MODEL = 'embed-local'

/** The question the user asked last, without the `[message_type=...]` line the pipeline may have added. */
function lastQuestion(messages: ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]
    if (message?.role === 'user') return message.content.replace(/^\[message_type=[^\]]*\]\n/u, '')
  }
  return ''
}

/**
 * The extractive answer: the retrieved sentence that answers the question's type (`selectAnswer`), cited with
 * its passage's marker and led by the short answer when there is one ("William the Conqueror — ... [2]"). With
 * nothing retrieved, or no sentence that answers with enough evidence, it says plainly that it does not know and
 * offers a person: never an instruction meant for whoever runs the workspace.
 */
export function extractiveAnswer(question: string, context: ChatContext | undefined): string {
  const answer = selectAnswer(question, context?.passages ?? [])
  if (!answer) return doNotKnow(question)
  const lead = answer.span && !answer.sentence.startsWith(answer.span) ? `${answer.span} — ` : ''
  return `${lead}${answer.sentence} [${answer.passageIndex}]`
}

/** Finds `expected` and `output` in the judge prompt: a JSON object, or `Expected:` / `Output:` lines. */
function judgeInputs(messages: ChatMessage[]): { expected: string; output: string } | null {
  const text = messages
    .filter((message) => message.role === 'user')
    .map((message) => message.content)
    .join('\n')
  try {
    const parsed = JSON.parse(text) as Record<string, unknown>
    if (typeof parsed.expected === 'string' && typeof parsed.output === 'string')
      return { expected: parsed.expected, output: parsed.output }
  } catch {
    // Not JSON: look for labelled lines below.
  }
  const sections = new Map<string, string[]>()
  let label: string | null = null
  for (const line of text.split('\n')) {
    const heading = /^(input|question|expected|output)\s*:\s*(.*)$/iu.exec(line)
    if (heading?.[1]) {
      label = heading[1].toLowerCase()
      sections.set(label, [heading[2] ?? ''])
    } else if (label) sections.get(label)?.push(line)
  }
  const expected = sections.get('expected')
  const output = sections.get('output')
  return expected && output
    ? { expected: expected.join('\n').trim(), output: output.join('\n').trim() }
    : null
}

async function* streamExtractive(input: StreamChatInput): AsyncIterable<ChatChunk> {
  const answer = extractiveAnswer(lastQuestion(input.messages), input.context)
  for (const fragment of spaceFragments(answer)) {
    if (input.signal.aborted) return
    yield { type: 'token', content: fragment }
    // Yield to the event loop between fragments so a disconnect or takeover is noticed mid-answer.
    await new Promise((resolve) => setImmediate(resolve))
  }
}

/**
 * The offline provider. `extractive` chats from retrieved knowledge only (no tools); `judge` returns
 * `{score, rationale}` where score is the token-overlap F1 between expected and output (a documented
 * similarity, not a model's opinion); `embed-local` is listed for the knowledge domain's local embedder.
 */
export function createBuiltinProvider(): ModelProvider {
  return {
    id: BUILTIN_PROVIDER_ID,
    type: 'builtin',
    models: [
      { id: EXTRACTIVE_MODEL, capabilities: ['chat'] },
      { id: JUDGE_MODEL, capabilities: ['json_schema'] },
      { id: EMBED_MODEL, capabilities: ['embeddings'] },
    ],
    streamChat(input) {
      if (input.model !== EXTRACTIVE_MODEL)
        throw AiErrors.MODEL_CAPABILITY_MISSING({ model: input.model }, `builtin/${input.model} cannot chat.`)
      return streamExtractive(input)
    },
    async completeJson(input: CompleteJsonInput) {
      if (input.model !== JUDGE_MODEL)
        throw AiErrors.MODEL_CAPABILITY_MISSING(
          { model: input.model },
          `builtin/${input.model} cannot produce structured output; only builtin/judge can.`,
        )
      const inputs = judgeInputs(input.messages)
      if (!inputs)
        throw AiErrors.STRUCTURED_OUTPUT_FAILED(
          {},
          'The builtin judge needs the expected answer and the output: a user message {"expected", "output"} or "Expected:" and "Output:" lines.',
        )
      const score = Math.round(overlapF1(inputs.expected, inputs.output) * 1000) / 1000
      return {
        score,
        rationale: `builtin judge (not a language model): token-overlap F1 between the expected answer and the output is ${score}.`,
      }
    },
  }
}
