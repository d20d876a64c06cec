import { sql } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type FakeOpenAi, startFakeOpenAi } from '../../test/helpers/fake-openai'
import { startTestServer, type TestServer } from '../../test/helpers/server'
import { resolveConfig } from '../platform/config'
import { extractiveAnswer } from './builtin-provider'
import { createModelRegistry } from './model-registry'
import type { ChatChunk, ModelRegistry } from './model-types'

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

const signal = () => new AbortController().signal

/** One short chat with a provider's model, to see what reaches the provider. */
const sayHi = (registry: ModelRegistry, provider: string, model: string) =>
  collect(
    registry.streamChat({
      provider,
      model,
      temperature: 0,
      messages: [{ role: 'user', content: 'hi' }],
      signal: signal(),
    }),
  )

async function collect(iterable: AsyncIterable<ChatChunk>): Promise<ChatChunk[]> {
  const chunks: ChatChunk[] = []
  for await (const chunk of iterable) chunks.push(chunk)
  return chunks
}

describe('model catalogue and provider configuration', () => {
  it('lists the builtin models with capabilities and the defaults', async () => {
    const response = await server.app.inject({
      method: 'GET',
      url: '/models',
      headers: await server.headersFor('ann'),
    })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({
      providers: [
        {
          id: 'builtin',
          type: 'builtin',
          models: [
            { id: 'extractive', capabilities: ['chat'] },
            { id: 'judge', capabilities: ['json_schema'] },
            { id: 'embed-local', capabilities: ['embeddings'] },
          ],
        },
      ],
      defaults: { model_provider: 'builtin', model_name: 'extractive', model_temperature: 0.2 },
    })
  })

  it('stores an admin-configured provider with its key sealed, never returned, and audited', async () => {
    const admin = await server.adminHeaders()
    const put = await server.app.inject({
      method: 'PUT',
      url: '/api/admin/model-providers',
      headers: admin,
      payload: {
        providers: [{ id: 'local', base_url: fake.baseUrl, api_key: 'sk-very-secret', models: ['m1'] }],
        defaults: { model_provider: 'local', model_name: 'm1', model_temperature: 0.7 },
      },
    })
    expect(put.statusCode).toBe(200)
    expect(put.json().providers).toEqual([
      {
        id: 'local',
        type: 'openai_compatible',
        source: 'console',
        base_url: fake.baseUrl,
        models: ['m1'],
        has_api_key: true,
        updated_at: expect.any(String),
      },
    ])
    expect(put.body).not.toContain('sk-very-secret')
    const [stored] = await server.rows<{ api_key_sealed: string }>(
      sql`SELECT api_key_sealed FROM model_provider`,
    )
    expect(stored?.api_key_sealed.startsWith('v1.')).toBe(true)
    expect(server.app.ctx.secrets.unseal(stored?.api_key_sealed ?? '')).toBe('sk-very-secret')
    const audit = await server.rows(
      sql`SELECT after_json FROM admin_audit_log WHERE action = 'model_providers.update'`,
    )
    expect(audit).toHaveLength(1)
    expect(JSON.stringify(audit)).not.toContain('sk-very-secret')

    // Keeping the key: omit api_key.
    const again = await server.app.inject({
      method: 'PUT',
      url: '/api/admin/model-providers',
      headers: admin,
      payload: { providers: [{ id: 'local', base_url: fake.baseUrl, models: ['m1', 'm2'] }] },
    })
    expect(again.json().providers[0].has_api_key).toBe(true)
    const models = (await server.app.inject({ method: 'GET', url: '/models', headers: admin })).json()
    expect(models.defaults).toEqual({ model_provider: 'local', model_name: 'm1', model_temperature: 0.7 })
    expect(models.providers[1]).toEqual({
      id: 'local',
      type: 'openai_compatible',
      models: [
        { id: 'm1', capabilities: ['chat', 'json_schema', 'tools'] },
        { id: 'm2', capabilities: ['chat', 'json_schema', 'tools'] },
      ],
    })
    // The unsealed key reaches the provider as a bearer token.
    const registry = await createModelRegistry(server.app.ctx)
    await sayHi(registry, 'local', 'm1')
    expect(fake.authorizations).toEqual(['Bearer sk-very-secret'])
  })

  it('refuses invalid provider settings and changes nothing', async () => {
    const admin = await server.adminHeaders()
    const cases = [
      { providers: [{ id: 'builtin', base_url: fake.baseUrl, models: ['x'] }] },
      {
        providers: [
          { id: 'a', base_url: fake.baseUrl, models: ['x'] },
          { id: 'a', base_url: fake.baseUrl, models: ['y'] },
        ],
      },
      { providers: [], defaults: { model_provider: 'gone', model_name: 'x', model_temperature: 1 } },
    ]
    for (const payload of cases) {
      const response = await server.app.inject({
        method: 'PUT',
        url: '/api/admin/model-providers',
        headers: admin,
        payload,
      })
      expect(response.statusCode).toBe(400)
      expect(response.json().error.code).toBe('INVALID_PROVIDER_CONFIG')
    }
    const badUrl = await server.app.inject({
      method: 'PUT',
      url: '/api/admin/model-providers',
      headers: admin,
      payload: { providers: [{ id: 'a', base_url: 'ftp://x', models: ['x'] }] },
    })
    expect(badUrl.statusCode).toBe(422)
    const asOperator = await server.app.inject({
      method: 'GET',
      url: '/api/admin/model-providers',
      headers: await server.headersFor('olga', ['operator']),
    })
    expect(asOperator.statusCode).toBe(403)
    expect(await server.rows(sql`SELECT id FROM model_provider`)).toEqual([])
  })

  it('configures a provider from SWITCHBOARD_OPENAI_* without storing its key', async () => {
    const registry = await createModelRegistry(
      server.app.ctx,
      resolveConfig(
        {},
        {
          SWITCHBOARD_OPENAI_BASE_URL: fake.baseUrl,
          SWITCHBOARD_OPENAI_API_KEY: ' sk-env ',
          SWITCHBOARD_OPENAI_MODELS: 'alpha, beta',
        },
      ),
    )
    expect(registry.listModels().providers.map((provider) => provider.id)).toEqual(['builtin', 'openai'])
    expect(registry.providerSettings().providers[0]).toMatchObject({
      id: 'openai',
      source: 'env',
      models: ['alpha', 'beta'],
      has_api_key: true,
    })
    expect(registry.resolve({ provider: 'openai' })).toEqual({
      provider: 'openai',
      model: 'alpha',
      temperature: 0.2,
    })
    // The key reaches the provider trimmed, as config.ts read it.
    await sayHi(registry, 'openai', 'alpha')
    expect(fake.authorizations).toEqual(['Bearer sk-env'])
  })
})

