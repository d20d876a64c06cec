import { createParser } from 'eventsource-parser'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  configureFakeProvider,
  count,
  listeningServerEachTest,
  type SseEvent,
  storedMessageCount,
  stream,
  streamUntil,
  tokenOf,
} from '../../test/helpers/conversation'
import { shippedAgentId, upload } from '../../test/helpers/document-recognition/api'
import { invoicePdf } from '../../test/helpers/document-recognition/invoice-documents'
import { type FakeOpenAi, startFakeOpenAi } from '../../test/helpers/fake-openai'
import type { TestServer } from '../../test/helpers/server'

/**
 * Revocation reaches open connections: an operator's or reviewer's WebSockets and event streams end the moment an
 * admin disables them, changes their roles, or their token goes, and nothing they send afterwards is stored.
 */
let server: TestServer
let base: string
const openSocket = listeningServerEachTest((started, url) => ([server, base] = [started, url]))

async function open(path: string, headers: Record<string, string>) {
  return openSocket(path, tokenOf(headers))
}

async function userIdOf(headers: Record<string, string>): Promise<string> {
  const me = await server.app.inject({ method: 'GET', url: '/api/auth/me', headers })
  return me.json().id
}

/** An admin's change to a user, over real HTTP like the console's. */
async function changeUser(headers: Record<string, string>, change: Record<string, unknown>) {
  const response = await fetch(`${base}/api/admin/users/${await userIdOf(headers)}`, {
    method: 'PATCH',
    headers: { ...(await server.adminHeaders()), 'content-type': 'application/json' },
    body: JSON.stringify(change),
  })
  expect(response.status).toBe(200)
}

/** Ann's live session with an operator's session socket and operator feed open on it. */
async function operatorWatching() {
  const ann = await server.headersFor('ann')
  const olga = await server.headersFor('olga', ['operator'])
  const sessionId = (await stream(base, ann, { message: 'hello' })).events.at(-1)?.session_id as string
  const session = await open(`/ws/${sessionId}`, olga)
  await session.next((message) => message.type === 'history')
  const feed = await open('/ws-operator', olga)
  await feed.next((message) => message.type === 'ready')
  return { ann, olga, sessionId, session, feed }
}

describe('revoked operators lose their sockets', () => {
  it('closes both sockets of a disabled operator with 4401, and stores nothing sent afterwards', async () => {
    const { olga, sessionId, session, feed } = await operatorWatching()
    await changeUser(olga, { disabled: true })
    // Sent after the admin's change was answered: the server must not act on it.
    session.send({ event: 'agent_message', content: 'still here?' })
    session.send({ event: 'agent_takeover', content: '' })
    expect(await session.closed).toEqual({ code: 4401, reason: 'Your account was disabled.' })
    expect(await feed.closed).toEqual({ code: 4401, reason: 'Your account was disabled.' })
    expect(await session.next((message) => message.type === 'error')).toMatchObject({
      code: 'UNAUTHORIZED',
    })
    expect(await storedMessageCount(server, sessionId, 'agent')).toBe(0)
    expect(await storedMessageCount(server, sessionId, 'system')).toBe(0)
    expect(
      await count(
        server,
        "SELECT count(*) n FROM chat_session WHERE id = ? AND state = 'AI_ACTIVE'",
        sessionId,
      ),
    ).toBe(1)
  })

  it('closes a demoted operator’s sockets with 4403 and refuses their takeover and messages', async () => {
    const { ann, olga, sessionId, session, feed } = await operatorWatching()
    // Olga's socket on her own session stays: she may still use what she owns.
    const ownId = (await stream(base, olga, { message: 'mine' })).events.at(-1)?.session_id as string
    const own = await open(`/ws/${ownId}`, olga)
    await own.next((message) => message.type === 'history')
    const annSocket = await open(`/ws/${sessionId}`, ann)
    await annSocket.next((message) => message.type === 'history')

    await changeUser(olga, { roles: ['user'] })
    session.send({ event: 'agent_takeover', content: 'taking over' })
    session.send({ event: 'agent_message', content: 'I am the operator' })
    expect((await session.closed).code).toBe(4403)
    expect((await feed.closed).code).toBe(4403)
    expect(await storedMessageCount(server, sessionId, 'agent')).toBe(0)
    expect(await storedMessageCount(server, sessionId, 'system')).toBe(0)

    // The owner's socket on the same session is untouched, and so is Olga's on her own session.
    annSocket.send({ event: 'user_message', content: 'anyone?' })
    await annSocket.next((message) => message.type === 'message')
    own.send({ event: 'user_message', content: 'my own question' })
    await own.next((message) => message.type === 'message')
    expect(own.ws.readyState).toBe(own.ws.OPEN)
  })

  it('closes the sockets of a deleted API token and of a signed-out session, and only those', async () => {
    const { olga, sessionId, session: signedIn } = await operatorWatching()
    const created = await server.app.inject({
      method: 'POST',
      url: '/api/auth/tokens',
      headers: olga,
      payload: { name: 'lan client' },
    })
    const apiToken = created.json() as { id: string; token: string }
    const viaToken = await openSocket(`/ws/${sessionId}`, apiToken.token)
    await viaToken.next((message) => message.type === 'history')

    const deleted = await fetch(`${base}/api/auth/tokens/${apiToken.id}`, { method: 'DELETE', headers: olga })
    expect(deleted.status).toBe(204)
    viaToken.send({ event: 'agent_message', content: 'from a deleted token' })
    expect(await viaToken.closed).toEqual({ code: 4401, reason: 'The token was deleted.' })
    // The session token's socket is another token's: it stays open and works.
    signedIn.send({ event: 'agent_message', content: 'still signed in' })
    await signedIn.next((message) => message.type === 'message')

    const loggedOut = await fetch(`${base}/api/auth/logout`, { method: 'POST', headers: olga })
    expect(loggedOut.status).toBe(204)
    signedIn.send({ event: 'agent_message', content: 'after sign-out' })
    expect(await signedIn.closed).toEqual({ code: 4401, reason: 'You signed out.' })
    expect(await storedMessageCount(server, sessionId, 'agent')).toBe(1)
  })
})

