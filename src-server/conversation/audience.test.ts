import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { count, request, storedJson, storedRow, stream } from '../../test/helpers/conversation'
import { startTestServer, type TestServer } from '../../test/helpers/server'

let server: TestServer
let base: string
beforeEach(async () => {
  server = await startTestServer()
  base = await server.listen()
})
afterEach(async () => server?.close())

type Headers = Record<string, string>

/** The people an audience is decided for: the owner, a plain user, a reviewer, an operator, an admin. */
async function people() {
  return {
    ann: await server.headersFor('ann'),
    uma: await server.headersFor('uma'),
    rita: await server.headersFor('rita', ['reviewer']),
    olga: await server.headersFor('olga', ['operator']),
    admin: await server.adminHeaders(),
  }
}

const storedAudience = async (agentId: string) => {
  const row = await storedRow<{ audience: string; roles: unknown }>(
    server,
    'SELECT audience, audience_roles_json roles FROM agent WHERE id = ?',
    agentId,
  )
  return row && { audience: row.audience, roles: storedJson(row.roles) }
}

/** Whether the caller may talk to the agent, asked every way a client can: read it, find it in the list, chat. */
async function talksTo(headers: Headers, agentId: string) {
  const read = await request(base, headers, 'GET', `/agents/${agentId}`)
  const listed = (await request(base, headers, 'GET', '/agents?size=100')).body.items.some(
    (agent: { id: string }) => agent.id === agentId,
  )
  const chat = await stream(base, headers, { agent_id: agentId, message: 'What are your opening hours?' })
  const chatted = !chat.events.some((event) => event.type === 'error')
  expect(new Set([read.status === 200, listed, chatted]).size).toBe(1)
  if (read.status !== 200) expect(read.body.error.code).toBe('AGENT_NOT_FOUND')
  return chatted
}

