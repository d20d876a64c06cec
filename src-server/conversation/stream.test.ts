import { sql } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  configureFakeProvider,
  count,
  parseSse,
  storedJson,
  storedRow,
  stream,
  streamUntil,
} from '../../test/helpers/conversation'
import { type FakeOpenAi, startFakeOpenAi } from '../../test/helpers/fake-openai'
import { createSource, ingest, upload } from '../../test/helpers/knowledge-files'
import { testToolServer } from '../../test/helpers/mcp/tool-servers'
import { startTestServer, type TestServer } from '../../test/helpers/server'

let server: TestServer
let fake: FakeOpenAi
let base: string
beforeEach(async () => {
  server = await startTestServer()
  fake = await startFakeOpenAi()
  base = await server.listen()
})
afterEach(async () => {
  await server?.close()
  await fake?.close()
})

/** What a POST as `headers` created (its JSON); anything but 201 fails the test. */
async function created(headers: Record<string, string>, url: string, payload: object) {
  const response = await server.app.inject({ method: 'POST', url, headers, payload })
  expect(response.statusCode, response.body).toBe(201)
  return response.json()
}

describe('POST /stream', () => {
  it('streams token events then done, and the tokens concatenate to exactly the saved reply', async () => {
    const ann = await server.headersFor('ann')
    const result = await stream(base, ann, { message: 'What are the opening hours?' })
    expect(result.status).toBe(200)
    expect(result.contentType).toContain('text/event-stream')
    const tokens = result.events.filter((event) => event.type === 'token')
    expect(tokens.length).toBeGreaterThan(3)
    for (const token of tokens) expect(token).toEqual({ type: 'token', content: expect.any(String) })
    const done = result.events.at(-1)
    expect(done).toMatchObject({
      type: 'done',
      session_id: expect.any(String),
      message_id: expect.any(String),
      citations: [],
    })
    expect(result.events.filter((event) => event.type === 'done')).toHaveLength(1)

    const saved = await storedRow(
      server,
      'SELECT role, content, status FROM chat_message WHERE id = ?',
      done?.message_id,
    )
    const text = tokens.map((token) => token.content).join('')
    expect(saved).toEqual({ role: 'assistant', content: text, status: 'complete' })
    // builtin/extractive without knowledge says it does not know and offers a person, never operator advice.
    expect(text).toBe("I don't know that from the documents I have. You can ask to talk to a person.")
    const session = await storedRow(
      server,
      'SELECT owner_id, state FROM chat_session WHERE id = ?',
      done?.session_id,
    )
    expect(session).toMatchObject({ state: 'AI_ACTIVE' })
  })

  it('answers a schema violation with 422 and nothing else', async () => {
    const ann = await server.headersFor('ann')
    const missing = await fetch(`${base}/stream`, {
      method: 'POST',
      headers: { ...ann, 'content-type': 'application/json' },
      body: JSON.stringify({ thread_id: crypto.randomUUID() }),
    })
    expect(missing.status).toBe(422)
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('VALIDATION_ERROR')
    const wrongType = await fetch(`${base}/stream`, {
      method: 'POST',
      headers: { ...ann, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 42 }),
    })
    expect(wrongType.status).toBe(422)
    expect(await count(server, 'SELECT count(*) n FROM chat_session')).toBe(0)
  })

  it.each([
    [{ model_provider: 'nowhere' }, 'UNKNOWN_MODEL_PROVIDER'],
    [{ model_provider: 'builtin', model_name: 'gpt-5' }, 'UNKNOWN_MODEL'],
    [{ model_temperature: 2.5 }, 'INVALID_TEMPERATURE'],
    [{ model_temperature: -0.1 }, 'INVALID_TEMPERATURE'],
    [{ model_provider: 'builtin', model_name: 'embed-local' }, 'MODEL_CAPABILITY_MISSING'],
    [{ agent_id: '00000000-0000-4000-8000-000000000000' }, 'AGENT_NOT_FOUND'],
  ])('sends error then done and saves nothing for %j', async (override, code) => {
    const ann = await server.headersFor('ann')
    const thread = crypto.randomUUID()
    const result = await stream(base, ann, { thread_id: thread, message: 'hi', ...override })
    expect(result.status).toBe(200)
    expect(result.events.map((event) => event.type)).toEqual(['error', 'done'])
    expect(result.events[0]).toMatchObject({ type: 'error', code, content: expect.any(String) })
    expect(await count(server, 'SELECT count(*) n FROM chat_session WHERE id = ?', thread)).toBe(0)
    expect(await count(server, 'SELECT count(*) n FROM chat_message')).toBe(0)
  })

  it("treats another user's thread_id as not found", async () => {
    const ann = await server.headersFor('ann')
    const bob = await server.headersFor('bob')
    const first = await stream(base, ann, { message: 'hello' })
    const thread = first.events.at(-1)?.session_id
    const intrusion = await stream(base, bob, { thread_id: thread, message: 'let me in' })
    expect(intrusion.events.map((event) => event.type)).toEqual(['error', 'done'])
    expect(intrusion.events[0]?.code).toBe('SESSION_NOT_FOUND')
    expect(await count(server, "SELECT count(*) n FROM chat_message WHERE content = 'let me in'")).toBe(0)
  })

  it('streams a real provider: request values beat the agent, the agent beats the defaults, overrides are saved', async () => {
    await configureFakeProvider(server, fake.baseUrl)
    const ann = await server.headersFor('ann')
    const agent = await created(ann, '/agents', {
      name: 'Billing',
      system_prompt: 'You answer billing questions.',
      model_provider: 'fake',
      model_name: 'model-a',
      model_temperature: 0.5,
    })
    fake.respond = () => ({ tokens: ['Your ', 'invoice ', 'is ', 'paid.'] })

    const first = await stream(base, ann, { agent_id: agent.id, message: 'Is my invoice paid?' })
    expect(first.events.filter((event) => event.type === 'token').map((event) => event.content)).toEqual([
      'Your ',
      'invoice ',
      'is ',
      'paid.',
    ])
    expect(fake.requests[0]).toMatchObject({ model: 'model-a', temperature: 0.5, stream: true })
    expect(fake.requests[0]?.messages[0]).toEqual({
      role: 'system',
      content: 'You answer billing questions.',
    })
    expect(fake.requests[0]?.messages.at(-1)).toEqual({ role: 'user', content: 'Is my invoice paid?' })
    const thread = first.events.at(-1)?.session_id as string
    expect(
      await storedRow(
        server,
        'SELECT content FROM chat_message WHERE id = ?',
        first.events.at(-1)?.message_id,
      ),
    ).toEqual({
      content: 'Your invoice is paid.',
    })

    // An operator's private note is never part of what the model reads.
    const note = await server.app.inject({
      method: 'POST',
      url: `/sessions/${thread}/notes`,
      headers: await server.headersFor('olga', ['operator']),
      payload: { content: 'VIP customer' },
    })
    expect(note.statusCode, note.body).toBe(201)
    await stream(base, ann, {
      thread_id: thread,
      message: 'And the next one?',
      model_name: 'model-b',
      model_temperature: 1.1,
    })
    expect(fake.requests[1]).toMatchObject({ model: 'model-b', temperature: 1.1 })
    // The history goes to the model: the earlier exchange precedes the new question.
    expect(fake.requests[1]?.messages.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'user',
    ])
    expect(JSON.stringify(fake.requests[1]?.messages)).not.toContain('VIP customer')
    expect(
      await storedRow(
        server,
        'SELECT model_provider, model_name, model_temperature FROM chat_session WHERE id = ?',
        thread,
      ),
    ).toEqual({
      model_provider: null,
      model_name: 'model-b',
      model_temperature: 1.1,
    })

    // Saved overrides apply to the next request of the session.
    await stream(base, ann, { thread_id: thread, message: 'Thanks' })
    expect(fake.requests[2]).toMatchObject({ model: 'model-b', temperature: 1.1 })

    // No agent, no request values: the global defaults (builtin) answer, the fake is not called.
    await stream(base, ann, { message: 'Anyone?' })
    expect(fake.requests).toHaveLength(3)
  })

  it('rewrites non-chat message types for the model and turns unknown types into other', async () => {
    await configureFakeProvider(server, fake.baseUrl)
    const ann = await server.headersFor('ann')
    const form = await stream(base, ann, {
      message: 'name=Ann',
      message_type: 'form',
      model_provider: 'fake',
    })
    expect(form.events.at(-1)?.type).toBe('done')
    expect(fake.requests[0]?.messages.at(-1)?.content).toBe('[message_type=form]\nname=Ann')

    await stream(base, ann, { message: 'plain', model_provider: 'fake' })
    expect(fake.requests[1]?.messages.at(-1)?.content).toBe('plain')

    const odd = await stream(base, ann, { message: 'x', message_type: 'telepathy', model_provider: 'fake' })
    expect(odd.events.map((event) => event.type)).not.toContain('error')
    expect(fake.requests[2]?.messages.at(-1)?.content).toBe('[message_type=other]\nx')
    expect(await storedRow(server, "SELECT message_type FROM chat_message WHERE content = 'x'")).toEqual({
      message_type: 'other',
    })
  })

  it('reports a failing provider as error then done', async () => {
    await configureFakeProvider(server, fake.baseUrl)
    const ann = await server.headersFor('ann')
    fake.respond = () => ({ failStatus: 500 })
    const result = await stream(base, ann, { message: 'hi', model_provider: 'fake' })
    expect(result.events.map((event) => event.type)).toEqual(['error', 'done'])
    expect(result.events[0]).toMatchObject({ code: 'MODEL_PROVIDER_FAILED' })
    // The question is kept; no assistant message was produced.
    expect(await count(server, "SELECT count(*) n FROM chat_message WHERE role = 'assistant'")).toBe(0)
    expect(await count(server, "SELECT count(*) n FROM chat_message WHERE role = 'user'")).toBe(1)
  })

  it('keeps a silent stream alive with `: ping` comments that clients skip', async () => {
    const pinging = await startTestServer({ ssePingIntervalMs: 30 })
    try {
      await configureFakeProvider(pinging, fake.baseUrl)
      const ann = await pinging.headersFor('ann')
      fake.respond = () => ({ tokens: ['slow ', 'answer'], delayMs: 200 })
      const response = await fetch(`${await pinging.listen()}/stream`, {
        method: 'POST',
        headers: { ...ann, 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'hi', model_provider: 'fake' }),
      })
      const raw = await response.text()
      const beforeFirstToken = raw.slice(0, raw.indexOf('"type":"token"'))
      expect(beforeFirstToken).toMatch(/^: ping$/m)
      const events = parseSse(raw)
      expect(events.map((event) => event.type)).toEqual(['token', 'token', 'done'])
      const saved = await storedRow<{ content: string }>(
        pinging,
        "SELECT content FROM chat_message WHERE role = 'assistant'",
      )
      expect(saved?.content).toBe('slow answer')
    } finally {
      await pinging.close()
    }
  })

  it('stops a slow model when the client disconnects and saves the partial reply as interrupted', async () => {
    await configureFakeProvider(server, fake.baseUrl)
    const ann = await server.headersFor('ann')
    fake.respond = () => ({ tokens: Array.from({ length: 200 }, (_, i) => `w${i} `), delayMs: 20 })
    let seen = 0
    await streamUntil(base, ann, { message: 'tell me a long story', model_provider: 'fake' }, (event) => {
      if (event.type === 'token') seen++
      return seen === 3
    })
    await expect
      .poll(() => count(server, "SELECT count(*) n FROM chat_message WHERE role = 'assistant'"), {
        timeout: 5000,
      })
      .toBe(1)
    const saved = (await storedRow(
      server,
      "SELECT content, status FROM chat_message WHERE role = 'assistant'",
    )) as {
      content: string
      status: string
    }
    expect(saved.status).toBe('interrupted')
    expect(saved.content.startsWith('w0 w1 w2 ')).toBe(true)
    expect(saved.content.split(' ').length).toBeLessThan(200)
    await expect.poll(() => fake.disconnects, { timeout: 5000 }).toBe(1)
  })

  it("runs the agent's tool calls through its MCP mounts and feeds the results back to the model", async () => {
    await configureFakeProvider(server, fake.baseUrl)
    const olga = await server.headersFor('olga', ['operator'])
    const agent = await created(olga, '/agents', {
      name: 'Tooled',
      model_provider: 'fake',
      model_name: 'model-a',
    })
    // What runs on the host is an admin's to set; the operator mounts it.
    const tools = await created(await server.adminHeaders(), '/mcp-servers', {
      name: 'tools',
      ...testToolServer(),
    })
    await created(olga, `/agents/${agent.id}/mcp-mounts`, { mcp_server_id: tools.id })
    fake.respond = (request) =>
      request.messages.some((message) => message.role === 'tool')
        ? { tokens: ['The ', 'tool ', 'said ', 'pong.'] }
        : { toolCalls: [{ id: 'call_1', name: 'tools__echo', arguments: '{"text":"pong"}' }] }

    const result = await stream(base, olga, { agent_id: agent.id, message: 'Ping the tool' })
    expect(
      result.events
        .filter((event) => event.type === 'token')
        .map((event) => event.content)
        .join(''),
    ).toBe('The tool said pong.')
    expect(fake.requests[0]?.tools?.map((tool) => tool.function.name)).toContain('tools__echo')
    const second = fake.requests[1]?.messages ?? []
    expect(second.at(-2)).toMatchObject({
      role: 'assistant',
      tool_calls: [{ id: 'call_1', function: { name: 'tools__echo' } }],
    })
    expect(second.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_1' })
    expect(second.at(-1)?.content).toContain('pong')
    expect(await server.rows(sql`SELECT session_id, tool_name, outcome FROM mcp_call_audit`)).toEqual([
      { session_id: result.events.at(-1)?.session_id, tool_name: 'tools__echo', outcome: 'success' },
    ])
  })

  it('answers from the knowledge mounted on the agent with builtin/extractive, citing the chunks it quotes', async () => {
    const ann = await server.headersFor('ann')
    const agent = await created(ann, '/agents', { name: 'Support' })
    const sourceId = await createSource(server, ann, { name: 'Policies' })
    const text =
      'Our office is in Oslo and opens at nine.\n\nA refund can be requested within 14 days of purchase. Refunds are paid back to the wallet.'
    const uploaded = await upload(server, ann, sourceId, [{ name: 'policies.txt', data: Buffer.from(text) }])
    expect(uploaded.statusCode, uploaded.body).toBe(201)
    expect((await ingest(server, ann, sourceId, { agent_id: agent.id })).status).toBe('succeeded')

    const result = await stream(base, ann, {
      agent_id: agent.id,
      message: 'How many days do I have to request a refund?',
    })
    const answer = result.events
      .filter((event) => event.type === 'token')
      .map((event) => event.content)
      .join('')
    expect(answer).toContain('A refund can be requested within 14 days of purchase. [1]')
    expect(answer).not.toContain('Oslo')
    const done = result.events.at(-1) as unknown as {
      citations: Record<string, unknown>[]
      message_id: string
    }
    // Only the passages the answer refers to are cited.
    for (const citation of done.citations) expect(answer).toContain(`[${citation.index}]`)
    expect(done.citations[0]).toMatchObject({
      index: 1,
      source_id: sourceId,
      document_id: expect.any(String),
      chunk_id: expect.any(String),
      document_name: expect.any(String),
      snippet: expect.stringContaining('refund'),
    })
    const saved = (await storedRow(
      server,
      'SELECT content, citations_json FROM chat_message WHERE id = ?',
      done.message_id,
    )) as { content: string; citations_json: unknown }
    expect(saved.content).toBe(answer)
    expect(storedJson(saved.citations_json)).toEqual(done.citations)
  })
})
