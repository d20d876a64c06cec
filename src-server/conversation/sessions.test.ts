import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import net from 'node:net'
import path from 'node:path'
import Database from 'better-sqlite3'
import pg from 'pg'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  configureFakeProvider,
  connect,
  count,
  storedMessageCount,
  storedRow,
  stream,
  streamUntil,
  type TestSocket,
  tokenOf,
} from '../../test/helpers/conversation'
import { TEST_ENGINE } from '../../test/helpers/engine'
import { type FakeOpenAi, startFakeOpenAi } from '../../test/helpers/fake-openai'
import { startTestServer, type TestServer } from '../../test/helpers/server'

let server: TestServer
let fake: FakeOpenAi
let base: string
const sockets: TestSocket[] = []
beforeEach(async () => {
  server = await startTestServer()
  fake = await startFakeOpenAi()
  base = await server.listen()
})
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.ws.terminate()
  await server?.close()
  await fake?.close()
})

const isMessage = (role: string, content?: string) => (message: Record<string, unknown>) =>
  message.type === 'message' &&
  (message.message as { role: string }).role === role &&
  (content === undefined || (message.message as { content: string }).content === content)

async function open(path: string, headers: Record<string, string>) {
  const socket = await connect(base, path, tokenOf(headers))
  sockets.push(socket)
  return socket
}

async function newSession(headers: Record<string, string>, message = 'hello'): Promise<string> {
  const result = await stream(base, headers, { message })
  return result.events.at(-1)?.session_id as string
}

/** The session's stored state and epoch: what a takeover or a release changes. */
const storedState = (sessionId: string) =>
  storedRow(server, 'SELECT state, CAST(epoch AS integer) epoch FROM chat_session WHERE id = ?', sessionId)

