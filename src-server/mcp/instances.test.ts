/**
 * Two instances on one PostgreSQL database: a tool server's process runs on each instance whose chat used it, so
 * an admin's edit or deletion through one instance stops the process on the other too (its credential no longer
 * lives in a process nobody may use), and no instance keeps a process started from rows a change had overtaken.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { sql } from 'drizzle-orm'
import pg from 'pg'
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
async function mountedAgent(a: TestServer, secret = 'ghp_on-two-instances-secret') {
  const admin = await a.adminHeaders()
  const operator = await a.headersFor('olga', ['operator'])
  const credential = await post(a, '/mcp-credentials', operator, {
    name: 'tool-secret',
    secret_payload: { TOOL_SECRET: secret },
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

/**
 * The live processes this test process started (the instances run in it) whose environment holds `entry`, read
 * from `/proc`: what a tool server was started with, whatever the runtime believes.
 */
function childrenWithEnv(entry: string): number[] {
  const pids: number[] = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      // The parent's pid is the fourth field, after the command name in parentheses.
      const parent = Number(readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]?.split(' ')[1])
      if (parent !== process.pid) continue
      if (readFileSync(`/proc/${name}/environ`, 'utf8').split('\0').includes(entry)) pids.push(Number(name))
    } catch {
      // Gone meanwhile.
    }
  }
  return pids
}

/**
 * A connection of the test's own holding `table` in ACCESS EXCLUSIVE mode, so every read of it waits; resolves
 * once `waiter` has started such a read and is waiting.
 */
async function holdTable(url: string, table: string, waiter: () => Promise<unknown>) {
  const holder = new pg.Client({ connectionString: url })
  await holder.connect()
  await holder.query('BEGIN')
  await holder.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`)
  const waiting = waiter()
  waiting.catch(() => undefined)
  await expect
    .poll(
      async () =>
        (
          await holder.query(
            `SELECT count(*)::int AS n FROM pg_locks WHERE relation = '${table}'::regclass AND NOT granted`,
          )
        ).rows[0].n,
      { timeout: DEADLINE_MS },
    )
    .toBe(1)
  return {
    waiting,
    async release() {
      await holder.query('COMMIT')
      await holder.end()
    },
  }
}

/** Instances A and B of one team server, and an agent mounting a tool server (with `secret` injected) made on A. */
async function mountedOnTwo(secret?: string) {
  const {
    url,
    servers: [a, b],
  } = await startInstances({}, {})
  const onA = a as TestServer
  return { url, onA, onB: b as TestServer, ...(await mountedAgent(onA, secret)) }
}

/**
 * B starts a turn whose next read of `table` waits (the test holds the table) while `change` happens, then the turn
 * goes on: it has the server's tools, and no process is left holding the secret the change took away.
 */
async function turnOnBAcross(
  { url, onB, agentId }: Awaited<ReturnType<typeof mountedOnTwo>>,
  table: string,
  secret: string,
  change: () => Promise<void>,
) {
  const held = await holdTable(url, table, () =>
    createToolRuntime(onB.app.ctx).startTurn({ agentId, sessionId: SESSION }),
  )
  try {
    await change()
  } finally {
    await held.release()
  }
  const turn = await held.waiting
  expect((turn as { tools: unknown[] }).tools.length).toBeGreaterThan(0)
  await expect.poll(() => childrenWithEnv(`TOOL_SECRET=${secret}`), { timeout: DEADLINE_MS }).toEqual([])
}

describe('tool server processes on two instances on one PostgreSQL database', () => {
  it("stops B's process of a tool server an admin edits through A, and of one deleted through A", async () => {
    const { onA, onB, admin, agentId, serverId } = await mountedOnTwo()

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

  // What a process was started with is read from /proc: Linux only.
  const onLinux = it.skipIf(process.platform !== 'linux')
  onLinux(
    "starts no process on B from a server row read before A's edit whose event B heard before it started",
    async () => {
      const secret = 'ghp_read-before-the-edit'
      const two = await mountedOnTwo(secret)
      const { onA, onB, admin, serverId } = two
      const heard: string[] = []
      // Subscribed after B's tool runtime: when this hears the change, the runtime has handled it.
      onB.app.ctx.events.subscribe({
        event: (event) => {
          if (event.kind === 'mcp.server_changed') heard.push(String(event.mcp_server_id))
        },
      })
      // B's turn has read the agent's mounts (the server row with the credential declared) and waits on the next read.
      await turnOnBAcross(two, 'mcp_credential', secret, async () => {
        // An admin stops the credential's injection through A; B hears of it while its turn waits.
        const edited = await onA.app.inject({
          method: 'PATCH',
          url: `/mcp-servers/${serverId}`,
          headers: admin,
          payload: { env_names: [] },
        })
        expect(edited.statusCode, edited.body).toBe(200)
        await expect.poll(() => heard, { timeout: DEADLINE_MS }).toEqual([serverId])
      })
    },
    120_000,
  )

  onLinux(
    'stops a process whose server changed while it started, though no event of the change came',
    async () => {
      const secret = 'ghp_changed-while-starting'
      const two = await mountedOnTwo(secret)
      // B has read the server and its credential and waits to check the allowed commands before starting it.
      await turnOnBAcross(two, 'platform_config', secret, async () => {
        // A writer that died between its commit and its event: the change is stored, nobody hears of it.
        await two.onA.write(
          sql`UPDATE mcp_server SET env_names_json = '[]'::jsonb, updated_at = ${new Date().toISOString()}
            WHERE id = ${two.serverId}`,
        )
      })
    },
    120_000,
  )
})
