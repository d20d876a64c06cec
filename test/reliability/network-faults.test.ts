import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { configureFakeProvider, parseSse } from '../helpers/conversation'
import { type FakeOpenAi, startFakeOpenAi } from '../helpers/fake-openai'
import { startTestServer, type TestServer } from '../helpers/server'

let server: TestServer
let fake: FakeOpenAi
let url: string
let headers: Record<string, string>
beforeAll(async () => {
  server = await startTestServer()
  fake = await startFakeOpenAi()
  await configureFakeProvider(server, fake.baseUrl)
  url = await server.listen()
  headers = await server.adminHeaders()
})
afterAll(async () => {
  await server.close()
  await fake.close()
})

/** Reads an SSE response into its events. */
async function events(response: Response) {
  return parseSse(await response.text())
}

describe('faults at the network edge', () => {
  it('ends a reply whose model server drops the connection mid-stream with error then done, keeping the partial reply', async () => {
    fake.respond = () => ({ tokens: ['The', ' harbour', ' opens', ' at', ' nine.'], dropAfterTokens: 2 })
    const threadId = crypto.randomUUID()
    const response = await fetch(`${url}/stream`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        thread_id: threadId,
        message: 'When does the harbour open?',
        model_provider: 'fake',
        model_name: 'model-a',
      }),
    })
    expect(response.status).toBe(200)
    const received = await events(response)
    expect(received.map((event) => event.type).slice(-2)).toEqual(['error', 'done'])
    expect(
      received
        .filter((e) => e.type === 'token')
        .map((e) => e.content)
        .join(''),
    ).toBe('The harbour')
    const saved = server
      .sqlite()
      .$client.prepare("SELECT content, status FROM chat_message WHERE session_id = ? AND role = 'assistant'")
      .all(threadId)
    expect(saved).toEqual([{ content: 'The harbour', status: 'interrupted' }])
    // The next request to the same provider works: nothing was left broken.
    fake.respond = () => ({ tokens: ['Nine', ' o’clock.'] })
    const again = await events(
      await fetch(`${url}/stream`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({
          thread_id: threadId,
          message: 'Sure?',
          model_provider: 'fake',
          model_name: 'model-a',
        }),
      }),
    )
    expect(
      again
        .filter((e) => e.type === 'token')
        .map((e) => e.content)
        .join(''),
    ).toBe('Nine o’clock.')
  })

  it('refuses a WebSocket from a foreign origin and accepts one from its own', async () => {
    const token = encodeURIComponent(headers.authorization?.slice(7) ?? '')
    const open = (origin: string) =>
      new Promise<number>((resolve) => {
        const socket = new WebSocket(`${url.replace('http', 'ws')}/ws-operator?access_token=${token}`, {
          headers: { origin },
        })
        socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0))
        socket.on('open', () => {
          socket.close()
          resolve(101)
        })
        socket.on('error', () => resolve(-1))
      })
    expect(await open('http://evil.example')).toBe(403)
    expect(await open(url)).toBe(101)
  })

  it('rejects an upload over the size limit with 413 and stores nothing', async () => {
    const source = (await (
      await fetch(`${url}/knowledge-sources`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Too big' }),
      })
    ).json()) as { id: string }
    const form = new FormData()
    form.append('file', new Blob([Buffer.alloc(51 * 1024 * 1024, 0x61)]), 'huge.txt')
    const response = await fetch(`${url}/knowledge-sources/${source.id}/documents`, {
      method: 'POST',
      headers,
      body: form,
    })
    expect(response.status).toBe(413)
    expect(((await response.json()) as { error: { code: string } }).error.code).toMatch(/TOO_LARGE/)
    expect(server.sqlite().$client.prepare('SELECT count(*) AS n FROM knowledge_document').get()).toEqual({
      n: 0,
    })
  })
})
