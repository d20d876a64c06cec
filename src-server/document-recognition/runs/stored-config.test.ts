import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { settledRun, upload } from '../../../test/helpers/document-recognition/api'
import { invoicePdf } from '../../../test/helpers/document-recognition/invoice-documents'
import { storedRows } from '../../../test/helpers/document-recognition/stored-rows'
import { startTestServer, type TestServer } from '../../../test/helpers/server'

let server: TestServer
let admin: Record<string, string>
let reviewer: Record<string, string>

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.adminHeaders()
  reviewer = await server.headersFor('rita', ['reviewer'])
})
afterAll(() => server.close())

const CONFIG = {
  input_slots: [{ key: 'document', accepts: ['application/pdf'], required: true }],
  execution_policy: { timeout_ms: 60000, max_attempts: 2, step_retries: 0, max_pages: 2, max_file_mb: 5 },
  strategy: 'rules',
  fields: [{ key: 'total_amount', label: 'Total', type: 'money', required: true, anchors: ['Total'] }],
}

/**
 * A registered extractor whose published config was valid when written and is then changed in the store (as a
 * version from before its type's schema changed would be): `change` edits the stored JSON.
 */
async function agentWithStoredConfig(name: string, change: (config: Record<string, unknown>) => void) {
  const inject = (method: 'POST' | 'PUT', url: string, payload: object) =>
    server.app.inject({ method, url, headers: admin, payload })
  const agentId = (
    await inject('POST', '/admin/runtime-agents', { name, type: 'document_extraction' })
  ).json().id
  const version = await inject('POST', `/admin/runtime-agents/${agentId}/versions`, { config: CONFIG })
  expect(version.statusCode, version.body).toBe(201)
  await inject('POST', `/admin/runtime-agents/${agentId}/versions/${version.json().id}/publish`, {})
  await inject('PUT', `/admin/document-recognition/runtime-agents/${agentId}`, {})
  const stored = structuredClone(CONFIG) as Record<string, unknown>
  change(stored)
  await server.write(
    sql`UPDATE runtime_agent_version SET config_json = ${JSON.stringify(stored)} WHERE id = ${version.json().id}`,
  )
  return agentId as string
}

/** The agent's stored runs, on the server's engine. */
const runRows = (agentId: string) => {
  const { db, agentRun } = storedRows(server)
  return db.select().from(agentRun).where(eq(agentRun.runtimeAgentId, agentId))
}

describe('a stored config that no longer matches its type', () => {
  it('refuses an upload with 409 STORED_CONFIG_INVALID naming the problem, and stores no run', async () => {
    const agentId = await agentWithStoredConfig('Lost policy', (config) => {
      delete config.execution_policy
    })
    const response = await upload(server, reviewer, agentId, {
      name: 'a.pdf',
      type: 'application/pdf',
      bytes: await invoicePdf(),
    })
    expect(response.statusCode, response.body).toBe(409)
    const { error } = response.json()
    expect(error.code).toBe('STORED_CONFIG_INVALID')
    expect(error.details.problems.join(' ')).toMatch(/execution_policy/)
    expect(await runRows(agentId)).toEqual([])
  })

  it('fails a queued run at once with the problem as its error, instead of leaving it queued', async () => {
    const agentId = await agentWithStoredConfig('Unknown strategy', (config) => {
      config.strategy = 'oracle'
    })
    const created = await upload(server, reviewer, agentId, {
      name: 'a.pdf',
      type: 'application/pdf',
      bytes: await invoicePdf(),
    })
    // The base config (slot, policy) still reads, so the upload is accepted; the type's keys do not.
    expect(created.statusCode, created.body).toBe(202)
    const run = await settledRun(server, created.json().id)
    expect(run.status).toBe('failed')
    const [row] = await runRows(agentId)
    expect(row).toMatchObject({ id: run.id, status: 'failed' })
    expect(row?.errorMessage).toMatch(/does not match its type \(\/strategy /)
    expect(row?.completedAt).not.toBeNull()
  })
})
