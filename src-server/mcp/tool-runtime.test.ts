import { sql } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { storedJson, TEST_ENGINE } from '../../test/helpers/engine'
import { type FakeOpenAi, startFakeOpenAi } from '../../test/helpers/fake-openai'
import { filesystemServer, testToolServer } from '../../test/helpers/mcp/tool-servers'
import { startTestServer, type TestServer } from '../../test/helpers/server'
import { createToolRuntime } from './tool-runtime'

let server: TestServer
afterEach(async () => server?.close())

const SECRET = 'ghp_tool-secret-4b1d-9e2f-value'
const SESSION = 'session-under-test'

async function operator() {
  return server.headersFor('olga', ['operator'])
}

async function post(url: string, payload: Record<string, unknown>) {
  // Tool servers are an admin's to create (their command runs on the host); the rest is an operator's.
  const headers = url === '/mcp-servers' ? await server.adminHeaders() : await operator()
  const response = await server.app.inject({ method: 'POST', url, headers, payload })
  expect(response.statusCode, response.body).toBe(201)
  return response.json()
}

/** An agent of the operator, with the chat session `SESSION` the tool calls are audited under. */
async function createAgent(): Promise<string> {
  const me = await server.app.inject({ method: 'GET', url: '/api/auth/me', headers: await operator() })
  const ownerId = me.json().id
  const agentId = (await post('/agents', { name: 'Tool user' })).id as string
  const now = new Date().toISOString()
  await server.write(
    sql`INSERT INTO chat_session (id, owner_id, agent_id, created_at, updated_at)
      VALUES (${SESSION}, ${ownerId}, ${agentId}, ${now}, ${now})`,
  )
  return agentId
}

/** An agent with the SDK test server mounted under `policy`, its credential injected as TOOL_SECRET. */
async function mountedAgent(policy: Record<string, unknown> = {}) {
  const credential = await post('/mcp-credentials', {
    name: 'tool-secret',
    secret_payload: { TOOL_SECRET: SECRET },
  })
  const tools = await post('/mcp-servers', {
    name: 'tools',
    ...testToolServer(),
    env_names: ['TOOL_SECRET'],
    credential_id: credential.id,
  })
  const agentId = await createAgent()
  const mount = await post(`/agents/${agentId}/mcp-mounts`, { mcp_server_id: tools.id, policy })
  return { agentId, serverId: tools.id, mount }
}

/**
 * The stored call audit in the order the calls were made. Calls within one millisecond keep their order only on
 * SQLite (`rowid`); PostgreSQL has no insertion order to read.
 */
function auditRows<T = { tool_name: string; outcome: string; error: string | null }>(
  columns = sql`tool_name, outcome, error`,
): Promise<T[]> {
  const inserted = TEST_ENGINE === 'sqlite' ? sql`rowid` : sql`id`
  return server.rows<T>(sql`SELECT ${columns} FROM mcp_call_audit ORDER BY created_at, ${inserted}`)
}

/** Every row of every table, as text, on the server's engine. */
async function everyTable(): Promise<string> {
  const tables = await server.rows<{ name: string }>(
    TEST_ENGINE === 'sqlite'
      ? sql`SELECT name FROM sqlite_master WHERE type = 'table'`
      : sql`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'`,
  )
  const dump: string[] = []
  for (const { name } of tables)
    dump.push(JSON.stringify(await server.rows(sql`SELECT * FROM ${sql.identifier(name)}`)))
  return dump.join('\n')
}

