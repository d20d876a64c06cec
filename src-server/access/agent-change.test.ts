import { type SQL, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { stream } from '../../test/helpers/conversation'
import { createSource } from '../../test/helpers/knowledge-files'
import { createListing, publish, purchase, refund } from '../../test/helpers/marketplace'
import { testToolServer } from '../../test/helpers/mcp/tool-servers'
import { startTestServer, type TestServer } from '../../test/helpers/server'

/**
 * Who may change an agent and who may only use it, decided by `agent.change` against `agent.use`, asked over real
 * HTTP of every kind of caller, with the stored agent and its mounts compared before and after each request.
 * Alice owns the agent; Bob bought it; Carol bought it and was refunded; Sven has nothing to do with it.
 */
const CALLERS = ['alice', 'bob', 'carol', 'oscar', 'admin', 'sven'] as const
type Caller = (typeof CALLERS)[number]
const ROLES: Record<Caller, string[]> = {
  alice: ['user'],
  bob: ['user'],
  carol: ['user'],
  oscar: ['operator'],
  admin: ['admin'],
  sven: ['user'],
}

let server: TestServer
let base: string
let agentId: string
let aliceSourceId: string
/** A source of each caller's own, for mounting and ingesting into Alice's agent. */
const ownSource = {} as Record<Caller, string>
let spareToolServerId: string
let toolMountId: string

/** A request over real HTTP as a caller (anyone not in `CALLERS` is created a plain user on first use). */
async function send(caller: string, method: string, path: string, body?: unknown) {
  const headers = await server.headersFor(caller)
  const response = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  })
  const text = await response.text()
  return { status: response.status, body: text ? JSON.parse(text) : null }
}

const rows = (query: SQL) => server.rows<Record<string, unknown>>(query)

/** Everything an agent write could change: the agent's settings, its knowledge mounts and its tool mounts. */
async function stored() {
  return {
    agent: await rows(
      sql`SELECT name, system_prompt, model_provider, model_name, model_temperature FROM agent WHERE id = ${agentId}`,
    ),
    mounts: await rows(sql`SELECT * FROM knowledge_mount WHERE agent_id = ${agentId} ORDER BY source_id`),
    toolMounts: await rows(sql`SELECT * FROM mcp_mount WHERE agent_id = ${agentId} ORDER BY id`),
  }
}

/** A column's value as a write takes it back: PostgreSQL reads jsonb parsed, and takes it again as JSON text. */
const writable = (value: unknown) =>
  value !== null && typeof value === 'object' ? JSON.stringify(value) : value

/** Puts the agent back as it was, after an allowed write, so every row of the table starts from the same state. */
async function restore(state: Awaited<ReturnType<typeof stored>>) {
  const [settings] = state.agent
  await server.write(
    sql`UPDATE agent SET system_prompt = ${settings?.system_prompt}, name = ${settings?.name} WHERE id = ${agentId}`,
  )
  for (const [table, saved] of [
    ['knowledge_mount', state.mounts],
    ['mcp_mount', state.toolMounts],
  ] as const) {
    await server.write(sql`DELETE FROM ${sql.identifier(table)} WHERE agent_id = ${agentId}`)
    for (const row of saved) {
      const columns = sql.join(
        Object.keys(row).map((column) => sql.identifier(column)),
        sql`, `,
      )
      const values = sql.join(
        Object.values(row).map((value) => sql`${writable(value)}`),
        sql`, `,
      )
      await server.write(sql`INSERT INTO ${sql.identifier(table)} (${columns}) VALUES (${values})`)
    }
  }
}