describe('revoked callers lose their event streams', () => {
  let fake: FakeOpenAi
  beforeEach(async () => {
    fake = await startFakeOpenAi()
  })
  afterEach(() => fake.close())

  it('ends a disabled user’s chat stream with an error then done, and keeps the partial reply as interrupted', async () => {
    await configureFakeProvider(server, fake.baseUrl)
    const ann = await server.headersFor('ann')
    fake.respond = () => ({ tokens: Array.from({ length: 400 }, (_, i) => `t${i} `), delayMs: 20 })
    let disabling: Promise<void> | null = null
    const events = await streamUntil(base, ann, { message: 'go on', model_provider: 'fake' }, (event) => {
      if (event.type === 'token' && !disabling) disabling = changeUser(ann, { disabled: true })
      return false
    })
    await disabling
    expect(events.slice(-2)).toEqual([
      { type: 'error', code: 'UNAUTHORIZED', content: 'Your account was disabled.' },
      { type: 'done' },
    ])
    expect(events.filter((event) => event.type === 'token').length).toBeLessThan(400)
    // The stream ends at once; the partial reply is stored as the aborted model call unwinds.
    await expect
      .poll(
        () =>
          count(
            server,
            "SELECT count(*) n FROM chat_message WHERE role = 'assistant' AND status = 'interrupted'",
          ),
        { timeout: 10_000 },
      )
      .toBe(1)
  })

  it('ends a demoted reviewer’s run feed, which then sends nothing more', async () => {
    const rita = await server.headersFor('rita', ['reviewer'])
    const invoiceAgent = await shippedAgentId(server, 'Invoice extractor')
    const admin = await server.adminHeaders()
    const response = await fetch(`${base}/document-recognition/runs/events`, { headers: rita })
    expect(response.status).toBe(200)
    const seen: SseEvent[] = []
    let runsAfterRevocation = 0
    const parser = createParser({
      onEvent: (message) => {
        const event = JSON.parse(message.data) as SseEvent
        if (seen.some((earlier) => earlier.type === 'error') && event.type === 'run') runsAfterRevocation++
        seen.push(event)
      },
    })
    const ended = (async () => {
      const reader = (response.body as ReadableStream<Uint8Array>)
        .pipeThrough(new TextDecoderStream())
        .getReader()
      for (;;) {
        const { value, done } = await reader.read()
        if (done) return
        parser.feed(value)
      }
    })()
    const pdf = await invoicePdf()
    const file = { name: 'invoice.pdf', type: 'application/pdf', bytes: pdf }
    expect((await upload(server, admin, invoiceAgent, file)).statusCode).toBe(202)
    // The feed is live: the queued run reaches it.
    for (let i = 0; i < 100 && !seen.some((event) => event.type === 'run'); i++)
      await new Promise((resolve) => setTimeout(resolve, 20))
    expect(seen.some((event) => event.type === 'run')).toBe(true)

    await changeUser(rita, { roles: ['user'] })
    await ended
    expect(seen.at(-1)).toEqual({
      type: 'error',
      code: 'FORBIDDEN',
      content: 'Your access to this was withdrawn.',
    })
    // Another run moves after the revocation; the ended feed carried none of it.
    expect((await upload(server, admin, invoiceAgent, file)).statusCode).toBe(202)
    expect(runsAfterRevocation).toBe(0)
  })
})