describe('WebSocket sessions and human takeover', () => {
  it('shows a user socket and an operator socket each other’s messages, and the AI reply to both', async () => {
    const ann = await server.headersFor('ann')
    const olga = await server.headersFor('olga', ['operator'])
    const sessionId = await newSession(ann, 'first question')
    const user = await open(`/ws/${sessionId}`, ann)
    const operator = await open(`/ws/${sessionId}`, olga)
    const history = await user.next((message) => message.type === 'history')
    expect((history.messages as { role: string }[]).map((message) => message.role)).toEqual([
      'user',
      'assistant',
    ])

    user.send({ event: 'user_message', content: 'Can someone help?' })
    for (const socket of [user, operator]) {
      await socket.next(isMessage('user', 'Can someone help?'))
      // AI_ACTIVE: the builtin reply follows as another message.
      await socket.next(isMessage('assistant'))
    }
    operator.send({ event: 'agent_message', content: 'Olga here.' })
    const seen = await user.next(isMessage('agent', 'Olga here.'))
    expect((seen.message as { author: { username: string } }).author.username).toBe('olga')
    // An empty event with content is a user message too.
    user.send({ event: '', content: 'Thanks Olga' })
    await operator.next(isMessage('user', 'Thanks Olga'))
    expect(await storedMessageCount(server, sessionId, 'agent')).toBe(1)
  })

  it('takeover over WebSocket stops AI replies on WebSocket and SSE; release over REST resumes them', async () => {
    const ann = await server.headersFor('ann')
    const olga = await server.headersFor('olga', ['operator'])
    const sessionId = await newSession(ann)
    const user = await open(`/ws/${sessionId}`, ann)
    const operator = await open(`/ws/${sessionId}`, olga)

    operator.send({ event: 'agent_takeover', content: '' })
    for (const socket of [user, operator]) {
      const system = await socket.next((message) => message.type === 'system')
      expect(system).toMatchObject({ status: 'HUMAN_ACTIVE', message: { role: 'system' } })
    }
    const row = (await storedRow(
      server,
      'SELECT state, CAST(epoch AS integer) epoch, assigned_operator_id FROM chat_session WHERE id = ?',
      sessionId,
    )) as {
      state: string
      epoch: number
    }
    expect(row).toMatchObject({ state: 'HUMAN_ACTIVE', epoch: 1 })

    user.send({ event: 'user_message', content: 'Are you human?' })
    await operator.next(isMessage('user', 'Are you human?'))
    const sse = await stream(base, ann, { thread_id: sessionId, message: 'Hello?' })
    expect(sse.events.map((event) => event.type)).toEqual(['done'])
    expect(sse.events[0]).toMatchObject({ state: 'HUMAN_ACTIVE', session_id: sessionId })
    await operator.next(isMessage('user', 'Hello?'))
    // No AI reply was produced for either message.
    expect(await storedMessageCount(server, sessionId, 'assistant')).toBe(1)

    const released = await server.app.inject({
      method: 'POST',
      url: `/sessions/${sessionId}/release`,
      headers: olga,
      payload: { note: 'Back to the bot' },
    })
    expect(released.statusCode).toBe(200)
    expect(released.json()).toMatchObject({ state: 'AI_ACTIVE', epoch: 2, assigned_operator: null })
    const system = await user.next((message) => message.type === 'system' && message.status === 'AI_ACTIVE')
    expect((system.message as { content: string }).content).toContain('Back to the bot')

    user.send({ event: 'user_message', content: 'And now?' })
    await user.next(isMessage('user', 'And now?'))
    await user.next(isMessage('assistant'))
    expect(await storedMessageCount(server, sessionId, 'assistant')).toBe(2)
    expect(await storedMessageCount(server, sessionId, 'system')).toBe(2)
  })

  it('rejects takeover by a user on the socket (which stays open) and over REST', async () => {
    const ann = await server.headersFor('ann')
    const sessionId = await newSession(ann)
    const user = await open(`/ws/${sessionId}`, ann)
    user.send({ event: 'agent_takeover', content: '' })
    expect(await user.next((message) => message.type === 'error')).toMatchObject({ code: 'FORBIDDEN' })
    user.send('not json')
    expect(await user.next((message) => message.type === 'error')).toMatchObject({ code: 'INVALID_JSON' })
    user.send({ event: 'dance', content: 'x' })
    expect(await user.next((message) => message.type === 'error')).toMatchObject({ code: 'UNKNOWN_EVENT' })
    user.send({ event: 'user_message', content: 'still here' })
    await user.next(isMessage('user', 'still here'))

    const rest = await server.app.inject({
      method: 'POST',
      url: `/sessions/${sessionId}/takeover`,
      headers: ann,
      payload: {},
    })
    expect(rest.statusCode).toBe(403)
    expect(await storedState(sessionId)).toEqual({ state: 'AI_ACTIVE', epoch: 0 })
  })

  it('fences a reply in progress at takeover: no more tokens, kept as a draft only operators see', async () => {
    await configureFakeProvider(server, fake.baseUrl)
    const ann = await server.headersFor('ann')
    const olga = await server.headersFor('olga', ['operator'])
    const sessionId = await newSession(ann)
    const operator = await open(`/ws/${sessionId}`, olga)
    fake.respond = () => ({ tokens: Array.from({ length: 100 }, (_, i) => `t${i} `), delayMs: 20 })

    let tokensAtTakeover = -1
    let tokens = 0
    const events = await streamUntil(
      base,
      ann,
      { thread_id: sessionId, message: 'long answer please', model_provider: 'fake' },
      (event) => {
        if (event.type === 'token' && ++tokens === 3) {
          tokensAtTakeover = tokens
          void server.app.inject({
            method: 'POST',
            url: `/sessions/${sessionId}/takeover`,
            headers: olga,
            payload: { note: 'mine' },
          })
        }
        return false
      },
    )
    expect(events.at(-1)).toMatchObject({ type: 'done', state: 'HUMAN_ACTIVE', message_id: null })
    expect(events.filter((event) => event.type === 'token').length).toBeLessThan(10)
    expect(tokensAtTakeover).toBe(3)
    await operator.next((message) => message.type === 'system' && message.status === 'HUMAN_ACTIVE')

    const draft = (await storedRow(
      server,
      "SELECT content, status FROM chat_message WHERE session_id = ? AND status = 'draft'",
      sessionId,
    )) as {
      content: string
    }
    expect(draft.content.startsWith('t0 t1 t2 ')).toBe(true)
    const asUser = (
      await server.app.inject({ method: 'GET', url: `/sessions/${sessionId}/messages`, headers: ann })
    ).json()
    expect(asUser.items.map((message: { status: string }) => message.status)).not.toContain('draft')
    const asOperator = (
      await server.app.inject({ method: 'GET', url: `/sessions/${sessionId}/messages`, headers: olga })
    ).json()
    expect(asOperator.items.map((message: { status: string }) => message.status)).toContain('draft')
    // The draft never reached any socket.
    expect(
      operator.received.some(
        (message) => (message.message as { status?: string } | undefined)?.status === 'draft',
      ),
    ).toBe(false)
  })

  it('sends at most the 200 most recent messages as history, oldest first', async () => {
    const ann = await server.headersFor('ann')
    const olga = await server.headersFor('olga', ['operator'])
    const sessionId = await newSession(ann, 'm-first')
    for (let i = 0; i < 205; i++)
      await server.app.inject({
        method: 'POST',
        url: `/sessions/${sessionId}/agent-message`,
        headers: olga,
        payload: { content: `op ${i}` },
      })
    const user = await open(`/ws/${sessionId}`, ann)
    const history = (await user.next((message) => message.type === 'history')).messages as {
      content: string
    }[]
    expect(history).toHaveLength(200)
    expect(history.at(-1)?.content).toBe('op 204')
    expect(history[0]?.content).toBe('op 5')
  })

  it('pushes session_updated to the operator feed and refuses the feed to users', async () => {
    const ann = await server.headersFor('ann')
    const olga = await server.headersFor('olga', ['operator'])
    const feed = await open('/ws-operator', olga)
    await feed.next((message) => message.type === 'ready')
    const sessionId = await newSession(ann, 'feed me')
    const update = await feed.next((message) => message.type === 'session_updated')
    expect(update.session).toMatchObject({ id: sessionId, state: 'AI_ACTIVE', owner: { username: 'ann' } })
    await expect(connect(base, '/ws-operator', tokenOf(ann))).rejects.toThrow(/403/)
  })

  it("refuses a socket on someone else's session with 404 at the upgrade, even one asking to create it", async () => {
    const ann = await server.headersFor('ann')
    const bob = await server.headersFor('bob')
    const sessionId = await newSession(ann)
    await expect(open(`/ws/${sessionId}`, bob)).rejects.toThrow(/404/)
    await expect(open(`/ws/${sessionId}?create=true`, bob)).rejects.toThrow(/404/)
  })

  it('refuses a socket on a session that does not exist, so nobody waits on a session another user creates', async () => {
    const ann = await server.headersFor('ann')
    const bob = await server.headersFor('bob')
    const sessionId = crypto.randomUUID()
    await expect(open(`/ws/${sessionId}`, bob)).rejects.toThrow(/404/)
    expect(await count(server, 'SELECT count(*) n FROM chat_session WHERE id = ?', sessionId)).toBe(0)
    // Ann then creates that id; her message reaches her own socket, and Bob never had one.
    await stream(base, ann, { thread_id: sessionId, message: 'private words' })
    const own = await open(`/ws/${sessionId}`, ann)
    const history = await own.next((message) => message.type === 'history')
    expect((history.messages as { content: string }[])[0]?.content).toBe('private words')
    expect(
      await count(
        server,
        'SELECT count(*) n FROM chat_session s JOIN "user" u ON u.id = s.owner_id WHERE s.id = ? AND u.username = ?',
        sessionId,
        'ann',
      ),
    ).toBe(1)
  })

  it('creates a session as the caller’s own when the socket asks to, before it opens', async () => {
    const ann = await server.headersFor('ann')
    const bob = await server.headersFor('bob')
    const sessionId = crypto.randomUUID()
    const socket = await open(`/ws/${sessionId}?create=true`, ann)
    expect(await socket.next((message) => message.type === 'history')).toEqual({
      type: 'history',
      messages: [],
    })
    expect(
      await count(
        server,
        'SELECT count(*) n FROM chat_session s JOIN "user" u ON u.id = s.owner_id WHERE s.id = ? AND u.username = ?',
        sessionId,
        'ann',
      ),
    ).toBe(1)
    socket.send({ event: 'user_message', content: 'first words over the socket' })
    await socket.next(isMessage('user', 'first words over the socket'))
    // The id is Ann's now: Bob can neither join nor claim it.
    await expect(open(`/ws/${sessionId}?create=true`, bob)).rejects.toThrow(/404/)
    const stolen = await stream(base, bob, { thread_id: sessionId, message: 'mine now' })
    expect(stolen.events[0]).toMatchObject({ type: 'error', code: 'SESSION_NOT_FOUND' })
  })
})

