import { describe, expect, it } from 'vitest'
import {
  count,
  listeningServerEachTest,
  storedMessageCount,
  storedRow,
  stream,
  tokenOf,
} from '../../test/helpers/conversation'
import type { TestServer } from '../../test/helpers/server'

let server: TestServer
let base: string
const openSocket = listeningServerEachTest((started, url) => ([server, base] = [started, url]))

type Headers = Record<string, string>

async function open(path: string, headers: Headers) {
  const socket = await openSocket(path, tokenOf(headers))
  await socket.next((message) => message.type === 'history' || message.type === 'ready')
  return socket
}

async function newSession(headers: Headers, message = 'hello', extra: Record<string, unknown> = {}) {
  const result = await stream(base, headers, { message, ...extra })
  return result.events.at(-1)?.session_id as string
}

const post = (url: string, headers: Headers, payload: unknown = {}) =>
  server.app.inject({ method: 'POST', url, headers, payload: payload as Record<string, unknown> })
const get = async (url: string, headers: Headers) =>
  (await server.app.inject({ method: 'GET', url, headers })).json()
const assignee = async (sessionId: string) =>
  (
    await storedRow<{ username: string | null }>(
      server,
      'SELECT u.username FROM chat_session s LEFT JOIN "user" u ON u.id = s.assigned_operator_id WHERE s.id = ?',
      sessionId,
    )
  )?.username

describe('assignment and takeover without collisions', () => {
  it('assigns a taken-over session to its operator and refuses a colleague’s message with 409 SESSION_ASSIGNED', async () => {
    const ann = await server.headersFor('ann')
    const olga = await server.headersFor('olga', ['operator'])
    const pete = await server.headersFor('pete', ['operator'])
    const sessionId = await newSession(ann)

    const taken = await post(`/sessions/${sessionId}/takeover`, olga)
    expect(taken.json()).toMatchObject({ state: 'HUMAN_ACTIVE', assigned_operator: { username: 'olga' } })

    const refused = await post(`/sessions/${sessionId}/agent-message`, pete, { content: 'Pete here' })
    expect(refused.statusCode).toBe(409)
    expect(refused.json().error).toMatchObject({
      code: 'SESSION_ASSIGNED',
      details: { assigned_operator: { username: 'olga' } },
    })
    // Over the WebSocket too: an error on the socket and nothing stored.
    const peteSocket = await open(`/ws/${sessionId}`, pete)
    peteSocket.send({ event: 'agent_message', content: 'Pete again' })
    expect(await peteSocket.next((message) => message.type === 'error')).toMatchObject({
      code: 'SESSION_ASSIGNED',
    })
    expect(await storedMessageCount(server, sessionId, 'agent')).toBe(0)

    // A plain takeover is refused as well; only an explicit forced one moves the session.
    expect((await post(`/sessions/${sessionId}/takeover`, pete)).json().error.code).toBe('SESSION_ASSIGNED')
    const forced = await post(`/sessions/${sessionId}/takeover`, pete, { force: true })
    expect(forced.statusCode).toBe(200)
    expect(forced.json()).toMatchObject({
      state: 'HUMAN_ACTIVE',
      epoch: 2,
      assigned_operator: { username: 'pete' },
    })
    const system = await peteSocket.next((message) => message.type === 'system')
    expect(system).toMatchObject({
      status: 'HUMAN_ACTIVE',
      assigned_operator: { username: 'pete' },
      message: { role: 'system', content: 'Operator pete took over the conversation from olga.' },
    })
    expect(
      (await post(`/sessions/${sessionId}/agent-message`, pete, { content: 'Pete here' })).statusCode,
    ).toBe(201)
    expect((await post(`/sessions/${sessionId}/agent-message`, olga, { content: 'Olga?' })).statusCode).toBe(
      409,
    )
    expect(await storedMessageCount(server, sessionId, 'agent')).toBe(1)
  })

  it('hands a session to a colleague with a system message, refuses non-operators and keeps release to the assignee', async () => {
    const ann = await server.headersFor('ann')
    const olga = await server.headersFor('olga', ['operator'])
    const pete = await server.headersFor('pete', ['operator'])
    const peteId = (await get('/api/auth/me', pete)).id as string
    const annId = (await get('/api/auth/me', ann)).id as string
    const sessionId = await newSession(ann)
    await post(`/sessions/${sessionId}/takeover`, olga)

    const toAnn = await post(`/sessions/${sessionId}/assign`, olga, { operator_id: annId })
    expect(toAnn.statusCode).toBe(404)
    expect(toAnn.json().error.code).toBe('OPERATOR_NOT_FOUND')
    expect((await post(`/sessions/${sessionId}/assign`, olga, { operator_id: 'nope' })).statusCode).toBe(422)
    expect(await assignee(sessionId)).toBe('olga')

    const handed = await post(`/sessions/${sessionId}/assign`, olga, { operator_id: peteId })
    expect(handed.json()).toMatchObject({ state: 'HUMAN_ACTIVE', assigned_operator: { username: 'pete' } })
    const history = await get(`/sessions/${sessionId}/messages?role=system`, olga)
    expect(history.items.at(-1).content).toBe('Operator olga assigned the conversation to pete.')

    // Olga no longer holds it: releasing or answering needs force now.
    expect((await post(`/sessions/${sessionId}/release`, olga)).json().error.code).toBe('SESSION_ASSIGNED')
    const released = await post(`/sessions/${sessionId}/release`, pete)
    expect(released.json()).toMatchObject({ state: 'AI_ACTIVE', assigned_operator: null })
    // Users cannot assign; operators list whom they can assign to (active chat.operate holders only).
    expect((await post(`/sessions/${sessionId}/assign`, ann, { operator_id: peteId })).statusCode).toBe(403)
    const operators = await get('/operators', olga)
    expect(operators.items.map((entry: { username: string }) => entry.username)).toEqual([
      'admin',
      'olga',
      'pete',
    ])
    expect(operators).toMatchObject({ total: 3, page: 1, size: 20 })
  })
})