describe('OpenAI-compatible provider', () => {
  const registry = () =>
    createModelRegistry(server.app.ctx, {
      openAiBaseUrl: fake.baseUrl,
      openAiApiKey: null,
      openAiModels: ['m'],
    })

  it('streams tokens as they arrive and assembles streamed tool_calls deltas', async () => {
    fake.respond = () => ({
      tokens: ['Let me ', 'check.'],
      toolCalls: [
        { id: 'call_1', name: 'weather__forecast', arguments: '{"city":"Oslo","days":3}' },
        { id: 'call_2', name: 'clock__now', arguments: '{}' },
      ],
    })
    const chunks = await collect(
      (await registry()).streamChat({
        provider: 'openai',
        model: 'm',
        temperature: 0.3,
        messages: [{ role: 'user', content: 'Weather in Oslo?' }],
        tools: [
          { type: 'function', function: { name: 'weather__forecast', parameters: { type: 'object' } } },
        ],
        signal: signal(),
      }),
    )
    expect(chunks).toEqual([
      { type: 'token', content: 'Let me ' },
      { type: 'token', content: 'check.' },
      {
        type: 'tool_calls',
        calls: [
          { id: 'call_1', name: 'weather__forecast', arguments: '{"city":"Oslo","days":3}' },
          { id: 'call_2', name: 'clock__now', arguments: '{}' },
        ],
      },
    ])
    expect(fake.requests[0]?.tools?.[0]?.function.name).toBe('weather__forecast')
  })

  it('asks for json_schema output and falls back to JSON in text when the server refuses it', async () => {
    const schema = { type: 'object', properties: { score: { type: 'number' } }, required: ['score'] }
    fake.respond = () => ({ tokens: ['{"score": 0.8}'] })
    const structured = await (await registry()).completeJson({
      provider: 'openai',
      model: 'm',
      messages: [{ role: 'user', content: 'rate' }],
      schema,
      signal: signal(),
    })
    expect(structured).toEqual({ score: 0.8 })
    expect(fake.requests[0]?.response_format).toMatchObject({ type: 'json_schema' })

    fake.respond = (request) =>
      request.response_format ? { failStatus: 400 } : { tokens: ['Sure:\n```json\n{"score": 0.4}\n```'] }
    const fallback = await (await registry()).completeJson({
      provider: 'openai',
      model: 'm',
      messages: [{ role: 'user', content: 'rate' }],
      schema,
      signal: signal(),
    })
    expect(fallback).toEqual({ score: 0.4 })

    fake.respond = () => ({ tokens: ['no json here'] })
    await expect(
      (await registry()).completeJson({
        provider: 'openai',
        model: 'm',
        messages: [{ role: 'user', content: 'rate' }],
        schema,
        signal: signal(),
      }),
    ).rejects.toMatchObject({ code: 'STRUCTURED_OUTPUT_FAILED' })
  })
})