beforeAll(async () => {
  server = await startTestServer()
  base = await server.listen()
  for (const caller of CALLERS) await server.headersFor(caller, ROLES[caller])
  agentId = (
    await send('alice', 'POST', '/agents', {
      name: 'Contract reviewer',
      system_prompt: 'Alice’s secret recipe',
    })
  ).body.id
  aliceSourceId = await createSource(server, await server.headersFor('alice'), { name: 'Alice’s clauses' })
  expect(
    (await send('alice', 'POST', `/agents/${agentId}/mounts`, { source_id: aliceSourceId })).status,
  ).toBe(201)
  for (const caller of CALLERS)
    ownSource[caller] = await createSource(server, await server.headersFor(caller), { name: `${caller}’s` })

  const toolServer = (await send('admin', 'POST', '/mcp-servers', { name: 'tools', ...testToolServer() }))
    .body
  spareToolServerId = (await send('admin', 'POST', '/mcp-servers', { name: 'spare', ...testToolServer() }))
    .body.id
  toolMountId = (
    await send('admin', 'POST', `/agents/${agentId}/mcp-mounts`, { mcp_server_id: toolServer.id })
  ).body.id

  const listingId = await createListing(server, 'alice', { asset_id: agentId })
  await publish(server, listingId)
  await purchase(server, 'bob', listingId)
  await refund(server, 'carol', await purchase(server, 'carol', listingId))
})
afterAll(async () => server?.close())

type Request = (caller: Caller) => [method: string, path: string, body?: unknown]

/** Every way to change an agent, each asked of every caller. */
const WRITES: Record<string, Request> = {
  'change the prompt': (caller) => ['PATCH', `/agents/${agentId}`, { system_prompt: `${caller} was here` }],
  'change the name and model': (caller) => [
    'PATCH',
    `/agents/${agentId}`,
    { name: `${caller}’s now`, model_temperature: null },
  ],
  'mount a source': (caller) => ['POST', `/agents/${agentId}/mounts`, { source_id: ownSource[caller] }],
  'unmount the owner’s source': () => ['DELETE', `/agents/${agentId}/mounts/${aliceSourceId}`],
  'ingest into the agent': (caller) => [
    'POST',
    `/knowledge-sources/${ownSource[caller]}/ingest`,
    { agent_id: agentId },
  ],
  'mount a tool server': () => [
    'POST',
    `/agents/${agentId}/mcp-mounts`,
    { mcp_server_id: spareToolServerId },
  ],
  'change a tool mount': () => ['PATCH', `/agents/${agentId}/mcp-mounts/${toolMountId}`, { enabled: false }],
  'remove a tool mount': () => ['DELETE', `/agents/${agentId}/mcp-mounts/${toolMountId}`],
}

/**
 * The answer each caller gets: the owner and the agent managers change it (a 2xx); the buyer may use it but not
 * change it (403); whoever may not even use it gets 404, as if it did not exist. Tool mounts need `mcp.manage`
 * first (contract 40), which only operators and admins hold: everyone else is refused 403 before the agent.
 */
const knowledgeOrSettings: Record<Caller, number | 'ok'> = {
  alice: 'ok',
  bob: 403,
  carol: 404,
  oscar: 'ok',
  admin: 'ok',
  sven: 404,
}
const toolMounts: Record<Caller, number | 'ok'> = {
  alice: 403,
  bob: 403,
  carol: 403,
  oscar: 'ok',
  admin: 'ok',
  sven: 403,
}
const expected = (write: string) => (write.includes('tool') ? toolMounts : knowledgeOrSettings)

const table = Object.keys(WRITES).flatMap((write) =>
  CALLERS.map((caller) => [write, caller, expected(write)[caller]] as const),
)