describe('private notes', () => {
  it('never sends a note to the user’s socket nor returns it in the user’s history, but shows it to operators', async () => {
    const ann = await server.headersFor('ann')
    const olga = await server.headersFor('olga', ['operator'])
    const sessionId = await newSession(ann)
    const user = await open(`/ws/${sessionId}`, ann)
    const operator = await open(`/ws/${sessionId}`, olga)

    const note = await post(`/sessions/${sessionId}/notes`, olga, { content: 'VIP customer, be kind' })
    expect(note.statusCode).toBe(201)
    expect(note.json()).toMatchObject({ role: 'note', author: { username: 'olga' } })
    await operator.next(
      (message) => message.type === 'message' && (message.message as { role: string }).role === 'note',
    )
    // A later operator message reaches the user, so anything sent before it would have arrived first.
    await post(`/sessions/${sessionId}/takeover`, olga)
    await post(`/sessions/${sessionId}/agent-message`, olga, { content: 'Hello Ann' })
    await user.next(
      (message) => message.type === 'message' && (message.message as { role: string }).role === 'agent',
    )
    expect(JSON.stringify(user.received)).not.toContain('VIP customer')

    const annHistory = await get(`/sessions/${sessionId}/messages`, ann)
    expect(annHistory.items.map((message: { role: string }) => message.role)).not.toContain('note')
    expect((await get(`/sessions/${sessionId}/messages?role=note`, ann)).total).toBe(0)
    expect(JSON.stringify(await get(`/sessions/${sessionId}/export`, ann))).not.toContain('VIP customer')
    const reconnected = await openSocket(`/ws/${sessionId}`, tokenOf(ann))
    const replay = await reconnected.next((message) => message.type === 'history')
    expect(JSON.stringify(replay)).not.toContain('VIP customer')

    const olgaHistory = await get(`/sessions/${sessionId}/messages?role=note`, olga)
    expect(olgaHistory.items).toEqual([expect.objectContaining({ content: 'VIP customer, be kind' })])
    // Notes are not the session's preview either.
    expect((await get(`/sessions/${sessionId}/export`, ann)).session.last_message).toBe('Hello Ann')
    expect((await post(`/sessions/${sessionId}/notes`, ann, { content: 'x' })).statusCode).toBe(403)
  })
})