describe('builtin provider', () => {
  it('answers with the sentence that answers the question, led by the asked-for value and cited', () => {
    const answer = extractiveAnswer('Within how many days can a refund be requested?', {
      agentName: 'Support',
      passages: [
        {
          index: 1,
          documentName: 'shipping.md',
          score: 0.9,
          content: 'Parcels ship within two days. Tracking links arrive by email.',
        },
        {
          index: 2,
          documentName: 'refunds.md',
          score: 0.8,
          content:
            'Our office is in Oslo. A refund can be requested within 14 days of purchase. Refunds go back to the wallet.',
        },
      ],
    })
    expect(answer).toBe('14 days — A refund can be requested within 14 days of purchase. [2]')
    expect(answer).not.toContain('Oslo')
    expect(answer).not.toContain('Tracking')
  })

  it('says it does not know and offers a person, with no instruction meant for operators', () => {
    const refusals = [
      extractiveAnswer('What is the refund policy?', { agentName: 'Support', passages: [] }),
      extractiveAnswer('Quantum chromodynamics?', {
        agentName: 'Support',
        passages: [{ index: 1, documentName: 'a.md', score: 1, content: 'Parcels ship within two days.' }],
      }),
    ]
    for (const refusal of refusals) {
      expect(refusal).toBe("I don't know that from the documents I have. You can ask to talk to a person.")
      expect(refusal).not.toMatch(/mount|ingest|knowledge source|agent/iu)
    }
    expect(extractiveAnswer('Wer hat den Rhein benannt?', { agentName: null, passages: [] })).toContain(
      'mit einer Person zu sprechen',
    )
  })

  it('judges with a documented token-overlap score', async () => {
    const registry = await createModelRegistry(server.app.ctx)
    const verdict = (await registry.completeJson({
      provider: 'builtin',
      model: 'judge',
      messages: [
        {
          role: 'user',
          content: JSON.stringify({
            input: 'q',
            expected: 'refunds within 14 days',
            output: 'refunds are possible within 14 days',
          }),
        },
      ],
      schema: {},
      signal: signal(),
    })) as { score: number; rationale: string }
    expect(verdict.score).toBeGreaterThan(0.8)
    expect(verdict.rationale).toContain('token-overlap F1')
    await expect(
      registry.completeJson({
        provider: 'builtin',
        model: 'extractive',
        messages: [],
        schema: {},
        signal: signal(),
      }),
    ).rejects.toMatchObject({ code: 'MODEL_CAPABILITY_MISSING' })
  })
})
