import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../../test/helpers/server'
import { BaseAgentConfig } from './runs.schemas'
import { createAgentRunService } from './runs.service'

let server: TestServer
let dir = ''
afterEach(async () => {
  await server?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

/** The shipped receipt extractor as a release would ship it, with its flag threshold set to `threshold`. */
function ship(threshold: number) {
  const shipped = JSON.parse(
    readFileSync(path.join(process.cwd(), 'resources', 'runtime-agents', 'receipt-extractor.json'), 'utf8'),
  )
  shipped.key = 'test-extractor'
  shipped.name = 'Test extractor'
  shipped.config.low_confidence_threshold = threshold
  writeFileSync(path.join(dir, 'test-extractor.json'), JSON.stringify(shipped))
}

/**
 * A server, a folder for shipped definitions, and a run service whose executor accepts the shipped configs: the
 * upgrade rules are the subject here, not extraction.
 */
async function startRunService() {
  server = await startTestServer()
  dir = mkdtempSync(path.join(tmpdir(), 'switchboard-shipped-'))
  const runs = createAgentRunService(server.app.ctx)
  runs.registerExecutor('document_extraction', {
    configSchema: BaseAgentConfig,
    validateConfig: () => [],
    execute: () => Promise.reject(new Error('not run in this test')),
  })
  return runs
}

const versions = (agentId: string) =>
  server
    .sqlite()
    .$client.prepare(
      'SELECT version, status, config_json FROM runtime_agent_version WHERE agent_id = ? ORDER BY version',
    )
    .all(agentId) as { version: number; status: string; config_json: string }[]

describe('shipped definitions', () => {
  it('bring an untouched agent up to the new release, once, and leave an agent an admin changed alone', async () => {
    const runs = await startRunService()
    const service = () => runs
    ship(0.7)
    const [agent] = await service().installShippedDefinitions(dir)
    const agentId = agent?.id as string
    expect(versions(agentId).map((v) => v.status)).toEqual(['published'])

    // A new release ships another config: the next version is published, and a second start changes nothing.
    ship(0.75)
    expect(await service().installShippedDefinitions(dir)).toEqual([])
    await service().installShippedDefinitions(dir)
    const upgraded = versions(agentId)
    expect(upgraded.map((v) => [v.version, v.status])).toEqual([
      [1, 'retired'],
      [2, 'published'],
    ])
    expect(JSON.parse(upgraded[1]?.config_json ?? '{}').low_confidence_threshold).toBe(0.75)

    // An admin publishes their own version: a later release does not override it.
    const admin = await server.adminHeaders()
    const mine = JSON.parse(upgraded[1]?.config_json ?? '{}')
    mine.low_confidence_threshold = 0.9
    const created = await server.app.inject({
      method: 'POST',
      url: `/admin/runtime-agents/${agentId}/versions`,
      headers: admin,
      payload: { config: mine },
    })
    expect(created.statusCode, created.body).toBe(201)
    const published = await server.app.inject({
      method: 'POST',
      url: `/admin/runtime-agents/${agentId}/versions/${created.json().id}/publish`,
      headers: admin,
    })
    expect(published.statusCode, published.body).toBe(200)
    ship(0.8)
    await service().installShippedDefinitions(dir)
    const after = versions(agentId)
    expect(after).toHaveLength(3)
    expect(
      JSON.parse(after.find((v) => v.status === 'published')?.config_json ?? '{}').low_confidence_threshold,
    ).toBe(0.9)
  })

  it('upgrades an agent installed before releases were tracked when it never had a second version', async () => {
    const runs = await startRunService()
    ship(0.7)
    const agentId = (await runs.installShippedDefinitions(dir))[0]?.id as string
    server
      .sqlite()
      .$client.prepare('UPDATE runtime_agent SET shipped_config_sha = NULL WHERE id = ?')
      .run(agentId)
    ship(0.75)
    await runs.installShippedDefinitions(dir)
    expect(versions(agentId).map((v) => v.status)).toEqual(['retired', 'published'])
  })
})
