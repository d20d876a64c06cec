import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../test/helpers/server'

let server: TestServer
let admin: Record<string, string>
beforeAll(async () => {
  server = await startTestServer()
  admin = await server.adminHeaders()
})
afterAll(() => server.close())

const get = (url: string, headers = admin) => server.app.inject({ method: 'GET', url, headers })

describe('every list answers the contract shape', () => {
  const lists = [
    '/document-recognition/runtime-agents',
    '/admin/document-recognition/runtime-agents',
    '/admin/runtime-agents',
    '/api/auth/tokens',
  ]

  it.each(lists)('%s answers {items, total, page, size} and refuses size 101', async (url) => {
    const page = await get(`${url}?page=1&size=100`)
    expect(page.statusCode).toBe(200)
    expect(Object.keys(page.json()).sort()).toEqual(['items', 'page', 'size', 'total'])
    expect(page.json()).toMatchObject({ page: 1, size: 100, total: page.json().items.length })
    const tooBig = await get(`${url}?size=101`)
    expect(tooBig.statusCode).toBe(422)
    expect(tooBig.json().error.code).toBe('VALIDATION_ERROR')
  })

  it('pages the API tokens with page and size', async () => {
    for (const name of ['one', 'two', 'three'])
      await server.app.inject({ method: 'POST', url: '/api/auth/tokens', headers: admin, payload: { name } })
    const all = (await get('/api/auth/tokens?size=100')).json()
    const second = (await get('/api/auth/tokens?page=2&size=2')).json()
    expect(all.total).toBeGreaterThanOrEqual(3)
    expect(second).toMatchObject({ total: all.total, page: 2, size: 2 })
    expect(second.items.map((t: { id: string }) => t.id)).toEqual(
      all.items.slice(2, 4).map((t: { id: string }) => t.id),
    )
  })
})

describe('paths the API owns', () => {
  const unowned = [
    '/api/marketplace/nothing-here',
    '/sessions/00000000-0000-4000-8000-000000000000/nothing',
    '/document-recognition/nothing',
    '/admin/nothing',
    '/knowledge-sources/00000000-0000-4000-8000-000000000000/nothing',
    '/agents/00000000-0000-4000-8000-000000000000/nothing',
    '/evaluation-datasets/x/y/z',
    '/mcp-servers/x/y/z',
    '/retrieval/nothing',
    '/agent-runs/x/y/z',
    '/ingestion-jobs/x/y/z',
  ]

  it.each(unowned)('GET %s answers 404 NOT_FOUND in the envelope, not the console', async (url) => {
    const response = await get(url)
    expect(response.statusCode).toBe(404)
    expect(response.headers['content-type']).toMatch(/application\/json/)
    expect(response.json().error.code).toBe('NOT_FOUND')
  })

  it('answers 404 for the MCP calls of an unknown session or agent', async () => {
    const response = await get('/sessions/00000000-0000-4000-8000-000000000000/mcp-calls')
    expect(response.statusCode).toBe(404)
    expect(response.json().error.code).toBe('SESSION_NOT_FOUND')
    const agentCalls = await get('/agents/00000000-0000-4000-8000-000000000000/mcp-calls')
    expect(agentCalls.statusCode).toBe(404)
    expect(agentCalls.json().error.code).toBe('AGENT_NOT_FOUND')
  })
})