describe('MCP mounts and the tool runtime', () => {
  it('mounts a server once per agent (409 on a second mount) and updates and removes the mount', async () => {
    server = await startTestServer()
    const { agentId, serverId, mount } = await mountedAgent()
    expect(mount).toMatchObject({
      agent_id: agentId,
      mcp_server_id: serverId,
      enabled: true,
      policy: { allowed_tools: null, blocked_tools: [], max_calls_per_turn: 8, timeout_ms: null },
    })
    const again = await server.app.inject({
      method: 'POST',
      url: `/agents/${agentId}/mcp-mounts`,
      headers: await operator(),
      payload: { mcp_server_id: serverId },
    })
    expect(again.statusCode).toBe(409)
    expect(again.json().error.code).toBe('MCP_MOUNT_EXISTS')

    const patched = await server.app.inject({
      method: 'PATCH',
      url: `/agents/${agentId}/mcp-mounts/${mount.id}`,
      headers: await operator(),
      payload: { policy: { blocked_tools: ['crash'], max_calls_per_turn: 2 } },
    })
    expect(patched.json().policy).toEqual({
      allowed_tools: null,
      blocked_tools: ['crash'],
      max_calls_per_turn: 2,
      timeout_ms: null,
    })
    const list = await server.app.inject({
      method: 'GET',
      url: `/agents/${agentId}/mcp-mounts`,
      headers: await operator(),
    })
    expect(list.json().total).toBe(1)

    const removed = await server.app.inject({
      method: 'DELETE',
      url: `/agents/${agentId}/mcp-mounts/${mount.id}`,
      headers: await operator(),
    })
    expect(removed.statusCode).toBe(204)
    expect(await server.rows(sql`SELECT CAST(count(*) AS integer) AS n FROM mcp_mount`)).toEqual([{ n: 0 }])
  })

  it('refuses a mount on an unknown agent with 404', async () => {
    server = await startTestServer()
    const tools = await post('/mcp-servers', { name: 'tools', ...testToolServer() })
    const response = await server.app.inject({
      method: 'POST',
      url: '/agents/00000000-0000-4000-8000-000000000000/mcp-mounts',
      headers: await operator(),
      payload: { mcp_server_id: tools.id },
    })
    expect(response.statusCode).toBe(404)
    expect(response.json().error.code).toBe('AGENT_NOT_FOUND')
  })

  it('offers no tools to an agent without mounts', async () => {
    server = await startTestServer()
    const agentId = await createAgent()
    const turn = await createToolRuntime(server.app.ctx).startTurn({ agentId, sessionId: SESSION })
    expect(turn.tools).toEqual([])
  })

  it('offers permitted tools as <server>__<tool> and audits one record per call with the right outcome', async () => {
    server = await startTestServer()
    const { agentId } = await mountedAgent({ blocked_tools: ['crash'], timeout_ms: 500 })
    const turn = await createToolRuntime(server.app.ctx).startTurn({ agentId, sessionId: SESSION })
    expect(turn.tools.map((tool) => tool.function.name)).toEqual([
      'tools__echo',
      'tools__sleep',
      'tools__fail',
      'tools__reveal',
      'tools__pid',
    ])
    expect(turn.tools[0]).toMatchObject({ type: 'function', function: { parameters: { type: 'object' } } })

    expect(await turn.call('tools__echo', '{"text":"hi"}')).toEqual({ content: 'hi', outcome: 'success' })
    expect(await auditRows()).toHaveLength(1)
    const blocked = await turn.call('tools__crash', '{}')
    expect(blocked.outcome).toBe('blocked')
    expect(blocked.content).toMatch(/blocked by the mount policy/)
    expect(await auditRows()).toHaveLength(2)
    const slow = await turn.call('tools__sleep', '{"ms":5000}')
    expect(slow.outcome).toBe('timeout')
    expect(await auditRows()).toHaveLength(3)
    const failed = await turn.call('tools__fail', '{}')
    expect(failed.outcome).toBe('error')
    expect(failed.content).toMatch(/deliberate failure/)

    expect((await auditRows()).map((row) => [row.tool_name, row.outcome])).toEqual([
      ['tools__echo', 'success'],
      ['tools__crash', 'blocked'],
      ['tools__sleep', 'timeout'],
      ['tools__fail', 'error'],
    ])

    const bySession = await server.app.inject({
      method: 'GET',
      url: `/sessions/${SESSION}/mcp-calls`,
      headers: await operator(),
    })
    expect(bySession.json().total).toBe(4)
    expect(bySession.json().items[0]).toMatchObject({
      tool_name: 'tools__fail',
      outcome: 'error',
      agent_id: agentId,
    })
    const timeouts = await server.app.inject({
      method: 'GET',
      url: `/agents/${agentId}/mcp-calls?outcome=timeout`,
      headers: await operator(),
    })
    expect(timeouts.json()).toMatchObject({
      total: 1,
      items: [{ tool_name: 'tools__sleep', outcome: 'timeout' }],
    })
  })

  it('refuses calls past max_calls_per_turn and unlisted tools as blocked, without running them', async () => {
    server = await startTestServer()
    const { agentId } = await mountedAgent({ allowed_tools: ['echo'], max_calls_per_turn: 2 })
    const runtime = createToolRuntime(server.app.ctx)
    const turn = await runtime.startTurn({ agentId, sessionId: SESSION })
    expect(turn.tools.map((tool) => tool.function.name)).toEqual(['tools__echo'])
    expect((await turn.call('tools__reveal', '{"name":"TOOL_SECRET"}')).outcome).toBe('blocked')
    expect((await turn.call('tools__echo', '{"text":"1"}')).outcome).toBe('success')
    expect((await turn.call('tools__echo', '{"text":"2"}')).outcome).toBe('success')
    const third = await turn.call('tools__echo', '{"text":"3"}')
    expect(third).toMatchObject({
      outcome: 'blocked',
      content: expect.stringMatching(/limit of 2 calls per turn/),
    })
    expect((await turn.call('other__echo', '{}')).outcome).toBe('blocked')
    // The limit is per turn: the next turn may call again.
    const next = await runtime.startTurn({ agentId, sessionId: SESSION })
    expect((await next.call('tools__echo', '{"text":"4"}')).outcome).toBe('success')
    expect((await auditRows()).map((row) => row.outcome)).toEqual([
      'blocked',
      'success',
      'success',
      'blocked',
      'blocked',
      'success',
    ])
  })

  it('reuses a running server across turns and restarts it after it died', async () => {
    server = await startTestServer()
    const { agentId } = await mountedAgent()
    const runtime = createToolRuntime(server.app.ctx)
    const first = await runtime.startTurn({ agentId, sessionId: SESSION })
    const firstPid = (await first.call('tools__pid', '{}')).content
    const second = await runtime.startTurn({ agentId, sessionId: SESSION })
    expect((await second.call('tools__pid', '{}')).content).toBe(firstPid)

    expect((await second.call('tools__crash', '{}')).outcome).toBe('error')
    const restarted = await second.call('tools__pid', '{}')
    expect(restarted.outcome).toBe('success')
    expect(restarted.content).not.toBe(firstPid)
    const third = await runtime.startTurn({ agentId, sessionId: SESSION })
    expect((await third.call('tools__pid', '{}')).content).toBe(restarted.content)
  })

  it('restarts a running server when its credential is rotated, so the new secret is in its environment', async () => {
    server = await startTestServer()
    const { agentId } = await mountedAgent()
    const runtime = createToolRuntime(server.app.ctx)
    const before = (await (await runtime.startTurn({ agentId, sessionId: SESSION })).call('tools__pid', '{}'))
      .content
    const [{ id: credentialId } = { id: '' }] = await server.rows<{ id: string }>(
      sql`SELECT id FROM mcp_credential`,
    )
    const rotated = await server.app.inject({
      method: 'POST',
      url: `/mcp-credentials/${credentialId}/rotate`,
      headers: await operator(),
      payload: { secret_payload: { TOOL_SECRET: 'the-rotated-secret-value' } },
    })
    expect(rotated.statusCode).toBe(200)
    const turn = await runtime.startTurn({ agentId, sessionId: SESSION })
    expect((await turn.call('tools__pid', '{}')).content).not.toBe(before)
    expect((await turn.call('tools__reveal', '{"name":"TOOL_SECRET"}')).content).toBe('the value is ***')
    const stored = await auditRows(sql`response_payload`)
    expect(JSON.stringify(stored)).not.toContain('the-rotated-secret-value')
  })

  it('masks the credential value everywhere: tool results, audit, responses, logs and every table', async () => {
    server = await startTestServer()
    const { agentId } = await mountedAgent()
    const turn = await createToolRuntime(server.app.ctx).startTurn({ agentId, sessionId: SESSION })
    const revealed = await turn.call('tools__reveal', '{"name":"TOOL_SECRET"}')
    expect(revealed).toEqual({ content: 'the value is ***', outcome: 'success' })
    const echoed = await turn.call(
      'tools__echo',
      JSON.stringify({ text: `x${SECRET}y`, api_key: 'abc', nested: { password: 'p' } }),
    )
    expect(echoed.content).toBe('x***y')

    const audit = await auditRows<{ request_payload_json: unknown; response_payload: string }>(
      sql`request_payload_json, response_payload`,
    )
    expect(JSON.parse(audit[0]?.response_payload ?? '')).toMatchObject({
      structuredContent: { nested: { value: '***' } },
    })
    expect(storedJson(audit[1]?.request_payload_json)).toEqual({
      text: 'x***y',
      api_key: '***',
      nested: { password: '***' },
    })

    const responses: string[] = []
    for (const url of [
      '/mcp-credentials',
      '/mcp-servers',
      `/sessions/${SESSION}/mcp-calls`,
      `/agents/${agentId}/mcp-calls`,
    ])
      responses.push((await server.app.inject({ method: 'GET', url, headers: await operator() })).body)
    for (const body of responses) expect(body).not.toContain(SECRET)
    expect(server.logs()).not.toContain(SECRET)

    expect(await everyTable()).not.toContain(SECRET)
    const [sealed] = await server.rows<{ encrypted_secret_json: string }>(
      sql`SELECT encrypted_secret_json FROM mcp_credential`,
    )
    expect(JSON.parse(server.app.ctx.secrets.unseal(sealed?.encrypted_secret_json ?? ''))).toEqual({
      TOOL_SECRET: SECRET,
    })
  })

  it('runs the published filesystem MCP server as a mounted tool', async () => {
    server = await startTestServer()
    const { command, args, root } = filesystemServer()
    const files = await post('/mcp-servers', { name: 'files', command, args })
    const agentId = await createAgent()
    await post(`/agents/${agentId}/mcp-mounts`, {
      mcp_server_id: files.id,
      policy: { allowed_tools: ['read_text_file'] },
    })
    const turn = await createToolRuntime(server.app.ctx).startTurn({ agentId, sessionId: SESSION })
    expect(turn.tools.map((tool) => tool.function.name)).toEqual(['files__read_text_file'])
    const read = await turn.call('files__read_text_file', JSON.stringify({ path: `${root}/hello.txt` }))
    expect(read).toEqual({ content: 'hello from the filesystem server', outcome: 'success' })
    expect(await auditRows()).toEqual([
      { tool_name: 'files__read_text_file', outcome: 'success', error: null },
    ])
  })
})

