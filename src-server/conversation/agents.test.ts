import { afterEach, describe, expect, it } from 'vitest'
import { count } from '../../test/helpers/conversation'
import { startTestServer, type TestServer } from '../../test/helpers/server'

let server: TestServer
afterEach(async () => server?.close())

async function createAgent(headers: Record<string, string>, payload: Record<string, unknown>) {
  return server.app.inject({ method: 'POST', url: '/agents', headers, payload })
}

describe('agents', () => {
  it('creates an agent owned by the caller and reads it back with the contract fields', async () => {
    server = await startTestServer()
    const ann = await server.headersFor('ann')
    const created = await createAgent(ann, {
      name: 'Helpdesk',
      system_prompt: 'Be brief.',
      model_temperature: 0.4,
    })
    expect(created.statusCode).toBe(201)
    const agent = created.json()
    expect(agent).toMatchObject({
      name: 'Helpdesk',
      description: '',
      agent_type: 'chat',
      system_prompt: 'Be brief.',
      model_provider: null,
      model_name: null,
      model_temperature: 0.4,
      owner: { username: 'ann' },
    })
    expect(await count(server, 'SELECT count(*) n FROM agent WHERE id = ?', agent.id)).toBe(1)
    const read = await server.app.inject({ method: 'GET', url: `/agents/${agent.id}`, headers: ann })
    expect(read.json()).toEqual(agent)
  })

  it("hides someone else's agent as 404 and shows every agent to operators", async () => {
    server = await startTestServer()
    const ann = await server.headersFor('ann')
    const bob = await server.headersFor('bob')
    const operator = await server.headersFor('olga', ['operator'])
    const agent = (await createAgent(ann, { name: 'Private' })).json()
    await createAgent(bob, { name: 'Bobs' })

    const asBob = await server.app.inject({ method: 'GET', url: `/agents/${agent.id}`, headers: bob })
    expect(asBob.statusCode).toBe(404)
    expect(asBob.json().error.code).toBe('AGENT_NOT_FOUND')
    const patchAsBob = await server.app.inject({
      method: 'PATCH',
      url: `/agents/${agent.id}`,
      headers: bob,
      payload: { name: 'Stolen' },
    })
    expect(patchAsBob.statusCode).toBe(404)

    const bobsList = (await server.app.inject({ method: 'GET', url: '/agents', headers: bob })).json()
    expect(bobsList.items.map((item: { name: string }) => item.name)).toEqual(['Bobs'])
    const all = (
      await server.app.inject({ method: 'GET', url: '/agents?size=1&page=2', headers: operator })
    ).json()
    expect(all).toMatchObject({ total: 2, page: 2, size: 1 })
    expect(all.items).toHaveLength(1)
    expect(await count(server, "SELECT count(*) n FROM agent WHERE name = 'Stolen'")).toBe(0)
  })

  it('updates own agent and refuses an unknown model or a temperature out of range', async () => {
    server = await startTestServer()
    const ann = await server.headersFor('ann')
    const agent = (await createAgent(ann, { name: 'A' })).json()
    const patched = await server.app.inject({
      method: 'PATCH',
      url: `/agents/${agent.id}`,
      headers: ann,
      payload: {
        description: 'Answers billing questions',
        model_provider: 'builtin',
        model_name: 'extractive',
      },
    })
    expect(patched.statusCode).toBe(200)
    expect(patched.json()).toMatchObject({
      description: 'Answers billing questions',
      model_name: 'extractive',
    })

    const unknownModel = await server.app.inject({
      method: 'PATCH',
      url: `/agents/${agent.id}`,
      headers: ann,
      payload: { model_name: 'gpt-nothing' },
    })
    expect(unknownModel.statusCode).toBe(400)
    expect(unknownModel.json().error.code).toBe('UNKNOWN_MODEL')
    const unknownProvider = await createAgent(ann, { name: 'B', model_provider: 'nowhere' })
    expect(unknownProvider.json().error.code).toBe('UNKNOWN_MODEL_PROVIDER')
    const hot = await createAgent(ann, { name: 'C', model_temperature: 2.5 })
    expect(hot.statusCode).toBe(422)
    expect(await count(server, 'SELECT count(*) n FROM agent')).toBe(1)
    expect(await count(server, "SELECT count(*) n FROM agent WHERE model_name = 'gpt-nothing'")).toBe(0)
  })

  it('lets a buyer see and chat with an agent granted by a marketplace order, but not edit it', async () => {
    server = await startTestServer()
    const ann = await server.headersFor('ann')
    const bob = await server.headersFor('bob')
    const agent = (await createAgent(ann, { name: 'For sale' })).json()
    const listing = await server.app.inject({
      method: 'POST',
      url: '/api/marketplace/listings',
      headers: ann,
      payload: {
        asset_type: 'agent',
        asset_id: agent.id,
        title: 'Helpful agent',
        pricing_model: 'free',
        base_price: 0,
      },
    })
    expect(listing.statusCode, listing.body).toBe(201)
    const published = await server.app.inject({
      method: 'PUT',
      url: `/api/admin/listings/${listing.json().id}/status`,
      headers: await server.adminHeaders(),
      payload: { status: 'published' },
    })
    expect(published.statusCode, published.body).toBe(200)
    expect(
      (await server.app.inject({ method: 'GET', url: `/agents/${agent.id}`, headers: bob })).statusCode,
    ).toBe(404)

    const order = await server.app.inject({
      method: 'POST',
      url: '/api/marketplace/orders',
      headers: bob,
      payload: { listing_id: listing.json().id },
    })
    expect(order.statusCode, order.body).toBe(201)
    expect(
      (await server.app.inject({ method: 'GET', url: `/agents/${agent.id}`, headers: bob })).statusCode,
    ).toBe(200)
    const list = (await server.app.inject({ method: 'GET', url: '/agents', headers: bob })).json()
    expect(list.items.map((item: { id: string }) => item.id)).toEqual([agent.id])
    const chat = await server.app.inject({
      method: 'POST',
      url: '/stream',
      headers: bob,
      payload: { agent_id: agent.id, message: 'hi' },
    })
    expect(chat.body).not.toContain('"type":"error"')
    expect(await count(server, 'SELECT count(*) n FROM chat_session WHERE agent_id = ?', agent.id)).toBe(1)
    const edit = await server.app.inject({
      method: 'PATCH',
      url: `/agents/${agent.id}`,
      headers: bob,
      payload: { name: 'Mine now' },
    })
    expect(edit.statusCode).toBe(403)
    expect(await count(server, "SELECT count(*) n FROM agent WHERE name = 'Mine now'")).toBe(0)

    // Another seller's agent bob holds no grant to stays out of his list; a refund takes the granted one out.
    await createAgent(ann, { name: 'Not sold' })
    const ids = async () =>
      (await server.app.inject({ method: 'GET', url: '/agents', headers: bob }))
        .json()
        .items.map((item: { id: string }) => item.id)
    expect(await ids()).toEqual([agent.id])
    const refund = await server.app.inject({
      method: 'POST',
      url: `/api/marketplace/orders/${order.json().id}/refund`,
      headers: bob,
      payload: { reason: 'not needed' },
    })
    expect(refund.statusCode, refund.body).toBe(200)
    expect(await ids()).toEqual([])
  })
})
