import { createServer, type IncomingMessage, type Server } from 'node:http'

/** What the fake model does for one request. */
export interface FakeTurn {
  /** Content fragments streamed one chunk each (or joined for a non-streamed answer). */
  tokens?: string[]
  /** Tool calls streamed as `tool_calls` deltas, arguments split into several pieces. */
  toolCalls?: { id: string; name: string; arguments: string }[]
  /** Pause before each chunk (slow models). */
  delayMs?: number
  /**
   * Answer only once this settles: a model still thinking for as long as the test wants, so the caller is held at a
   * known point. A caller that went away meanwhile gets nothing.
   */
  holdUntil?: Promise<unknown>
  /** Answer with this HTTP status and an OpenAI-style error instead. */
  failStatus?: number
  /** Cut the connection after this many streamed tokens, as a crashing model server would. */
  dropAfterTokens?: number
}

export interface ChatCompletionRequest {
  model: string
  messages: { role: string; content: string | null; tool_calls?: unknown[]; tool_call_id?: string }[]
  temperature?: number
  stream?: boolean
  tools?: { type: string; function: { name: string } }[]
  response_format?: { type: string; json_schema?: unknown }
}

export interface FakeOpenAi {
  /** Base URL to configure (ends in /v1). */
  baseUrl: string
  requests: ChatCompletionRequest[]
  /** The Authorization header of each request, in order. */
  authorizations: (string | undefined)[]
  /** Decides each answer; replace per test. */
  respond: (request: ChatCompletionRequest) => FakeTurn
  /** How many streamed responses the client cut off. */
  disconnects: number
  /** What `GET /v1/models` lists; null answers it 404, as servers without that endpoint do. */
  models: string[] | null
  /** How many times `GET /v1/models` was asked (apart from `requests`, which holds chat completions only). */
  modelListings: number
  close(): Promise<void>
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function readJson(request: IncomingMessage): Promise<ChatCompletionRequest> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return JSON.parse(Buffer.concat(chunks).toString('utf8'))
}

/**
 * An OpenAI-compatible model server on 127.0.0.1 for tests: `/v1/models`, `/v1/chat/completions` with real SSE streaming of
 * `chat.completion.chunk`s (content and `tool_calls` deltas), non-streamed answers for JSON-schema output,
 * configurable slowness and failures.
 */
export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  const fake: FakeOpenAi = {
    baseUrl: '',
    requests: [],
    authorizations: [],
    respond: () => ({ tokens: ['Hello', ' from', ' the', ' fake', ' model.'] }),
    disconnects: 0,
    models: [],
    modelListings: 0,
    close: async () => {},
  }
  const server: Server = createServer(async (request, response) => {
    if (request.method === 'GET' && request.url?.endsWith('/models') && fake.models) {
      fake.modelListings++
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(
        JSON.stringify({
          object: 'list',
          data: fake.models.map((id) => ({ id, object: 'model', owned_by: 'fake' })),
        }),
      )
      return
    }
    if (request.method !== 'POST' || !request.url?.endsWith('/chat/completions')) {
      response.writeHead(404, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ error: { message: 'not found' } }))
      return
    }
    const body = await readJson(request)
    fake.requests.push(body)
    fake.authorizations.push(request.headers.authorization)
    const turn = fake.respond(body)
    if (turn.holdUntil) {
      await turn.holdUntil
      if (!response.socket || response.socket.destroyed) return
    }
    if (turn.failStatus) {
      response.writeHead(turn.failStatus, { 'content-type': 'application/json' })
      response.end(
        JSON.stringify({ error: { message: `fake failure ${turn.failStatus}`, type: 'server_error' } }),
      )
      return
    }
    const base = { id: 'chatcmpl-fake', created: Math.floor(Date.now() / 1000), model: body.model }
    if (!body.stream) {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(
        JSON.stringify({
          ...base,
          object: 'chat.completion',
          choices: [
            {
              index: 0,
              finish_reason: 'stop',
              message: { role: 'assistant', content: (turn.tokens ?? []).join('') },
            },
          ],
        }),
      )
      return
    }
    let closed = false
    response.on('close', () => {
      if (!response.writableFinished) {
        closed = true
        fake.disconnects++
      }
    })
    response.writeHead(200, { 'content-type': 'text/event-stream' })
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`
    for (const [sent, token] of (turn.tokens ?? []).entries()) {
      if (turn.delayMs) await sleep(turn.delayMs)
      if (closed) return
      if (sent === turn.dropAfterTokens) {
        await sleep(50) // let the tokens already written reach the client first
        response.socket?.destroy()
        return
      }
      response.write(chunk({ content: token }))
    }
    for (const [index, call] of (turn.toolCalls ?? []).entries()) {
      const half = Math.ceil(call.arguments.length / 2)
      response.write(
        chunk({
          tool_calls: [
            {
              index,
              id: call.id,
              type: 'function',
              function: { name: call.name, arguments: call.arguments.slice(0, half) },
            },
          ],
        }),
      )
      response.write(chunk({ tool_calls: [{ index, function: { arguments: call.arguments.slice(half) } }] }))
    }
    if (closed) return
    response.write(chunk({}, turn.toolCalls?.length ? 'tool_calls' : 'stop'))
    response.end('data: [DONE]\n\n')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (!address || typeof address === 'string') throw new Error('no address')
  fake.baseUrl = `http://127.0.0.1:${address.port}/v1`
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  return fake
}
