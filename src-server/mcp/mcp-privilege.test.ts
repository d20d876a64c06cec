import { execFileSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { storedJson } from '../../test/helpers/engine'
import { leakyToolServer, testToolServer } from '../../test/helpers/mcp/tool-servers'
import { startTestServer, type TestServer } from '../../test/helpers/server'
import { createToolRuntime } from './tool-runtime'

/**
 * An operator attacks the tool servers as one would, over real HTTP: environment variables that make the child
 * run their code, a credential attached to an admin's server, other people's credentials, and a server that
 * echoes its secret in its tool list. Every verdict is read from stored state and the files a child would write.
 */
let server: TestServer
let base: string
afterEach(async () => server?.close())

async function start() {
  server = await startTestServer()
  base = await server.listen()
}

const operator = () => server.headersFor('olga', ['operator'])
const otherOperator = () => server.headersFor('oscar', ['operator'])

async function call(method: string, url: string, headers: Record<string, string>, body?: unknown) {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  return { status: response.status, text, json: text ? JSON.parse(text) : null }
}

/** A server's launch settings as stored, on the engine the MCP domain runs on. */
async function serverRow(id: string) {
  const [row] = await server.rows<{
    credential_id: string | null
    env_json: unknown
    env_names_json: unknown
  }>(sql`SELECT credential_id, env_json, env_names_json FROM mcp_server WHERE id = ${id}`)
  return {
    credential_id: row?.credential_id,
    env: storedJson(row?.env_json),
    env_names: storedJson(row?.env_names_json),
  }
}

async function countOf(table: 'mcp_server' | 'mcp_credential'): Promise<number> {
  const [row] = await server.rows<{ n: number }>(
    sql`SELECT CAST(count(*) AS integer) AS n FROM ${sql.raw(table)}`,
  )
  return row?.n ?? -1
}

async function adminCreatesServer(payload: Record<string, unknown>) {
  const created = await call('POST', '/mcp-servers', await server.adminHeaders(), payload)
  expect(created.status, created.text).toBe(201)
  return created.json as { id: string }
}

const markerDir = () => mkdtempSync(path.join(tmpdir(), 'switchboard-env-attack-'))

/** Each payload makes its runtime or the loader run code that writes `marker`, if the child is given it. */
const attacks = {
  'Node --import of a data: URL': (marker: string) => ({
    launch: testToolServer(),
    payload: {
      NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(
        `import{writeFileSync}from"node:fs";writeFileSync(${JSON.stringify(marker)},"")`,
      )}`,
    },
  }),
  'Node --require of a file': (marker: string) => {
    const preload = path.join(path.dirname(marker), 'preload.cjs')
    writeFileSync(preload, `require('node:fs').writeFileSync(${JSON.stringify(marker)}, '')`)
    return { launch: testToolServer(), payload: { NODE_OPTIONS: `--require ${preload}` } }
  },
  'Python PYTHONSTARTUP, PYTHONWARNINGS and BROWSER': (marker: string) => {
    const startup = path.join(path.dirname(marker), 'startup.py')
    writeFileSync(startup, `open(${JSON.stringify(marker)}, 'w').close()\n`)
    const python = execFileSync('python3', ['-c', 'import sys; print(sys.executable)']).toString().trim()
    return {
      launch: { command: python, args: ['-c', 'import sys'] },
      payload: {
        PYTHONSTARTUP: startup,
        // Importing the warning category "antigravity.x" opens a web browser: the BROWSER command.
        PYTHONWARNINGS: 'all:0:antigravity.x:0:0',
        BROWSER: `/bin/sh -c 'touch ${marker}' #%s`,
      },
    }
  },
  'the dynamic loader LD_PRELOAD': (marker: string) => {
    const source = path.join(path.dirname(marker), 'preload.c')
    const library = path.join(path.dirname(marker), 'preload.so')
    writeFileSync(
      source,
      `#include <stdio.h>\n__attribute__((constructor)) static void ran(void) { FILE *f = fopen(${JSON.stringify(marker)}, "w"); if (f) fclose(f); }\n`,
    )
    execFileSync('cc', ['-shared', '-fPIC', '-o', library, source])
    return { launch: testToolServer(), payload: { LD_PRELOAD: library } }
  },
}

