import { describe, expect, it } from 'vitest'
import {
  listeningServerEachTest,
  request,
  storedMessageCount,
  storedRow,
  storedRows,
  stream,
  tokenOf,
} from '../../test/helpers/conversation'
import type { TestServer } from '../../test/helpers/server'

let server: TestServer
let base: string
const openSocket = listeningServerEachTest((started, url) => ([server, base] = [started, url]))

type Headers = Record<string, string>
const ONLINE = 'A person will join shortly.'
const OFFLINE_START = 'No one from our team is online right now.'

const stored = async (sessionId: string) =>
  (await storedRow<{ waiting_since: string | null; resolved_at: string | null; state: string }>(
    server,
    'SELECT waiting_since, resolved_at, state FROM chat_session WHERE id = ?',
    sessionId,
  )) as { waiting_since: string | null; resolved_at: string | null; state: string }
const messages = (sessionId: string) =>
  storedRows<{ role: string; content: string }>(
    server,
    'SELECT role, content FROM chat_message WHERE session_id = ? ORDER BY seq',
    sessionId,
  )

/**
 * An admin's agent that every signed-in user may talk to, and a plain user's session with it, resolved: the
 * builtin model's "no knowledge" answer made it wait, and a hand-off must be seen to start the wait again.
 */
async function helpDesk() {
  const admin = await server.adminHeaders()
  const agent = (await request(base, admin, 'POST', '/agents', { name: 'Help desk' })).body
  await request(base, admin, 'PATCH', `/agents/${agent.id}`, { audience: 'users' })
  const uma = await server.headersFor('uma')
  const first = await stream(base, uma, { agent_id: agent.id, message: 'How do refunds work?' })
  const sessionId = first.events.at(-1)?.session_id as string
  await request(base, admin, 'POST', `/sessions/${sessionId}/resolve`)
  expect(await stored(sessionId)).toMatchObject({ waiting_since: null, resolved_at: expect.any(String) })
  return { admin, agent, uma, sessionId }
}

async function operatorFeed(headers: Headers) {
  const feed = await openSocket('/ws-operator', tokenOf(headers))
  await feed.next((message) => message.type === 'ready')
  return feed
}

describe('POST /sessions/{id}/request-human', () => {
  it('marks the session waiting, tells the user in the configured words and alerts operators', async () => {
    const { agent, uma, sessionId } = await helpDesk()

    // Nobody is connected to the inbox: the user is told so.
    const offline = await request(base, uma, 'POST', `/sessions/${sessionId}/request-human`)
    expect(offline.status).toBe(200)
    expect(offline.body.session).toMatchObject({
      waiting_for_human: true,
      agent: { id: agent.id, name: 'Help desk' },
      topic: 'How do refunds work?',
    })
    expect(offline.body.message).toMatchObject({ role: 'assistant' })
    expect(offline.body.message.content.startsWith(OFFLINE_START)).toBe(true)
    expect(await stored(sessionId)).toMatchObject({ waiting_since: expect.any(String), resolved_at: null })
    expect((await messages(sessionId)).at(-1)).toEqual({
      role: 'assistant',
      content: offline.body.message.content,
    })

    // Asking again right after the answer adds nothing.
    const again = await request(base, uma, 'POST', `/sessions/${sessionId}/request-human`)
    expect(again.body.message).toBeNull()
    expect(await messages(sessionId)).toHaveLength(4)

    // With an operator connected, the online message; the operator's feed gets the waiting session by agent.
    const olga = await server.headersFor('olga', ['operator'])
    const feed = await operatorFeed(olga)
    const second = (
      await stream(base, uma, { agent_id: agent.id, message: 'Where is my parcel?' })
    ).events.at(-1)?.session_id as string
    const online = await request(base, uma, 'POST', `/sessions/${second}/request-human`)
    expect(online.body.message.content).toBe(ONLINE)
    const alert = await feed.next(
      (message) =>
        message.type === 'session_updated' &&
        (message.session as { id: string; waiting_for_human: boolean }).id === second &&
        (message.session as { waiting_for_human: boolean }).waiting_for_human,
    )
    expect(alert.session).toMatchObject({ agent: { name: 'Help desk' }, owner: { username: 'uma' } })
    const inbox = (await request(base, olga, 'GET', '/sessions?view=unassigned')).body
    expect(
      inbox.items
        .map((session: { id: string }) => session.id)
        .slice(0, 2)
        .sort(),
    ).toEqual([sessionId, second].sort())
  })

  it("uses the admin's configured message, refuses a bad one, and refuses others' and human-held sessions", async () => {
    const { admin, uma, sessionId } = await helpDesk()
    const configured = await request(base, admin, 'PUT', '/api/admin/config/handoff_offline_message', {
      value: 'Our team answers weekdays 9 to 5; we will write back.',
    })
    expect(configured.status).toBe(200)
    const blank = await request(base, admin, 'PUT', '/api/admin/config/handoff_message', { value: '   ' })
    expect(blank.status).toBe(400)
    expect(
      (await request(base, uma, 'PUT', '/api/admin/config/handoff_message', { value: 'x' })).status,
    ).toBe(403)

    const bob = await server.headersFor('bob')
    const foreign = await request(base, bob, 'POST', `/sessions/${sessionId}/request-human`)
    expect(foreign.status).toBe(404)
    expect(await messages(sessionId)).toHaveLength(3)

    const answer = await request(base, uma, 'POST', `/sessions/${sessionId}/request-human`)
    expect(answer.body.message.content).toBe('Our team answers weekdays 9 to 5; we will write back.')

    const olga = await server.headersFor('olga', ['operator'])
    await request(base, olga, 'POST', `/sessions/${sessionId}/takeover`)
    const held = await request(base, uma, 'POST', `/sessions/${sessionId}/request-human`)
    expect(held.status).toBe(409)
    expect(held.body.error.code).toBe('INVALID_SESSION_STATE')
    expect(await storedMessageCount(server, sessionId, 'assistant')).toBe(2)
  })
})

describe('a request for a person in the chat', () => {
  it.each([
    ['Can I talk to a human, please?'],
    ['Ich möchte mit einem Menschen sprechen'],
    ['Je voudrais parler à un conseiller'],
    ['¿Puedo hablar con una persona?'],
  ])('"%s" through /stream hands the session to a person instead of the model', async (text) => {
    const { agent, uma, sessionId } = await helpDesk()
    const olga = await server.headersFor('olga', ['operator'])
    await operatorFeed(olga)
    const result = await stream(base, uma, { thread_id: sessionId, agent_id: agent.id, message: text })
    const tokens = result.events.filter((event) => event.type === 'token').map((event) => event.content)
    expect(tokens.join('')).toBe(ONLINE)
    expect(result.events.at(-1)).toMatchObject({ type: 'done', session_id: sessionId })
    expect((await stored(sessionId)).waiting_since).not.toBeNull()
    expect((await messages(sessionId)).slice(-2)).toEqual([
      { role: 'user', content: text },
      { role: 'assistant', content: ONLINE },
    ])
  })

  it('leaves a question that only mentions a person to the model', async () => {
    const { agent, uma, sessionId } = await helpDesk()
    const result = await stream(base, uma, {
      thread_id: sessionId,
      agent_id: agent.id,
      message: 'Is a human needed for this?',
    })
    const reply = result.events.filter((event) => event.type === 'token').map((event) => event.content)
    expect(reply.join('')).not.toBe(ONLINE)
    expect(reply.join('').startsWith(OFFLINE_START)).toBe(false)
  })
})
