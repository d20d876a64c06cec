import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { storedJson } from '../../test/helpers/engine'
import { filesystemServer, misbehavingServers, testToolServer } from '../../test/helpers/mcp/tool-servers'
import { startTestServer, type TestServer } from '../../test/helpers/server'

let server: TestServer
afterEach(async () => server?.close())

const SECRET = 'sk-live-7f3a9c-never-show-me'

async function operator() {
  return server.headersFor('olga', ['operator'])
}

/** Tool servers are created by an admin: their command runs on the host. */
async function createServer(payload: Record<string, unknown>) {
  const response = await server.app.inject({
    method: 'POST',
    url: '/mcp-servers',
    headers: await server.adminHeaders(),
    payload,
  })
  expect(response.statusCode, response.body).toBe(201)
  return response.json()
}

/** How many rows a table holds, on the engine the MCP domain runs on. */
async function countOf(table: 'mcp_server' | 'mcp_credential'): Promise<number> {
  const [row] = await server.rows<{ n: number }>(
    sql`SELECT CAST(count(*) AS integer) AS n FROM ${sql.raw(table)}`,
  )
  return row?.n ?? -1
}

/** The last health check stored for a server. */
async function storedHealth(id: string): Promise<{ status: string; tools: unknown[] }> {
  const [row] = await server.rows<{ last_health_json: unknown }>(
    sql`SELECT last_health_json FROM mcp_server WHERE id = ${id}`,
  )
  return storedJson(row?.last_health_json)
}

/** A credential's stored ciphertext, read raw. */
async function storedSecret(id: string): Promise<string> {
  const [row] = await server.rows<{ encrypted_secret_json: string }>(
    sql`SELECT encrypted_secret_json FROM mcp_credential WHERE id = ${id}`,
  )
  return row?.encrypted_secret_json ?? ''
}

/**
 * The credential's whole row, read raw on the engine the MCP domain runs on (PostgreSQL in the `postgres` project):
 * it names the payload's keys, and no column holds a value, plain or in the encodings a leak would take.
 */
async function expectNoPlaintextIn(id: string, payload: Record<string, string>) {
  const rows = await server.rows<Record<string, unknown>>(sql`SELECT * FROM mcp_credential WHERE id = ${id}`)
  expect(rows).toHaveLength(1)
  expect(storedJson(rows[0]?.secret_keys_json)).toEqual(Object.keys(payload).sort())
  const raw = JSON.stringify(rows)
  for (const value of Object.values(payload))
    for (const form of [value, Buffer.from(value).toString('base64'), Buffer.from(value).toString('hex')])
      expect(raw).not.toContain(form)
}

async function healthCheck(id: string) {
  const response = await server.app.inject({
    method: 'POST',
    url: `/mcp-servers/${id}/health-check`,
    headers: await operator(),
  })
  expect(response.statusCode, response.body).toBe(200)
  return response.json()
}