describe('the live inbox', () => {
  it('keeps test and evaluation sessions out of the live inbox and off /ws-operator', async () => {
    const ann = await server.headersFor('ann')
    const olga = await server.headersFor('olga', ['operator'])
    const feed = await open('/ws-operator', olga)
    const testSession = await newSession(olga, 'trying my agent', { origin: 'test' })
    const liveSession = await newSession(ann, 'real question')
    await feed.next((message) => (message.session as { id: string } | undefined)?.id === liveSession)
    expect(feed.received.some((message) => JSON.stringify(message).includes(testSession))).toBe(false)

    const live = await get('/sessions', olga)
    expect(live.items.map((session: { id: string }) => session.id)).toEqual([liveSession])
    expect(live.counts).toEqual({ mine: 0, unassigned: 1, all: 1 })
    const tests = await get('/sessions?origin=test', olga)
    expect(tests.items).toEqual([expect.objectContaining({ id: testSession, origin: 'test' })])
    // A later message cannot move a session to another origin.
    await stream(base, olga, { thread_id: testSession, message: 'again', origin: 'live' })
    expect((await get('/sessions?origin=test', olga)).total).toBe(1)
    const bad = await server.app.inject({
      method: 'POST',
      url: '/stream',
      headers: ann,
      payload: { message: 'x', origin: 'evaluation' },
    })
    expect(bad.statusCode).toBe(422)
    expect(
      (await server.app.inject({ method: 'GET', url: '/sessions?view=theirs', headers: olga })).statusCode,
    ).toBe(422)
  })

  it('filters by view and search, shows the last user message, and puts sessions waiting for a human first', async () => {
    const ann = await server.headersFor('ann')
    const bea = await server.headersFor('bea')
    const olga = await server.headersFor('olga', ['operator'])
    const annSession = await newSession(ann, 'Where is my parcel?')
    const beaSession = await newSession(bea, 'I want to talk to a human please')
    await post(`/sessions/${annSession}/takeover`, olga)
    await post(`/sessions/${annSession}/agent-message`, olga, { content: 'Let me check.' })

    const all = await get('/sessions', olga)
    // Bea asked for a human: first, and marked; Ann's row shows what Ann said, not the operator.
    expect(all.items.map((session: { id: string }) => session.id)).toEqual([beaSession, annSession])
    expect(all.items[0]).toMatchObject({
      waiting_for_human: true,
      last_user_message: 'I want to talk to a human please',
    })
    expect(all.items[1]).toMatchObject({ waiting_for_human: false, last_user_message: 'Where is my parcel?' })
    expect(all.counts).toEqual({ mine: 1, unassigned: 1, all: 2 })
    expect((await get('/sessions?view=mine', olga)).items.map((s: { id: string }) => s.id)).toEqual([
      annSession,
    ])
    expect((await get('/sessions?view=unassigned', olga)).items.map((s: { id: string }) => s.id)).toEqual([
      beaSession,
    ])

    expect((await get('/sessions?q=parcel', olga)).items.map((s: { id: string }) => s.id)).toEqual([
      annSession,
    ])
    expect((await get('/sessions?q=BEA', olga)).items.map((s: { id: string }) => s.id)).toEqual([beaSession])
    expect((await get('/sessions?q=100%25', olga)).total).toBe(0)
    // A user's search never leaves their own sessions.
    expect((await get('/sessions?q=parcel', bea)).total).toBe(0)
  })

  it("lists one person's earlier sessions to operators, resolved ones included, and never another's to a user", async () => {
    const ann = await server.headersFor('ann')
    const bea = await server.headersFor('bea')
    const olga = await server.headersFor('olga', ['operator'])
    const first = await newSession(ann, 'My first question')
    const second = await newSession(ann, 'My second question')
    const beaSession = await newSession(bea, 'Something else')
    await post(`/sessions/${first}/resolve`, olga)
    const annId = (await get('/api/auth/me', ann)).id as string

    const earlier = await get(`/sessions?owner_id=${annId}&resolved=any`, olga)
    expect(earlier.items.map((s: { id: string }) => s.id).sort()).toEqual([first, second].sort())
    expect(earlier.items.every((s: { owner: { username: string } }) => s.owner.username === 'ann')).toBe(true)

    // Bea naming Ann gets her own sessions, never Ann's.
    const asked = await get(`/sessions?owner_id=${annId}`, bea)
    expect(asked.items.map((s: { id: string }) => s.id)).toEqual([beaSession])
    const bad = await server.app.inject({ method: 'GET', url: '/sessions?owner_id=nope', headers: olga })
    expect(bad.statusCode).toBe(422)
    expect(bad.json().error.code).toBe('VALIDATION_ERROR')
  })

  it('pages the inbox by whatever page size each request asks for', async () => {
    const olga = await server.headersFor('olga', ['operator'])
    const sessions = [] as string[]
    for (const name of ['ann', 'bea', 'cid'])
      sessions.unshift(await newSession(await server.headersFor(name)))
    const ids = async (query: string) =>
      (await get(`/sessions?${query}`, olga)).items.map((session: { id: string }) => session.id)

    // Each page size is a statement of its own: one size's page never answers for another's.
    expect(await ids('limit=1')).toEqual(sessions.slice(0, 1))
    expect(await ids('limit=2&offset=2')).toEqual(sessions.slice(2, 3))
    expect(await ids('limit=1&offset=1')).toEqual(sessions.slice(1, 2))
    expect(await ids('limit=3')).toEqual(sessions)
    expect((await get('/sessions?limit=2', olga)).total).toBe(3)
  })

  it('keeps unread counts per operator on the server, so read markers survive a reload', async () => {
    const ann = await server.headersFor('ann')
    const olga = await server.headersFor('olga', ['operator'])
    const pete = await server.headersFor('pete', ['operator'])
    const sessionId = await newSession(ann, 'one')
    await stream(base, ann, { thread_id: sessionId, message: 'two' })
    const unread = async (headers: Headers) => (await get('/sessions', headers)).items[0].unread_count

    expect(await unread(olga)).toBe(2)
    const read = await post(`/sessions/${sessionId}/read`, olga)
    expect(read.json().unread_count).toBe(0)
    expect(
      await count(server, 'SELECT read_user_count n FROM chat_read_marker WHERE session_id = ?', sessionId),
    ).toBe(2)
    // A fresh list (a reload) still knows; Pete has read nothing.
    expect(await unread(olga)).toBe(0)
    expect(await unread(pete)).toBe(2)

    const feed = await open('/ws-operator', olga)
    await stream(base, ann, { thread_id: sessionId, message: 'three' })
    const update = await feed.next(
      (message) =>
        message.type === 'session_updated' &&
        (message.session as { last_user_message: string }).last_user_message === 'three',
    )
    expect((update.session as { unread_count: number }).unread_count).toBe(1)
    expect(await unread(pete)).toBe(3)
    // Users get no unread counts.
    expect((await get('/sessions', ann)).items[0].unread_count).toBeNull()
  })

  it('resolves a session out of the default view until the user writes again', async () => {
    const ann = await server.headersFor('ann')
    const olga = await server.headersFor('olga', ['operator'])
    const sessionId = await newSession(ann)
    await post(`/sessions/${sessionId}/takeover`, olga)
    const resolved = await post(`/sessions/${sessionId}/resolve`, olga)
    expect(resolved.json()).toMatchObject({
      state: 'AI_ACTIVE',
      assigned_operator: null,
      resolved_at: expect.any(String),
    })
    expect((await post(`/sessions/${sessionId}/resolve`, olga)).statusCode).toBe(409)
    expect((await get('/sessions', olga)).total).toBe(0)
    expect((await get('/sessions?resolved=resolved', olga)).items).toEqual([
      expect.objectContaining({ id: sessionId }),
    ])
    // The user still sees their conversation.
    expect((await get('/sessions', ann)).total).toBe(1)

    await stream(base, ann, { thread_id: sessionId, message: 'one more thing' })
    expect((await get('/sessions', olga)).items).toEqual([
      expect.objectContaining({ id: sessionId, resolved_at: null }),
    ])
  })
})