describe('MCP tools in chat', () => {
  let fake: FakeOpenAi
  afterEach(async () => fake?.close())

  it('lets the model call a mounted tool through /stream, audited under the chat session, secret masked', async () => {
    fake = await startFakeOpenAi()
    fake.respond = (request) =>
      request.messages.some((message) => message.role === 'tool')
        ? { tokens: ['The tool said: ', 'done.'] }
        : { toolCalls: [{ id: 'call-1', name: 'tools__reveal', arguments: '{"name":"TOOL_SECRET"}' }] }
    server = await startTestServer()
    const configured = await server.app.inject({
      method: 'PUT',
      url: '/api/admin/model-providers',
      headers: await server.adminHeaders(),
      payload: { providers: [{ id: 'fake', base_url: fake.baseUrl, api_key: 'fake-key', models: ['m1'] }] },
    })
    expect(configured.statusCode, configured.body).toBe(200)
    const { agentId } = await mountedAgent()
    const patched = await server.app.inject({
      method: 'PATCH',
      url: `/agents/${agentId}`,
      headers: await operator(),
      payload: { model_provider: 'fake', model_name: 'm1' },
    })
    expect(patched.statusCode, patched.body).toBe(200)

    const threadId = '11111111-1111-4111-8111-111111111111'
    const reply = await server.app.inject({
      method: 'POST',
      url: '/stream',
      headers: await operator(),
      payload: { thread_id: threadId, agent_id: agentId, message: 'What is the secret?' },
    })
    expect(reply.statusCode).toBe(200)
    expect(reply.body).toContain('done.')
    expect(reply.body).not.toContain(SECRET)

    const offered = fake.requests[0]?.tools?.map((tool) => tool.function.name)
    expect(offered).toContain('tools__reveal')
    const toolMessage = fake.requests[1]?.messages.find((message) => message.role === 'tool')
    expect(toolMessage?.content).toBe('the value is ***')

    const calls = await server.app.inject({
      method: 'GET',
      url: `/sessions/${threadId}/mcp-calls`,
      headers: await operator(),
    })
    expect(calls.json()).toMatchObject({
      total: 1,
      items: [{ tool_name: 'tools__reveal', outcome: 'success', agent_id: agentId }],
    })
    expect(calls.body).not.toContain(SECRET)
  })
})