describe("a tool server's environment is the admin's decision", () => {
  it.each(Object.keys(attacks) as (keyof typeof attacks)[])(
    'runs nothing of an operator payload for %s: 422 naming the variables, never reaching the child',
    async (kind) => {
      await start()
      const marker = path.join(markerDir(), 'ran')
      const { launch, payload } = attacks[kind](marker)
      const names = Object.keys(payload)
      const tools = await adminCreatesServer({ name: 'tools', ...launch, timeout_ms: 5000 })

      const created = await call('POST', '/mcp-credentials', await operator(), {
        name: 'innocent',
        secret_payload: payload,
      })
      expect(created.status, created.text).toBe(422)
      expect(created.json.error.code).toBe('ENV_NAME_NOT_ALLOWED')
      expect(created.json.error.details.variables.sort()).toEqual([...names].sort())
      for (const name of names) expect(created.json.error.message).toContain(name)
      expect(await countOf('mcp_credential')).toBe(0)

      // The same payload stored before these rules existed: an operator cannot attach it, and when an admin
      // does, the names were never declared, so nothing of it reaches the child.
      const legacyId = randomUUID()
      const now = new Date().toISOString()
      await server.write(
        sql`INSERT INTO mcp_credential (id, name, encrypted_secret_json, secret_keys_json, created_at, updated_at)
            VALUES (${legacyId}, 'legacy', ${server.app.ctx.secrets.seal(JSON.stringify(payload))},
                    ${JSON.stringify(names)}, ${now}, ${now})`,
      )
      const attached = await call('PATCH', `/mcp-servers/${tools.id}`, await operator(), {
        credential_id: legacyId,
      })
      expect(attached.status).toBe(404)
      expect((await serverRow(tools.id)).credential_id).toBeNull()
      const declared = await call('PATCH', `/mcp-servers/${tools.id}`, await server.adminHeaders(), {
        credential_id: legacyId,
        env_names: names,
      })
      expect(declared.status).toBe(422)
      expect(declared.json.error.details.variables.sort()).toEqual([...names].sort())
      const inServerEnv = await call('PATCH', `/mcp-servers/${tools.id}`, await server.adminHeaders(), {
        env: payload,
      })
      expect(inServerEnv.status).toBe(422)
      expect(await serverRow(tools.id)).toEqual({ credential_id: null, env: {}, env_names: [] })
      const byAdmin = await call('PATCH', `/mcp-servers/${tools.id}`, await server.adminHeaders(), {
        credential_id: legacyId,
      })
      expect(byAdmin.status, byAdmin.text).toBe(200)
      const health = await call('POST', `/mcp-servers/${tools.id}/health-check`, await operator())
      expect(health.status).toBe(200)

      // A server row that declares the names from before the rules: refused at launch, naming them.
      await server.write(
        sql`UPDATE mcp_server SET env_names_json = ${JSON.stringify(names)} WHERE id = ${tools.id}`,
      )
      const stale = await call('POST', `/mcp-servers/${tools.id}/health-check`, await operator())
      expect(stale.json).toMatchObject({ status: 'error', tools: [] })
      for (const name of names) expect(stale.json.error).toContain(name)

      expect(existsSync(marker)).toBe(false)
    },
  )

  it("gives the child only the minimal inherited set, the admin's variables and the declared credential values", async () => {
    await start()
    const out = path.join(markerDir(), 'env.json')
    process.env.PARENT_ONLY_VARIABLE = 'of the server process'
    try {
      const credential = await call('POST', '/mcp-credentials', await server.adminHeaders(), {
        name: 'api',
        secret_payload: { API_TOKEN: 'declared-value', EXTRA_TOKEN: 'undeclared-value' },
      })
      expect(credential.status, credential.text).toBe(201)
      const probe = await adminCreatesServer({
        name: 'probe',
        command: process.execPath,
        args: ['-e', `require('node:fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.env))`],
        env: { REGION: 'eu' },
        env_names: ['API_TOKEN'],
        credential_id: credential.json.id,
        timeout_ms: 5000,
      })
      await call('POST', `/mcp-servers/${probe.id}/health-check`, await operator())
    } finally {
      delete process.env.PARENT_ONLY_VARIABLE
    }
    const env = JSON.parse(readFileSync(out, 'utf8')) as Record<string, string>
    expect(env).toMatchObject({ API_TOKEN: 'declared-value', REGION: 'eu' })
    const inherited = Object.keys(env).filter((name) => !['API_TOKEN', 'REGION'].includes(name))
    expect(
      inherited.every((name) => ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'].includes(name)),
    ).toBe(true)
    expect(env.EXTRA_TOKEN).toBeUndefined()
    expect(env.PARENT_ONLY_VARIABLE).toBeUndefined()
  })

  it('refuses an operator attaching a credential, even their own, with 403; an admin attaches it, audited', async () => {
    await start()
    const own = await call('POST', '/mcp-credentials', await operator(), {
      name: 'mine',
      secret_payload: { API_TOKEN: 'operator-value' },
    })
    expect(own.status, own.text).toBe(201)
    const tools = await adminCreatesServer({ name: 'tools', ...testToolServer(), env_names: ['API_TOKEN'] })

    const [patched, created] = await Promise.all([
      call('PATCH', `/mcp-servers/${tools.id}`, await operator(), { credential_id: own.json.id }),
      call('POST', '/mcp-servers', await operator(), {
        name: 'remote',
        transport: 'http_sse',
        credential_id: own.json.id,
      }),
    ])
    for (const refused of [patched, created]) {
      expect(refused.status).toBe(403)
      expect(refused.json.error).toMatchObject({
        code: 'FORBIDDEN',
        details: { permission: 'platform.admin', fields: ['credential_id'] },
      })
    }
    expect((await serverRow(tools.id)).credential_id).toBeNull()
    expect(await countOf('mcp_server')).toBe(1)
    const declare = await call('PATCH', `/mcp-servers/${tools.id}`, await operator(), { env_names: [] })
    expect(declare.status).toBe(403)
    expect((await serverRow(tools.id)).env_names).toEqual(['API_TOKEN'])

    const byAdmin = await call('PATCH', `/mcp-servers/${tools.id}`, await server.adminHeaders(), {
      credential_id: own.json.id,
    })
    expect(byAdmin.status, byAdmin.text).toBe(200)
    expect((await serverRow(tools.id)).credential_id).toBe(own.json.id)
    const audit = await server.rows<{ before_json: unknown; after_json: unknown }>(
      sql`SELECT before_json, after_json FROM admin_audit_log WHERE action = 'mcp.server.update'`,
    )
    expect(audit).toHaveLength(1)
    expect(storedJson<{ credential_id: string | null }>(audit[0]?.before_json).credential_id).toBeNull()
    expect(storedJson(audit[0]?.after_json)).toMatchObject({
      credential_id: own.json.id,
      env_names: ['API_TOKEN'],
    })
  })

  it('takes a removal and an attachment of one credential in turns: never attached after it is gone, never a 500', async () => {
    await start()
    const admin = await server.adminHeaders()
    const tools = await adminCreatesServer({ name: 'tools', transport: 'http_sse', env_names: ['API_TOKEN'] })
    for (let round = 0; round < 6; round++) {
      await call('PATCH', `/mcp-servers/${tools.id}`, admin, { credential_id: null })
      const created = await call('POST', '/mcp-credentials', admin, {
        name: `round-${round}`,
        secret_payload: { API_TOKEN: 'value' },
      })
      const id = created.json.id as string
      const [removed, attached] = await Promise.all([
        call('DELETE', `/mcp-credentials/${id}`, admin),
        call('PATCH', `/mcp-servers/${tools.id}`, admin, { credential_id: id }),
      ])
      const stored = await server.rows(sql`SELECT id FROM mcp_credential WHERE id = ${id}`)
      const attachedId = (await serverRow(tools.id)).credential_id
      if (removed.status === 204) {
        expect(attached.status, attached.text).toBe(404)
        expect(stored).toHaveLength(0)
        expect(attachedId).toBeNull()
      } else {
        expect(removed.json.error.code, removed.text).toBe('MCP_CREDENTIAL_IN_USE')
        expect(attached.status, attached.text).toBe(200)
        expect(stored).toHaveLength(1)
        expect(attachedId).toBe(id)
      }
    }
  })

  it("keeps a credential to its creator and admins: a stranger can't read, change, rotate, delete or attach it", async () => {
    await start()
    const created = await call('POST', '/mcp-credentials', await operator(), {
      name: 'olgas',
      secret_payload: { API_TOKEN: 'olga-value' },
    })
    const id = created.json.id as string
    const sealed = () =>
      server.rows(sql`SELECT name, encrypted_secret_json, rotated_at FROM mcp_credential WHERE id = ${id}`)
    const before = await sealed()
    expect(before).toHaveLength(1)
    const tools = await adminCreatesServer({ name: 'tools', ...testToolServer(), env_names: ['API_TOKEN'] })

    const stranger = await otherOperator()
    const attempts = await Promise.all([
      call('GET', `/mcp-credentials/${id}`, stranger),
      call('PATCH', `/mcp-credentials/${id}`, stranger, { name: 'taken' }),
      call('POST', `/mcp-credentials/${id}/rotate`, stranger, {
        secret_payload: { API_TOKEN: 'oscar-value' },
      }),
      call('POST', `/mcp-credentials/${id}/rotate`, stranger, { secret_payload: { NODE_OPTIONS: '-r x' } }),
      call('DELETE', `/mcp-credentials/${id}`, stranger),
      call('PATCH', `/mcp-servers/${tools.id}`, stranger, { credential_id: id }),
    ])
    for (const attempt of attempts) {
      expect(attempt.status, attempt.text).toBe(404)
      expect(attempt.json.error.code).toBe('MCP_CREDENTIAL_NOT_FOUND')
    }
    const list = await call('GET', '/mcp-credentials', stranger)
    expect(list.json).toMatchObject({ total: 0, items: [] })
    // A name is per owner: the stranger's own credential of the same name says nothing about Olga's.
    const sameName = await call('POST', '/mcp-credentials', stranger, {
      name: 'olgas',
      secret_payload: { API_TOKEN: 'oscar-value' },
    })
    expect(sameName.status).toBe(201)
    expect(await sealed()).toEqual(before)
    expect((await serverRow(tools.id)).credential_id).toBeNull()

    const asOwner = await call('GET', `/mcp-credentials/${id}`, await operator())
    expect(asOwner.status).toBe(200)
    const asAdmin = await call('GET', `/mcp-credentials/${id}`, await server.adminHeaders())
    expect(asAdmin.json).toMatchObject({ id, owner_id: asOwner.json.owner_id, secret_keys: ['API_TOKEN'] })
    expect((await call('GET', '/mcp-credentials', await server.adminHeaders())).json.total).toBe(2)
  })
})

describe('nothing a tool server returns carries its secret', () => {
  // Characters that every encoding changes: / + " \ ? & = and a space.
  const SECRET = 'sk-live/7f3a+"9c\\never?&=show me'
  const bytes = Buffer.from(SECRET)
  const forms = {
    plain: SECRET,
    base64: bytes.toString('base64'),
    base64url: bytes.toString('base64url'),
    'URL-encoded': encodeURIComponent(SECRET),
    'JSON-escaped': JSON.stringify(SECRET).slice(1, -1),
    hex: bytes.toString('hex'),
  }
  const expectNoSecret = (text: string) => {
    for (const [form, value] of Object.entries(forms)) expect(text, form).not.toContain(value)
  }

  /** A server that echoes its credential, in every encoding, in its tool list. */
  async function leakyServer() {
    await start()
    const credential = await call('POST', '/mcp-credentials', await server.adminHeaders(), {
      name: 'leaky',
      secret_payload: { LEAKY_SECRET: SECRET },
    })
    const leaky = await adminCreatesServer({
      name: 'leaky',
      ...leakyToolServer(),
      env_names: ['LEAKY_SECRET'],
      credential_id: credential.json.id,
      timeout_ms: 5000,
    })
    return leaky.id
  }

  it('masks tool names, descriptions and input schemas in every encoding, answered and stored', async () => {
    const leakyId = await leakyServer()
    const health = await call('POST', `/mcp-servers/${leakyId}/health-check`, await operator())
    expect(health.json.status, health.json.error).toBe('ok')
    const described = health.json.tools as { name: string; description: string }[]
    expect(described.map((tool) => tool.name)).toEqual([
      'plain',
      'base64',
      'base64url',
      'basic',
      'url',
      'json',
      'hex',
      'named_***',
    ])
    for (const tool of described) {
      expectNoSecret(tool.description)
      if (tool.name !== 'named_***') expect(tool.description).toContain('***')
    }
    const basic = described.find((tool) => tool.name === 'basic')?.description.split('Basic ')[1] ?? ''
    expect(Buffer.from(basic, 'base64').toString('latin1')).not.toContain('never?&=show')
    expectNoSecret(health.text)
    const [stored] = await server.rows<{ last_health_json: unknown }>(
      sql`SELECT last_health_json FROM mcp_server WHERE id = ${leakyId}`,
    )
    const storedHealth = storedJson<{ tools: unknown[] }>(stored?.last_health_json)
    expectNoSecret(JSON.stringify(storedHealth))
    expect(storedHealth.tools).toEqual(described)
    const listed = await call('GET', `/mcp-servers/${leakyId}`, await operator())
    expectNoSecret(listed.text)
  })

  it('masks what a model is offered the same way, leaving out the tool whose name holds the secret', async () => {
    const leakyId = await leakyServer()
    const agent = await call('POST', '/agents', await operator(), { name: 'Leaky tools' })
    expect(agent.status, agent.text).toBe(201)
    const mounted = await call('POST', `/agents/${agent.json.id}/mcp-mounts`, await operator(), {
      mcp_server_id: leakyId,
    })
    expect(mounted.status, mounted.text).toBe(201)
    const turn = await createToolRuntime(server.app.ctx).startTurn({
      agentId: agent.json.id,
      sessionId: 'leaky-session',
    })
    expect(turn.tools.map((tool) => tool.function.name)).toEqual([
      'leaky__plain',
      'leaky__base64',
      'leaky__base64url',
      'leaky__basic',
      'leaky__url',
      'leaky__json',
      'leaky__hex',
    ])
    expectNoSecret(JSON.stringify(turn.tools))
    expect(turn.tools[0]?.function.parameters).toMatchObject({
      properties: { key: { type: 'string', description: 'defaults to ***', default: '***' } },
    })
  })
})