describe('typing indicator', () => {
  it('relays typing both ways to the other people on the session, never to the typist’s own sockets', async () => {
    const ann = await server.headersFor('ann')
    const olga = await server.headersFor('olga', ['operator'])
    const sessionId = await newSession(ann)
    const user = await open(`/ws/${sessionId}`, ann)
    const otherTab = await open(`/ws/${sessionId}`, ann)
    const operator = await open(`/ws/${sessionId}`, olga)

    user.send({ event: 'typing', content: '' })
    expect(await operator.next((message) => message.type === 'typing')).toMatchObject({
      role: 'user',
      typing: true,
      user: { username: 'ann' },
    })
    operator.send({ event: 'typing', content: 'stop' })
    expect(await user.next((message) => message.type === 'typing')).toMatchObject({
      role: 'agent',
      typing: false,
    })
    // An agent message after it proves the user's own typing event never came back.
    await post(`/sessions/${sessionId}/agent-message`, olga, { content: 'hi' })
    await user.next((message) => message.type === 'message')
    expect(user.received.filter((message) => message.type === 'typing')).toHaveLength(1)
    await otherTab.next((message) => message.type === 'message')
    expect(otherTab.received.filter((message) => message.type === 'typing')).toEqual([
      expect.objectContaining({ role: 'agent', typing: false }),
    ])
    expect(await count(server, 'SELECT count(*) n FROM chat_message WHERE session_id = ?', sessionId)).toBe(3)
  })
})