describe('MCP tool servers and credentials', () => {
  it('creates, lists, updates and deletes tool servers, refusing a duplicate name with 409', async () => {
    server = await startTestServer()
    const created = await createServer({
      name: 'tools',
      ...testToolServer(),
      env: { MODE: 'test' },
      timeout_ms: 5000,
    })
    expect(created).toMatchObject({
      transport: 'stdio',
      enabled: true,
      env: { MODE: 'test' },
      last_health: null,
    })

    const duplicate = await server.app.inject({
      method: 'POST',
      url: '/mcp-servers',
      headers: await server.adminHeaders(),
      payload: { name: 'tools', command: 'x' },
    })
    expect(duplicate.statusCode).toBe(409)
    expect(duplicate.json().error.code).toBe('MCP_SERVER_NAME_TAKEN')

    const patched = await server.app.inject({
      method: 'PATCH',
      url: `/mcp-servers/${created.id}`,
      headers: await operator(),
      payload: { description: 'test tools', enabled: false },
    })
    expect(patched.json()).toMatchObject({
      description: 'test tools',
      enabled: false,
      command: process.execPath,
    })

    const list = await server.app.inject({ method: 'GET', url: '/mcp-servers', headers: await operator() })
    expect(list.json()).toMatchObject({ total: 1, page: 1, size: 20 })

    const removed = await server.app.inject({
      method: 'DELETE',
      url: `/mcp-servers/${created.id}`,
      headers: await operator(),
    })
    expect(removed.statusCode).toBe(204)
    expect(await countOf('mcp_server')).toBe(0)
  })

  it('keeps names unique under parallel creates over HTTP: one 201, the rest 409, one row each', async () => {
    server = await startTestServer()
    const base = await server.listen()
    const admin = await server.adminHeaders()
    const post = (url: string, payload: unknown) =>
      fetch(`${base}${url}`, {
        method: 'POST',
        headers: { ...admin, 'content-type': 'application/json' },
        body: JSON.stringify(payload),
      }).then(async (response) => ({
        status: response.status,
        code: ((await response.json()) as { error?: { code?: string } }).error?.code,
      }))
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => [
        post('/mcp-servers', { name: 'same', transport: 'http_sse' }),
        post('/mcp-credentials', { name: 'same', secret_payload: { API_TOKEN: SECRET } }),
      ]).flat(),
    )
    for (const code of ['MCP_SERVER_NAME_TAKEN', 'MCP_CREDENTIAL_NAME_TAKEN']) {
      const refused = answers.filter((answer) => answer.code === code)
      expect(refused).toHaveLength(7)
      expect(refused.every((answer) => answer.status === 409)).toBe(true)
    }
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(2)
    expect(await countOf('mcp_server')).toBe(1)
    expect(await countOf('mcp_credential')).toBe(1)

    // Renames racing for one free name: one takes it.
    const others = await Promise.all(
      ['a', 'b', 'c', 'd'].map((name) => post('/mcp-servers', { name, transport: 'http_sse' })),
    )
    expect(others.every((answer) => answer.status === 201)).toBe(true)
    const ids = await server.rows<{ id: string }>(sql`SELECT id FROM mcp_server WHERE name <> 'same'`)
    const renames = await Promise.all(
      ids.map(({ id }) =>
        fetch(`${base}/mcp-servers/${id}`, {
          method: 'PATCH',
          headers: { ...admin, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'renamed' }),
        }).then((response) => response.status),
      ),
    )
    expect(renames.sort()).toEqual([200, 409, 409, 409])
    expect(await server.rows(sql`SELECT name FROM mcp_server WHERE name = 'renamed'`)).toHaveLength(1)
  })

  it('refuses a stdio server without a command and bad environment names with 422, storing nothing', async () => {
    server = await startTestServer()
    const headers = await server.adminHeaders()
    const noCommand = await server.app.inject({
      method: 'POST',
      url: '/mcp-servers',
      headers,
      payload: { name: 'a' },
    })
    expect(noCommand.statusCode).toBe(422)
    const badEnv = await server.app.inject({
      method: 'POST',
      url: '/mcp-servers',
      headers,
      payload: { name: 'b', command: 'x', env: { 'NOT-VALID': '1' } },
    })
    expect(badEnv.statusCode).toBe(422)
    expect(badEnv.json().error.details.fields[0].field).toBe('body.env.NOT-VALID')
    expect(await countOf('mcp_server')).toBe(0)
  })

  it('keeps tool servers and credentials to holders of mcp.manage', async () => {
    server = await startTestServer()
    const user = await server.headersFor('ursula', ['user'])
    for (const url of ['/mcp-servers', '/mcp-credentials']) {
      const response = await server.app.inject({ method: 'GET', url, headers: user })
      expect(response.statusCode).toBe(403)
    }
  })

  it('stores a credential sealed, shows only its key names, rotates it and refuses to delete it while in use', async () => {
    server = await startTestServer()
    const headers = await operator()
    const created = await server.app.inject({
      method: 'POST',
      url: '/mcp-credentials',
      headers,
      payload: { name: 'github', secret_payload: { GITHUB_TOKEN: SECRET, OTHER: 'second-secret-value' } },
    })
    expect(created.statusCode).toBe(201)
    const credential = created.json()
    expect(credential).toEqual({
      id: expect.any(String),
      owner_id: expect.any(String),
      name: 'github',
      description: null,
      secret_keys: ['GITHUB_TOKEN', 'OTHER'],
      created_at: expect.any(String),
      updated_at: expect.any(String),
      rotated_at: null,
    })
    await expectNoPlaintextIn(credential.id, { GITHUB_TOKEN: SECRET, OTHER: 'second-secret-value' })
    const stored = await storedSecret(credential.id)
    expect(stored).toMatch(/^v1\./)
    expect(stored).not.toContain(SECRET)
    expect(JSON.parse(server.app.ctx.secrets.unseal(stored)).GITHUB_TOKEN).toBe(SECRET)

    const renamed = await server.app.inject({
      method: 'PATCH',
      url: `/mcp-credentials/${credential.id}`,
      headers,
      payload: { description: 'CI token' },
    })
    expect(renamed.json()).toMatchObject({ name: 'github', description: 'CI token' })

    const rotated = await server.app.inject({
      method: 'POST',
      url: `/mcp-credentials/${credential.id}/rotate`,
      headers,
      payload: { secret_payload: { GITHUB_TOKEN: 'rotated-value-123' } },
    })
    expect(rotated.json()).toMatchObject({ secret_keys: ['GITHUB_TOKEN'], rotated_at: expect.any(String) })
    await expectNoPlaintextIn(credential.id, { GITHUB_TOKEN: 'rotated-value-123' })
    expect(JSON.parse(server.app.ctx.secrets.unseal(await storedSecret(credential.id)))).toEqual({
      GITHUB_TOKEN: 'rotated-value-123',
    })

    const tool = await createServer({ name: 'gh', command: 'gh-mcp', credential_id: credential.id })
    const inUse = await server.app.inject({
      method: 'DELETE',
      url: `/mcp-credentials/${credential.id}`,
      headers,
    })
    expect(inUse.statusCode).toBe(409)
    expect(inUse.json().error.code).toBe('MCP_CREDENTIAL_IN_USE')
    await server.app.inject({ method: 'DELETE', url: `/mcp-servers/${tool.id}`, headers })
    const deleted = await server.app.inject({
      method: 'DELETE',
      url: `/mcp-credentials/${credential.id}`,
      headers,
    })
    expect(deleted.statusCode).toBe(204)
    expect(await countOf('mcp_credential')).toBe(0)

    const audit = await server.rows(sql`SELECT * FROM admin_audit_log WHERE action LIKE 'mcp.credential.%'`)
    expect(audit).toHaveLength(4)
    expect(JSON.stringify(audit)).not.toContain(SECRET)
    expect(JSON.stringify(audit)).not.toContain(stored)
    expect(server.logs()).not.toContain(SECRET)
  })

  it('health-checks the SDK test server: ok with its tools, stored as last_health', async () => {
    server = await startTestServer()
    const created = await createServer({ name: 'tools', ...testToolServer() })
    const health = await healthCheck(created.id)
    expect(health).toMatchObject({ status: 'ok', error: null })
    expect(health.tools.map((tool: { name: string }) => tool.name)).toEqual([
      'echo',
      'sleep',
      'fail',
      'reveal',
      'pid',
      'crash',
    ])
    expect(await storedHealth(created.id)).toMatchObject({ status: 'ok' })
  })

  it('health-checks the published filesystem MCP server from the npm registry', async () => {
    server = await startTestServer()
    const { command, args } = filesystemServer()
    const created = await createServer({ name: 'files', command, args })
    const health = await healthCheck(created.id)
    expect(health.status, health.error).toBe('ok')
    expect(health.tools.map((tool: { name: string }) => tool.name)).toContain('read_text_file')
  })

  it.each([
    ['a command that does not exist', { command: '/nonexistent/mcp-server-binary' }, /was not found/],
    [
      'a process that exits at once',
      misbehavingServers.exitsAtOnce,
      /exited before completing the MCP handshake/,
    ],
    ['a process that hangs', misbehavingServers.hangs, /did not complete the MCP handshake within 800 ms/],
    ['a process that speaks garbage', misbehavingServers.speaksGarbage, /not MCP JSON-RPC/],
  ])('reports %s as status error with a clear message', async (_label, launch, message) => {
    server = await startTestServer()
    const created = await createServer({ name: 'broken', ...launch, timeout_ms: 800 })
    const health = await healthCheck(created.id)
    expect(health).toMatchObject({ status: 'error', tools: [] })
    expect(health.error).toMatch(message)
    expect((await storedHealth(created.id)).status).toBe('error')
  })

  it('keeps the credential out of a health error even when the server prints it as garbage', async () => {
    server = await startTestServer()
    const credential = await server.app.inject({
      method: 'POST',
      url: '/mcp-credentials',
      headers: await operator(),
      payload: { name: 'leaky', secret_payload: { LEAKY_SECRET: SECRET } },
    })
    const created = await createServer({
      name: 'leaky',
      command: process.execPath,
      args: ['-e', 'console.log(process.env.LEAKY_SECRET); setInterval(() => {}, 1000)'],
      env_names: ['LEAKY_SECRET'],
      credential_id: credential.json().id,
      timeout_ms: 800,
    })
    const response = await server.app.inject({
      method: 'POST',
      url: `/mcp-servers/${created.id}/health-check`,
      headers: await operator(),
    })
    expect(response.json().status).toBe('error')
    expect(response.body).not.toContain(SECRET)
    const stored = await storedHealth(created.id)
    expect(stored.status).toBe('error')
    expect(JSON.stringify(stored)).not.toContain(SECRET)
    expect(server.logs()).not.toContain(SECRET)
  })

  it('stores an http_sse server and reports it as not supported yet', async () => {
    server = await startTestServer()
    const created = await createServer({ name: 'remote', transport: 'http_sse' })
    expect(created.transport).toBe('http_sse')
    const health = await healthCheck(created.id)
    expect(health).toMatchObject({ status: 'error', error: expect.stringMatching(/not supported/) })
  })

  it('answers 404 for a health check of an unknown server', async () => {
    server = await startTestServer()
    const response = await server.app.inject({
      method: 'POST',
      url: '/mcp-servers/00000000-0000-4000-8000-000000000000/health-check',
      headers: await operator(),
    })
    expect(response.statusCode).toBe(404)
    expect(response.json().error.code).toBe('MCP_SERVER_NOT_FOUND')
  })
})

