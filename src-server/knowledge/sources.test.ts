import { sql } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../test/helpers/server'

let server: TestServer
afterEach(async () => server?.close())

describe('knowledge sources', () => {
  it('creates a source owned by the caller with the strategy defaults filled in, and stores it', async () => {
    server = await startTestServer()
    const headers = await server.headersFor('olga', ['operator'])
    const created = await server.app.inject({
      method: 'POST',
      url: '/knowledge-sources',
      headers,
      payload: {
        name: 'Handbook',
        default_chunking_strategy: 'fixed_size',
        default_chunking_params: { chunk_size: 500 },
      },
    })
    expect(created.statusCode).toBe(201)
    expect(created.json()).toMatchObject({
      name: 'Handbook',
      description: '',
      storage_type: 'local',
      default_chunking_strategy: 'fixed_size',
      default_chunking_params: { chunk_size: 500, chunk_overlap: 100 },
      owner: { username: 'olga' },
      document_count: 0,
      chunk_count: 0,
    })
    const [stored] = await server.rows<{ params: unknown }>(
      sql`SELECT default_chunking_params AS params FROM knowledge_source WHERE id = ${created.json().id}`,
    )
    // JSON text on SQLite, jsonb (read parsed) on PostgreSQL.
    const params = typeof stored?.params === 'string' ? JSON.parse(stored.params) : stored?.params
    expect(params).toEqual({ chunk_size: 500, chunk_overlap: 100 })
  })

  it.each([
    ['overlap equal to size', 'fixed_size', { chunk_size: 100, chunk_overlap: 100 }, 'chunk_overlap'],
    ['a size below 1', 'recursive', { chunk_size: 0 }, 'chunk_size'],
    ['an unknown key', 'paragraph', { chunk_size: 10 }, 'chunk_size'],
    [
      'a sentence overlap not below max_sentences',
      'sentence',
      { max_sentences: 2, chunk_overlap: 2 },
      'chunk_overlap',
    ],
    ['a threshold out of range', 'semantic', { threshold: 3 }, 'threshold'],
    ['a non-integer size', 'paragraph', { target_size: 10.5 }, 'target_size'],
  ])('refuses %s with 422 naming the field and stores nothing', async (_, strategy, params, field) => {
    server = await startTestServer()
    const headers = await server.headersFor('olga', ['operator'])
    const response = await server.app.inject({
      method: 'POST',
      url: '/knowledge-sources',
      headers,
      payload: { name: 'Bad', default_chunking_strategy: strategy, default_chunking_params: params },
    })
    expect(response.statusCode).toBe(422)
    expect(response.json().error.code).toBe('VALIDATION_ERROR')
    expect(response.json().error.details.fields).toContainEqual(
      expect.objectContaining({ field: `body.default_chunking_params.${field}` }),
    )
    expect(await server.rows(sql`SELECT CAST(count(*) AS integer) AS n FROM knowledge_source`)).toEqual([
      { n: 0 },
    ])
  })

  it('updates a source; a new strategy without params takes its defaults; bad params change nothing', async () => {
    server = await startTestServer()
    const headers = await server.headersFor('olga', ['operator'])
    const id = (
      await server.app.inject({ method: 'POST', url: '/knowledge-sources', headers, payload: { name: 'A' } })
    ).json().id
    const patched = await server.app.inject({
      method: 'PATCH',
      url: `/knowledge-sources/${id}`,
      headers,
      payload: { name: 'B', default_chunking_strategy: 'sentence' },
    })
    expect(patched.statusCode).toBe(200)
    expect(patched.json()).toMatchObject({
      name: 'B',
      default_chunking_strategy: 'sentence',
      default_chunking_params: { max_sentences: 5, chunk_overlap: 0 },
    })
    const bad = await server.app.inject({
      method: 'PATCH',
      url: `/knowledge-sources/${id}`,
      headers,
      payload: { name: 'C', default_chunking_params: { max_sentences: 0 } },
    })
    expect(bad.statusCode).toBe(422)
    expect(await server.rows(sql`SELECT name FROM knowledge_source WHERE id = ${id}`)).toEqual([
      { name: 'B' },
    ])
  })

  it("hides a user's source from other users (404) while knowledge.manage holders see all", async () => {
    server = await startTestServer()
    const owner = await server.headersFor('uma', ['user'])
    const stranger = await server.headersFor('sam', ['user'])
    const operator = await server.headersFor('olga', ['operator'])
    const id = (
      await server.app.inject({
        method: 'POST',
        url: '/knowledge-sources',
        headers: owner,
        payload: { name: 'Mine' },
      })
    ).json().id
    expect(
      (await server.app.inject({ method: 'GET', url: `/knowledge-sources/${id}`, headers: owner }))
        .statusCode,
    ).toBe(200)
    const hidden = await server.app.inject({
      method: 'GET',
      url: `/knowledge-sources/${id}`,
      headers: stranger,
    })
    expect(hidden.statusCode).toBe(404)
    expect(hidden.json().error.code).toBe('KNOWLEDGE_SOURCE_NOT_FOUND')
    const patch = await server.app.inject({
      method: 'PATCH',
      url: `/knowledge-sources/${id}`,
      headers: stranger,
      payload: { name: 'Stolen' },
    })
    expect(patch.statusCode).toBe(404)
    expect(
      (await server.app.inject({ method: 'GET', url: '/knowledge-sources', headers: stranger })).json(),
    ).toMatchObject({
      items: [],
      total: 0,
    })
    const all = await server.app.inject({
      method: 'GET',
      url: '/knowledge-sources?size=5',
      headers: operator,
    })
    expect(all.json()).toMatchObject({ total: 1, page: 1, size: 5, items: [{ id, name: 'Mine' }] })
  })

  it('publishes every knowledge route in the OpenAPI document', async () => {
    server = await startTestServer()
    const response = await server.app.inject({ method: 'GET', url: '/openapi.json' })
    expect(response.statusCode).toBe(200)
    const paths = Object.keys(response.json().paths)
    for (const route of [
      '/knowledge-sources',
      '/knowledge-sources/{source_id}',
      '/knowledge-sources/{source_id}/documents',
      '/knowledge-sources/{source_id}/documents/{document_id}',
      '/knowledge-sources/{source_id}/ingest',
      '/knowledge-sources/{source_id}/ingestion-jobs',
      '/ingestion-jobs/{job_id}',
      '/agents/{agent_id}/mounts',
      '/agents/{agent_id}/mounts/{source_id}',
      '/retrieval/query',
      '/embedding-model/check-readiness',
    ])
      expect(paths).toContain(route)
  })
})
