import { createServer } from 'node:net'
import { sql } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type FakeOpenAi, startFakeOpenAi } from '../../test/helpers/fake-openai'
import { startTestServer, type TestServer } from '../../test/helpers/server'

let server: TestServer
let fake: FakeOpenAi
beforeEach(async () => {
  server = await startTestServer()
  fake = await startFakeOpenAi()
})
afterEach(async () => {
  await server?.close()
  await fake?.close()
})

/** A loopback URL nothing listens at: a port taken from the system, then closed. */
async function deadUrl(): Promise<string> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const address = probe.address()
  if (!address || typeof address === 'string') throw new Error('no address')
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  return `http://127.0.0.1:${address.port}/v1`
}

const putProviders = async (payload: Record<string, unknown>) =>
  server.app.inject({
    method: 'PUT',
    url: '/api/admin/model-providers',
    headers: await server.adminHeaders(),
    payload,
  })

const storedProviders = () => server.rows(sql`SELECT id, base_url FROM model_provider ORDER BY id`)
const auditCount = async (action: string) =>
  (await server.rows(sql`SELECT id FROM admin_audit_log WHERE action = ${action}`)).length

describe('model providers are tried before they are saved', () => {
  it('refuses a provider nothing answers at with 422 PROVIDER_UNREACHABLE and stores nothing', async () => {
    const url = await deadUrl()
    const response = await putProviders({ providers: [{ id: 'dead', base_url: url, models: ['m1'] }] })
    expect(response.statusCode).toBe(422)
    expect(response.json().error).toMatchObject({
      code: 'PROVIDER_UNREACHABLE',
      details: { provider: 'dead', check: { ok: false, reachable: false } },
    })
    expect(response.json().error.message).toContain('"dead" was not saved')
    expect(await storedProviders()).toEqual([])
    expect(await auditCount('model_providers.update')).toBe(0)
    // The defaults named with it are not written either.
    const withDefaults = await putProviders({
      providers: [{ id: 'dead', base_url: url, models: ['m1'] }],
      defaults: { model_provider: 'dead', model_name: 'm1', model_temperature: 0.5 },
    })
    expect(withDefaults.statusCode).toBe(422)
    expect(await server.rows(sql`SELECT id FROM model_defaults`)).toEqual([])
  })

  it('saves a dead provider when the admin explicitly skips the check, and says so in the audit', async () => {
    const url = await deadUrl()
    const response = await putProviders({
      providers: [{ id: 'later', base_url: url, models: ['m1'] }],
      skip_check: true,
    })
    expect(response.statusCode).toBe(200)
    expect(await storedProviders()).toEqual([{ id: 'later', base_url: url }])
    const [audit] = await server.rows<{ after_json: unknown }>(
      sql`SELECT after_json FROM admin_audit_log WHERE action = 'model_providers.update'`,
    )
    // Text on SQLite, parsed jsonb on PostgreSQL.
    const after = typeof audit?.after_json === 'string' ? JSON.parse(audit.after_json) : audit?.after_json
    expect(after.saved_without_check).toBe(true)
  })

  it('saves a provider that lists its models, and only tries providers that changed', async () => {
    fake.models = ['m1', 'm2']
    const first = await putProviders({ providers: [{ id: 'local', base_url: fake.baseUrl, models: ['m1'] }] })
    expect(first.statusCode).toBe(200)
    expect(fake.modelListings).toBe(1)
    expect(await storedProviders()).toEqual([{ id: 'local', base_url: fake.baseUrl }])

    // Another provider added beside it: only the new one is tried; a dead one refuses the whole save.
    const url = await deadUrl()
    const both = await putProviders({
      providers: [
        { id: 'local', base_url: fake.baseUrl, models: ['m1'] },
        { id: 'dead', base_url: url, models: ['x'] },
      ],
    })
    expect(both.statusCode).toBe(422)
    expect(fake.modelListings).toBe(1)
    expect(await storedProviders()).toEqual([{ id: 'local', base_url: fake.baseUrl }])
  })

  it('falls back to a one-token chat completion on a server without /models', async () => {
    fake.models = null
    const response = await putProviders({
      providers: [{ id: 'plain', base_url: fake.baseUrl, api_key: 'sk-plain', models: ['tiny'] }],
    })
    expect(response.statusCode).toBe(200)
    expect(fake.requests).toHaveLength(1)
    expect(fake.requests[0]).toMatchObject({ model: 'tiny', stream: false, max_tokens: 1 })
    expect(fake.authorizations).toEqual(['Bearer sk-plain'])
  })

  it('refuses a provider that answers with errors (a refused key) with 422 PROVIDER_CHECK_FAILED', async () => {
    fake.models = null
    fake.respond = () => ({ failStatus: 401 })
    const response = await putProviders({
      providers: [{ id: 'locked', base_url: fake.baseUrl, api_key: 'sk-wrong', models: ['m1'] }],
    })
    expect(response.statusCode).toBe(422)
    expect(response.json().error).toMatchObject({
      code: 'PROVIDER_CHECK_FAILED',
      details: { check: { reachable: true, status: 401 } },
    })
    expect(await storedProviders()).toEqual([])
  })
})