describe('who decides what runs on the host', () => {
  /** The command line audited by each kind of server change, by action. */
  const auditedCommandLines = async () => {
    const rows = await server.rows<{ action: string; after_json: unknown }>(
      sql`SELECT action, after_json FROM admin_audit_log WHERE action LIKE 'mcp.server.%'`,
    )
    return Object.fromEntries(
      rows.map((row) => [row.action, storedJson<{ command_line: string }>(row.after_json).command_line]),
    )
  }

  it("refuses an operator's stdio command with 403, and nothing runs, not even on a health check", async () => {
    server = await startTestServer()
    const marker = path.join(mkdtempSync(path.join(tmpdir(), 'switchboard-marker-')), 'ran')
    const attack = { command: '/bin/sh', args: ['-c', `touch ${marker}`] }
    const created = await server.app.inject({
      method: 'POST',
      url: '/mcp-servers',
      headers: await operator(),
      payload: { name: 'innocent', ...attack },
    })
    expect(created.statusCode).toBe(403)
    expect(created.json().error).toMatchObject({
      code: 'FORBIDDEN',
      details: { permission: 'platform.admin' },
    })

    const tools = await createServer({ name: 'tools', ...testToolServer() })
    for (const change of [
      attack,
      { args: ['-e', `require('fs').writeFileSync('${marker}', '')`] },
      { env: { NODE_OPTIONS: '--require /tmp/x' } },
      { cwd: '/' },
    ]) {
      const patched = await server.app.inject({
        method: 'PATCH',
        url: `/mcp-servers/${tools.id}`,
        headers: await operator(),
        payload: change,
      })
      expect(patched.statusCode).toBe(403)
    }
    // Operators keep everything else: names, enabling, health checks.
    const renamed = await server.app.inject({
      method: 'PATCH',
      url: `/mcp-servers/${tools.id}`,
      headers: await operator(),
      payload: { description: 'renamed by an operator', timeout_ms: 6000 },
    })
    expect(renamed.statusCode).toBe(200)
    expect((await healthCheck(tools.id)).status).toBe('ok')
    expect(existsSync(marker)).toBe(false)
    const rows = await server.rows<{ command: string }>(sql`SELECT command FROM mcp_server`)
    expect(rows).toEqual([{ command: process.execPath }])
  })

  it("audits an admin's command with its full command line", async () => {
    server = await startTestServer()
    const launch = testToolServer()
    const created = await createServer({ name: 'tools', ...launch })
    await server.app.inject({
      method: 'PATCH',
      url: `/mcp-servers/${created.id}`,
      headers: await server.adminHeaders(),
      payload: { args: [...launch.args, '--verbose'] },
    })
    expect(await auditedCommandLines()).toEqual({
      'mcp.server.create': [launch.command, ...launch.args].join(' '),
      'mcp.server.update': [launch.command, ...launch.args, '--verbose'].join(' '),
    })
  })

  it('refuses commands outside SWITCHBOARD_MCP_ALLOWED_COMMANDS with 403 COMMAND_NOT_ALLOWED, admins included', async () => {
    server = await startTestServer({ mcpAllowedCommands: [path.basename(process.execPath)] })
    const refused = await server.app.inject({
      method: 'POST',
      url: '/mcp-servers',
      headers: await server.adminHeaders(),
      payload: { name: 'shell', command: '/bin/sh', args: ['-c', 'true'] },
    })
    expect(refused.statusCode).toBe(403)
    expect(refused.json().error.code).toBe('COMMAND_NOT_ALLOWED')
    const allowed = await createServer({ name: 'tools', ...testToolServer() })
    expect((await healthCheck(allowed.id)).status).toBe('ok')
    expect(await countOf('mcp_server')).toBe(1)
  })

  it('refuses commands outside the admin setting mcp_allowed_commands, which is audited like any setting', async () => {
    server = await startTestServer()
    const admin = await server.adminHeaders()
    const set = await server.app.inject({
      method: 'PUT',
      url: '/api/admin/config/mcp_allowed_commands',
      headers: admin,
      payload: {
        value: ` ${path.basename(process.execPath)} , /usr/bin/uvx `,
        description: 'only node and uvx',
      },
    })
    expect(set.statusCode, set.body).toBe(200)
    expect(set.json().value).toBe(`${path.basename(process.execPath)},/usr/bin/uvx`)
    const refused = await server.app.inject({
      method: 'POST',
      url: '/mcp-servers',
      headers: admin,
      payload: { name: 'shell', command: '/bin/sh', args: ['-c', 'true'] },
    })
    expect(refused.json().error.code).toBe('COMMAND_NOT_ALLOWED')
    await createServer({ name: 'tools', ...testToolServer() })
    expect(await countOf('mcp_server')).toBe(1)
  })
})