describe('canned responses', () => {
  it('lists an operator’s own and the shared responses, never a colleague’s private ones', async () => {
    const olga = await server.headersFor('olga', ['operator'])
    const pete = await server.headersFor('pete', ['operator'])
    const ann = await server.headersFor('ann')
    const mine = await post('/canned-responses', olga, {
      shortcut: 'hello',
      content: 'Hello, how can I help?',
    })
    expect(mine.statusCode).toBe(201)
    expect(mine.json()).toMatchObject({ shared: false, created_by: { username: 'olga' } })
    await post('/canned-responses', pete, {
      shortcut: 'refund',
      content: 'Refunds take 5 days.',
      shared: true,
    })
    await post('/canned-responses', pete, { shortcut: 'secret', content: 'Pete only' })

    const olgaList = await get('/canned-responses', olga)
    expect(olgaList.items.map((item: { shortcut: string }) => item.shortcut)).toEqual(['hello', 'refund'])
    expect((await post('/canned-responses', olga, { shortcut: 'has space', content: 'x' })).statusCode).toBe(
      422,
    )
    expect((await get('/canned-responses', ann)).error.code).toBe('FORBIDDEN')

    const shared = olgaList.items[1].id
    const denied = await server.app.inject({
      method: 'DELETE',
      url: `/canned-responses/${shared}`,
      headers: olga,
    })
    expect(denied.statusCode).toBe(403)
    const own = await server.app.inject({
      method: 'DELETE',
      url: `/canned-responses/${mine.json().id}`,
      headers: olga,
    })
    expect(own.statusCode).toBe(204)
    expect(await count(server, 'SELECT count(*) n FROM canned_response')).toBe(2)
  })
})