describe('agent audience', () => {
  it('decides who may talk to an agent: the owner only, given roles, or every signed-in user', async () => {
    const { ann, uma, rita, olga, admin } = await people()
    const agent = (await request(base, ann, 'POST', '/agents', { name: 'Help desk', description: 'Answers' }))
      .body
    expect(agent).toMatchObject({ audience: 'owner', audience_roles: [] })

    const who = async () => ({
      ann: await talksTo(ann, agent.id),
      uma: await talksTo(uma, agent.id),
      rita: await talksTo(rita, agent.id),
      olga: await talksTo(olga, agent.id),
    })
    expect(await who()).toEqual({ ann: true, uma: false, rita: false, olga: true })

    const roles = await request(base, ann, 'PATCH', `/agents/${agent.id}`, {
      audience: 'roles',
      audience_roles: ['reviewer'],
    })
    expect(roles.status).toBe(200)
    expect(roles.body).toMatchObject({ audience: 'roles', audience_roles: ['reviewer'] })
    expect(await storedAudience(agent.id)).toEqual({ audience: 'roles', roles: ['reviewer'] })
    expect(await who()).toEqual({ ann: true, uma: false, rita: true, olga: true })

    const users = await request(base, admin, 'PATCH', `/agents/${agent.id}`, { audience: 'users' })
    expect(users.body).toMatchObject({ audience: 'users', audience_roles: [] })
    expect(await storedAudience(agent.id)).toEqual({ audience: 'users', roles: [] })
    expect(await who()).toEqual({ ann: true, uma: true, rita: true, olga: true })

    // Without a token nobody talks to it, whatever its audience.
    expect((await request(base, {}, 'GET', `/agents/${agent.id}`)).status).toBe(401)
    expect((await request(base, {}, 'GET', '/agents')).status).toBe(401)

    await request(base, ann, 'PATCH', `/agents/${agent.id}`, { audience: 'owner' })
    expect(await who()).toEqual({ ann: true, uma: false, rita: false, olga: true })
  })

  it('lets only the owner or an admin set the audience, and refuses a malformed one, changing nothing', async () => {
    const { ann, uma, olga } = await people()
    const agent = (await request(base, ann, 'POST', '/agents', { name: 'Help desk' })).body
    await request(base, ann, 'PATCH', `/agents/${agent.id}`, { audience: 'roles', audience_roles: ['user'] })

    const attempts: [Headers, unknown, number, string][] = [
      // An agent manager may edit the prompt, not widen who talks to the agent.
      [olga, { audience: 'users' }, 403, 'FORBIDDEN'],
      [olga, { audience_roles: ['reviewer'] }, 403, 'FORBIDDEN'],
      // A member of the audience may talk to it, not edit it.
      [uma, { audience: 'users' }, 403, 'FORBIDDEN'],
      [ann, { audience: 'roles', audience_roles: [] }, 422, 'VALIDATION_ERROR'],
      [ann, { audience: 'users', audience_roles: ['user'] }, 422, 'VALIDATION_ERROR'],
      [ann, { audience: 'everyone' }, 422, 'VALIDATION_ERROR'],
      [ann, { audience: 'roles', audience_roles: ['root'] }, 422, 'VALIDATION_ERROR'],
      [ann, { audience: 'roles', audience_roles: 'user' }, 422, 'VALIDATION_ERROR'],
    ]
    for (const [headers, payload, status, code] of attempts) {
      const answer = await request(base, headers, 'PATCH', `/agents/${agent.id}`, payload)
      expect({ payload, status: answer.status, code: answer.body.error?.code }).toEqual({
        payload,
        status,
        code,
      })
    }
    expect(await storedAudience(agent.id)).toEqual({ audience: 'roles', roles: ['user'] })

    // The roles alone change while the audience is `roles`.
    const narrowed = await request(base, ann, 'PATCH', `/agents/${agent.id}`, {
      audience_roles: ['reviewer'],
    })
    expect(narrowed.body).toMatchObject({ audience: 'roles', audience_roles: ['reviewer'] })
  })

  it('gives the audience talk only: mounting knowledge on the agent stays with its owner and operators', async () => {
    const { ann, uma } = await people()
    const agent = (await request(base, ann, 'POST', '/agents', { name: 'Help desk' })).body
    await request(base, ann, 'PATCH', `/agents/${agent.id}`, { audience: 'users' })
    const source = (await request(base, uma, 'POST', '/knowledge-sources', { name: 'Mine' })).body
    expect(source.id).toBeTruthy()
    const mount = await request(base, uma, 'POST', `/agents/${agent.id}/mounts`, { source_id: source.id })
    expect(mount.status).toBe(404)
    expect(await count(server, 'SELECT count(*) n FROM knowledge_mount WHERE agent_id = ?', agent.id)).toBe(0)
  })

  it('lists what the caller may talk to, and with mine=true only what they own', async () => {
    const { ann, uma, rita } = await people()
    const everyone = (await request(base, ann, 'POST', '/agents', { name: 'Everyone' })).body
    const reviewers = (await request(base, ann, 'POST', '/agents', { name: 'Reviewers' })).body
    await request(base, ann, 'POST', '/agents', { name: 'Private' })
    await request(base, uma, 'POST', '/agents', { name: 'Umas own' })
    await request(base, ann, 'PATCH', `/agents/${everyone.id}`, { audience: 'users' })
    await request(base, ann, 'PATCH', `/agents/${reviewers.id}`, {
      audience: 'roles',
      audience_roles: ['reviewer', 'operator'],
    })

    const names = async (headers: Headers, query = '') =>
      (await request(base, headers, 'GET', `/agents${query}`)).body.items.map((a: { name: string }) => a.name)
    expect(await names(uma)).toEqual(['Umas own', 'Everyone'])
    expect(await names(rita)).toEqual(['Reviewers', 'Everyone'])
    expect(await names(uma, '?mine=true')).toEqual(['Umas own'])
    expect(await names(ann, '?mine=true')).toEqual(['Private', 'Reviewers', 'Everyone'])
    const page = (await request(base, uma, 'GET', '/agents?size=1&page=2')).body
    expect(page).toMatchObject({ total: 2, page: 2, size: 1, items: [{ name: 'Everyone' }] })
  })
})
