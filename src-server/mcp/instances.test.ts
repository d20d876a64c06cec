/**
 * Two instances on one PostgreSQL database: a tool server's process runs on each instance whose chat used it, so
 * an admin's edit or deletion through one instance stops the process on the other too (its credential no longer
 * lives in a process nobody may use).
 */
import { sql } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { closeInstances, startInstances } from '../../test/helpers/instances'
import { testToolServer } from '../../test/helpers/mcp/tool-servers'
import type { TestServer } from '../../test/helpers/server'
import { isProcessRunning } from '../../test/helpers/server-process'
import { createToolRuntime } from './tool-runtime'

afterEach(() => closeInstances())

/** Long enough for a loaded machine; the test waits for the process to end, never for a time. */
const DEADLINE_MS = 15_000
const SESSION = 'session-on-two-instances'

async function post(server: TestServer, url: string, headers: Record<string, string>, payload: object) {
  const response = await server.app.inject({ method: 'POST', url, headers, payload })
  expect(response.statusCode, response.body).toBe(201)
  return response.json()
}

/** On `a`: an operator's agent with the test tool server mounted, and a chat session of that agent. */
async function mountedAgent(a: TestServer) {
  const admin = await a.adminHeaders()
  const operator = await a.headersFor('olga', ['operator'])
  const credential = await post(a, '/mcp-credentials', operator, {
    name: 'tool-secret',
    secret_payload: { TOOL_SECRET: 'ghp_on-two-instances-secret' },
  })
  const tools = await post(a, '/mcp-servers', admin, {
    name: 'tools',
    ...testToolServer(),
    env_names: ['TOOL_SECRET'],
    credential_id: credential.id,
  })
  const agentId = (await post(a, '/agents', operator, { name: 'Tool user' })).id as string
  await post(a, `/agents/${agentId}/mcp-mounts`, operator, { mcp_server_id: tools.id, policy: {} })
  const now = new Date().toISOString()
  await a.write(
    sql`INSERT INTO chat_session (id, owner_id, agent_id, created_at, updated_at)
      SELECT ${SESSION}, id, ${agentId}, ${now}, ${now} FROM "user" WHERE username = 'olga'`,
  )
  return { admin, agentId, serverId: tools.id as string }
}

/** The pid of the tool server's process that `server`'s runtime runs for a turn of the agent. */
async function toolPidOn(server: TestServer, agentId: string): Promise<number> {
  const turn = await createToolRuntime(server.app.ctx).startTurn({ agentId, sessionId: SESSION })
  const answer = await turn.call('tools__pid', '{}')
  expect(answer.outcome, answer.content).toBe('success')
  return Number(answer.content)
}

describe('tool server processes on two instances on one PostgreSQL database', () => {
  it("stops B's process of a tool server an admin edits through A, and of one deleted through A", async () => {
    const {
      servers: [a, b],
    } = await startInstances({}, {})
    const onA = a as TestServer
    const onB = b as TestServer
    const { admin, agentId, serverId } = await mountedAgent(onA)

    const first = await toolPidOn(onB, agentId)
    expect(isProcessRunning(first)).toBe(true)
    const edited = await onA.app.inject({
      method: 'PATCH',
      url: `/mcp-servers/${serverId}`,
      headers: admin,
      payload: { timeout_ms: 20_000 },
    })
    expect(edited.statusCode, edited.body).toBe(200)
    await expect.poll(() => isProcessRunning(first), { timeout: DEADLINE_MS }).toBe(false)

    const second = await toolPidOn(onB, agentId)
    expect(second).not.toBe(first)
    const deleted = await onA.app.inject({
      method: 'DELETE',
      url: `/mcp-servers/${serverId}`,
      headers: admin,
    })
    expect(deleted.statusCode, deleted.body).toBe(204)
    expect(await onA.rows(sql`SELECT id FROM mcp_server WHERE id = ${serverId}`)).toEqual([])
    await expect.poll(() => isProcessRunning(second), { timeout: DEADLINE_MS }).toBe(false)
  }, 120_000)
})