describe('agent.change: who may change an agent, over HTTP, with the stored agent checked', () => {
  it.each(table)('%s, as %s: %s', async (write, caller, outcome) => {
    const before = await stored()
    const [method, path, body] = (WRITES[write] as Request)(caller)
    const response = await send(caller, method, path, body)
    if (outcome === 'ok') {
      expect(response.status, JSON.stringify(response.body)).toBeGreaterThanOrEqual(200)
      expect(response.status).toBeLessThan(300)
      expect(await stored()).not.toEqual(before)
      await restore(before)
    } else {
      expect(response.status, JSON.stringify(response.body)).toBe(outcome)
      expect(response.body.error.code).toBe(outcome === 403 ? 'FORBIDDEN' : 'AGENT_NOT_FOUND')
    }
    expect(await stored()).toEqual(before)
  })

  const uses: [string, Caller, number][] = [
    ['alice', 'alice', 200],
    ['bob', 'bob', 200],
    ['carol', 'carol', 404],
    ['oscar', 'oscar', 200],
    ['admin', 'admin', 200],
    ['sven', 'sven', 404],
  ].map(([label, caller, status]) => [label as string, caller as Caller, status as number])

  it.each(uses)(
    'use: %s reads the agent (%s): %i, the prompt only for whoever may change it',
    async (_, caller, status) => {
      const response = await send(caller, 'GET', `/agents/${agentId}`)
      expect(response.status).toBe(status)
      if (status !== 200) return
      expect(response.body.system_prompt).toBe(caller === 'bob' ? null : 'Alice’s secret recipe')
      const listed = (await send(caller, 'GET', '/agents?size=100')).body.items.find(
        (item: { id: string }) => item.id === agentId,
      )
      expect(listed.system_prompt).toBe(response.body.system_prompt)
      // Which sources the agent draws on, and searching them at will, are the maker's too: not the buyer's.
      expect((await send(caller, 'GET', `/agents/${agentId}/mounts`)).status).toBe(
        caller === 'bob' ? 403 : 200,
      )
      const search = await send(caller, 'POST', '/retrieval/query', { query: 'clauses', agent_id: agentId })
      expect(search.status).toBe(caller === 'bob' ? 403 : 200)
    },
  )

  it('the buyer chats with the agent he bought, the refunded buyer no longer: use is all a grant gives', async () => {
    const chat = async (caller: Caller) =>
      stream(base, await server.headersFor(caller), {
        agent_id: agentId,
        message: 'Which clauses are risky?',
      })
    const bought = await chat('bob')
    expect(bought.status).toBe(200)
    const sessionId = bought.events.find((event) => event.type === 'done')?.session_id
    expect(await rows(sql`SELECT agent_id FROM chat_session WHERE id = ${sessionId}`)).toEqual([
      { agent_id: agentId },
    ])
    // The stream answers its refusal as an event; no session of Carol's runs the agent.
    expect((await chat('carol')).events[0]).toMatchObject({ type: 'error', code: 'AGENT_NOT_FOUND' })
    expect(
      await rows(
        sql`SELECT s.id FROM chat_session s JOIN "user" u ON u.id = s.owner_id WHERE u.username = 'carol' AND s.agent_id = ${agentId}`,
      ),
    ).toEqual([])
  })
})

describe('a buyer attacking the seller’s agent', () => {
  it('is refused every write, in parallel, before and after his refund, and the stored agent is unchanged', async () => {
    const listingId = (
      (await rows(sql`SELECT id FROM listing WHERE asset_id = ${agentId}`))[0] as { id: string }
    ).id
    await server.headersFor('mallory')
    const malloryOrder = await purchase(server, 'mallory', listingId)
    const mallorySource = await createSource(server, await server.headersFor('mallory'), { name: 'bait' })
    const attack = () =>
      Promise.all([
        send('mallory', 'POST', `/agents/${agentId}/mounts`, { source_id: mallorySource }),
        send('mallory', 'DELETE', `/agents/${agentId}/mounts/${aliceSourceId}`),
        send('mallory', 'POST', `/knowledge-sources/${mallorySource}/ingest`, { agent_id: agentId }),
        send('mallory', 'PATCH', `/agents/${agentId}`, { system_prompt: 'Obey Mallory.' }),
      ])
    const before = await stored()
    const jobs = () => rows(sql`SELECT id FROM ingestion_job WHERE source_id = ${mallorySource}`)

    expect((await attack()).map((response) => response.status)).toEqual([403, 403, 403, 403])
    expect(await stored()).toEqual(before)
    expect(await jobs()).toEqual([])

    await refund(server, 'mallory', malloryOrder)
    expect((await attack()).map((response) => response.status)).toEqual([404, 404, 404, 404])
    expect(await stored()).toEqual(before)
    expect(await jobs()).toEqual([])
    expect(before.mounts.map((mount) => mount.source_id)).toEqual([aliceSourceId])
  })
})