describe('the Test action', () => {
  it('reports what a configured provider answers now, without changing anything', async () => {
    fake.models = ['m1']
    await putProviders({ providers: [{ id: 'local', base_url: fake.baseUrl, models: ['m1', 'm9'] }] })
    const admin = await server.adminHeaders()
    const test = (id: string) =>
      server.app.inject({ method: 'POST', url: `/api/admin/model-providers/${id}/test`, headers: admin })

    const alive = await test('local')
    expect(alive.statusCode).toBe(200)
    expect(alive.json()).toMatchObject({
      ok: true,
      reachable: true,
      listed_models: ['m1'],
      missing_models: ['m9'],
    })

    await fake.close()
    const down = await test('local')
    expect(down.statusCode).toBe(200)
    expect(down.json()).toMatchObject({ ok: false, reachable: false, status: null })
    expect(await storedProviders()).toHaveLength(1)

    expect((await test('builtin')).json()).toMatchObject({ ok: true })
    const unknown = await test('nowhere')
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json().error.code).toBe('MODEL_PROVIDER_NOT_FOUND')
    const asOperator = await server.app.inject({
      method: 'POST',
      url: '/api/admin/model-providers/local/test',
      headers: await server.headersFor('olga', ['operator']),
    })
    expect(asOperator.statusCode).toBe(403)
  })
})

describe('deleting a provider', () => {
  const remove = async (id: string) =>
    server.app.inject({
      method: 'DELETE',
      url: `/api/admin/model-providers/${id}`,
      headers: await server.adminHeaders(),
    })

  it('deletes a provider nothing uses, audited, and it leaves the catalogue', async () => {
    await putProviders({ providers: [{ id: 'spare', base_url: fake.baseUrl, models: ['m1'] }] })
    const response = await remove('spare')
    expect(response.statusCode).toBe(204)
    expect(await storedProviders()).toEqual([])
    expect(await auditCount('model_provider.delete')).toBe(1)
    const models = await server.app.inject({
      method: 'GET',
      url: '/models',
      headers: await server.adminHeaders(),
    })
    expect(models.json().providers.map((p: { id: string }) => p.id)).toEqual(['builtin'])
    expect((await remove('spare')).statusCode).toBe(404)
  })

  it('refuses with 409 while an agent or the platform default uses it, naming them, and deletes nothing', async () => {
    await putProviders({
      providers: [{ id: 'used', base_url: fake.baseUrl, models: ['m1'] }],
      defaults: { model_provider: 'used', model_name: 'm1', model_temperature: 0.2 },
    })
    const asDefault = await remove('used')
    expect(asDefault.statusCode).toBe(409)
    expect(asDefault.json().error).toMatchObject({ code: 'PROVIDER_IN_USE', details: { is_default: true } })
    expect(asDefault.json().error.message).toContain('the platform default model')

    await putProviders({
      providers: [{ id: 'used', base_url: fake.baseUrl, models: ['m1'] }],
      defaults: { model_provider: 'builtin', model_name: 'extractive', model_temperature: 0.2 },
    })
    const agent = await server.app.inject({
      method: 'POST',
      url: '/agents',
      headers: await server.headersFor('otto', ['operator']),
      payload: { name: 'Helpdesk', model_provider: 'used', model_name: 'm1' },
    })
    expect(agent.statusCode).toBe(201)
    const byAgent = await remove('used')
    expect(byAgent.statusCode).toBe(409)
    expect(byAgent.json().error.details.agents).toEqual([{ id: agent.json().id, name: 'Helpdesk' }])
    expect(byAgent.json().error.message).toContain('agent "Helpdesk"')
    expect(await storedProviders()).toEqual([{ id: 'used', base_url: fake.baseUrl }])
    expect(await auditCount('model_provider.delete')).toBe(0)
  })

  it('refuses while the version of a recognition agent names it as its model', async () => {
    await putProviders({ providers: [{ id: 'reader', base_url: fake.baseUrl, models: ['m1'] }] })
    const admin = await server.adminHeaders()
    const agents = (
      await server.app.inject({ method: 'GET', url: '/admin/runtime-agents', headers: admin })
    ).json()
    const invoices = agents.items.find((a: { name: string }) => a.name === 'Invoice extractor')
    const detail = (
      await server.app.inject({ method: 'GET', url: `/admin/runtime-agents/${invoices.id}`, headers: admin })
    ).json()
    const config = { ...detail.versions[0].config, model: { provider: 'reader', model: 'm1' } }
    const drafted = await server.app.inject({
      method: 'POST',
      url: `/admin/runtime-agents/${invoices.id}/versions`,
      headers: admin,
      payload: { config },
    })
    expect(drafted.statusCode).toBe(201)
    const response = await remove('reader')
    expect(response.statusCode).toBe(409)
    expect(response.json().error.details.runtime_agents).toEqual([
      { id: invoices.id, name: 'Invoice extractor' },
    ])
    expect(await storedProviders()).toEqual([{ id: 'reader', base_url: fake.baseUrl }])
  })

  it('refuses the built-in provider', async () => {
    const response = await remove('builtin')
    expect(response.statusCode).toBe(409)
    expect(response.json().error.code).toBe('PROVIDER_NOT_DELETABLE')
  })
})