describe('shutdown', () => {
  it('ends streams in flight with error then done, saving the partial reply, and closes sockets', async () => {
    await configureFakeProvider(server, fake.baseUrl)
    const ann = await server.headersFor('ann')
    const sessionId = await newSession(ann)
    const user = await open(`/ws/${sessionId}`, ann)
    fake.respond = () => ({ tokens: Array.from({ length: 200 }, (_, i) => `s${i} `), delayMs: 20 })
    let closing: Promise<void> | null = null
    const events = await streamUntil(
      base,
      ann,
      { thread_id: sessionId, message: 'go on', model_provider: 'fake' },
      (event) => {
        if (event.type === 'token' && !closing) closing = server.app.close()
        return false
      },
    )
    await closing
    expect(events.slice(-2)).toMatchObject([{ type: 'error', code: 'SERVER_CLOSING' }, { type: 'done' }])
    const partial = events
      .filter((event) => event.type === 'token')
      .map((event) => event.content)
      .join('')
    expect(partial.length).toBeGreaterThan(0)
    const unfinished =
      "SELECT content, status FROM chat_message WHERE role = 'assistant' AND status != 'complete'"
    // Closing the server closes its database: read the saved state on a connection of the test's own.
    let saved: unknown
    if (TEST_ENGINE === 'postgres') {
      const client = new pg.Client({ connectionString: server.app.ctx.config.databaseUrl ?? '' })
      await client.connect()
      saved = (await client.query(unfinished)).rows[0]
      await client.end()
    } else {
      const reopened = new Database(path.join(server.dataDir, 'switchboard.db'), { readonly: true })
      saved = reopened.prepare(unfinished).get()
      reopened.close()
    }
    expect(saved).toEqual({ content: partial, status: 'interrupted' })
    await user.closed
  })

  it('answers a WebSocket upgrade that arrives while the server closes and closes its socket, so the close ends', async () => {
    // An operator's console reopens its socket a second after the server closed it; a server still closing then
    // answered the upgrade 503 outside its hooks and left the socket open, and its close waited on it.
    const operator = tokenOf(await server.adminHeaders())
    const { hostname, port, host } = new URL(base)
    const socket = net.connect(Number(port), hostname)
    await once(socket, 'connect')
    let answer = ''
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()))
    const ended = once(socket, 'close')
    // The request's last line goes out once the server is closing.
    socket.write(
      `GET /ws-operator?access_token=${operator} HTTP/1.1\r\nHost: ${host}\r\nConnection: Upgrade\r\n` +
        `Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\n`,
    )
    const closing = server.app.close()
    socket.write('\r\n')
    await ended
    await closing
    expect(answer).toMatch(/^HTTP\/1\.1 503 /)
  })
})

describe('session REST endpoints', () => {
  it('lists sessions waiting for a human first, then newest first, own only for users and all for operators', async () => {
    const ann = await server.headersFor('ann')
    const bob = await server.headersFor('bob')
    const olga = await server.headersFor('olga', ['operator'])
    const first = await newSession(ann, 'one')
    const second = await newSession(ann, 'two')
    await newSession(bob, 'bobs')
    await server.app.inject({
      method: 'POST',
      url: `/sessions/${first}/takeover`,
      headers: olga,
      payload: {},
    })

    const annList = (await server.app.inject({ method: 'GET', url: '/sessions', headers: ann })).json()
    expect(annList).toMatchObject({ total: 2, limit: 50, offset: 0 })
    // `second` still waits for a human (the builtin model could not answer it); the takeover ended `first`'s wait.
    expect(annList.items.map((session: { id: string }) => session.id)).toEqual([second, first])
    const operatorList = (
      await server.app.inject({ method: 'GET', url: '/sessions?status=HUMAN_ACTIVE', headers: olga })
    ).json()
    expect(operatorList.items).toHaveLength(1)
    expect(operatorList.items[0]).toMatchObject({
      id: first,
      assigned_operator: { username: 'olga' },
      last_message: expect.stringContaining('took over'),
    })
    const all = (
      await server.app.inject({ method: 'GET', url: '/sessions?limit=1&offset=1', headers: olga })
    ).json()
    expect(all).toMatchObject({ total: 3, limit: 1, offset: 1 })
    const future = (
      await server.app.inject({
        method: 'GET',
        url: `/sessions?updated_after=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`,
        headers: olga,
      })
    ).json()
    expect(future.total).toBe(0)
    expect(
      (await server.app.inject({ method: 'GET', url: '/sessions?limit=201', headers: ann })).statusCode,
    ).toBe(422)
    expect(
      (await server.app.inject({ method: 'GET', url: `/sessions/${first}/messages`, headers: bob }))
        .statusCode,
    ).toBe(404)
  })

  it('filters messages by role and exports JSON and Markdown', async () => {
    const ann = await server.headersFor('ann')
    const olga = await server.headersFor('olga', ['operator'])
    const sessionId = await newSession(ann, 'Where is my parcel?')
    await server.app.inject({
      method: 'POST',
      url: `/sessions/${sessionId}/agent-message`,
      headers: olga,
      payload: { content: 'On its way.' },
    })
    const users = (
      await server.app.inject({
        method: 'GET',
        url: `/sessions/${sessionId}/messages?role=user`,
        headers: ann,
      })
    ).json()
    expect(users).toMatchObject({
      total: 1,
      items: [{ role: 'user', content: 'Where is my parcel?', message_type: 'user_chat' }],
    })
    const page = (
      await server.app.inject({
        method: 'GET',
        url: `/sessions/${sessionId}/messages?limit=1&offset=1`,
        headers: ann,
      })
    ).json()
    expect(page).toMatchObject({ total: 3, limit: 1, offset: 1, items: [{ role: 'assistant' }] })
    // Another page size under the same filter is a statement of its own.
    const firstTwo = (
      await server.app.inject({ method: 'GET', url: `/sessions/${sessionId}/messages?limit=2`, headers: ann })
    ).json()
    expect(firstTwo.items.map((message: { role: string }) => message.role)).toEqual(['user', 'assistant'])

    const json = (
      await server.app.inject({ method: 'GET', url: `/sessions/${sessionId}/export`, headers: ann })
    ).json()
    expect(json.session.id).toBe(sessionId)
    expect(json.messages.map((message: { role: string }) => message.role)).toEqual([
      'user',
      'assistant',
      'agent',
    ])
    const markdown = await server.app.inject({
      method: 'GET',
      url: `/sessions/${sessionId}/export?format=markdown`,
      headers: ann,
    })
    expect(markdown.headers['content-type']).toContain('text/markdown')
    expect(markdown.body).toContain(`# Session ${sessionId}`)
    expect(markdown.body).toContain('## agent (olga)')
    expect(markdown.body).toContain('On its way.')
  })

  it('answers a repeated takeover or release over WebSocket with one system message carrying the current state', async () => {
    const ann = await server.headersFor('ann')
    const olga = await server.headersFor('olga', ['operator'])
    const sessionId = await newSession(ann)
    const operator = await open(`/ws/${sessionId}`, olga)

    operator.send({ event: 'agent_release', content: '' })
    expect(await operator.next((m) => m.type === 'system')).toMatchObject({
      status: 'AI_ACTIVE',
      message: null,
    })
    operator.send({ event: 'agent_takeover', content: '' })
    await operator.next((m) => m.type === 'system' && m.status === 'HUMAN_ACTIVE' && m.message !== null)
    operator.send({ event: 'agent_takeover', content: '' })
    expect(await operator.next((m) => m.type === 'system')).toMatchObject({
      status: 'HUMAN_ACTIVE',
      message: null,
    })
    expect(operator.received.filter((m) => m.type === 'error')).toEqual([])
    // Only the real change was written: one state change, one system message.
    expect(await storedState(sessionId)).toEqual({ state: 'HUMAN_ACTIVE', epoch: 1 })
    expect(await storedMessageCount(server, sessionId, 'system')).toBe(1)
  })

  it('refuses a takeover of a session already held, and agent messages from users', async () => {
    const ann = await server.headersFor('ann')
    const olga = await server.headersFor('olga', ['operator'])
    const sessionId = await newSession(ann)
    // A bare POST (no body) is a takeover without a note.
    const first = await server.app.inject({
      method: 'POST',
      url: `/sessions/${sessionId}/takeover`,
      headers: olga,
    })
    expect(first.statusCode).toBe(200)
    const again = await server.app.inject({
      method: 'POST',
      url: `/sessions/${sessionId}/takeover`,
      headers: olga,
      payload: {},
    })
    expect(again.statusCode).toBe(409)
    expect(again.json().error.code).toBe('INVALID_SESSION_STATE')
    const asUser = await server.app.inject({
      method: 'POST',
      url: `/sessions/${sessionId}/agent-message`,
      headers: ann,
      payload: { content: 'fake operator' },
    })
    expect(asUser.statusCode).toBe(403)
    expect(await storedState(sessionId)).toMatchObject({ epoch: 1 })
    expect(await count(server, "SELECT count(*) n FROM chat_message WHERE role = 'agent'")).toBe(0)

    // Release may hand the session to another agent.
    const agent = (
      await server.app.inject({
        method: 'POST',
        url: '/agents',
        headers: olga,
        payload: { name: 'Second line' },
      })
    ).json()
    const released = await server.app.inject({
      method: 'POST',
      url: `/sessions/${sessionId}/release`,
      headers: olga,
      payload: { agent_id: agent.id },
    })
    expect(released.json()).toMatchObject({ state: 'AI_ACTIVE', agent_id: agent.id })
    expect(
      await storedRow(
        server,
        'SELECT agent_id, CAST(epoch AS integer) epoch FROM chat_session WHERE id = ?',
        sessionId,
      ),
    ).toEqual({
      agent_id: agent.id,
      epoch: 2,
    })
  })
})
