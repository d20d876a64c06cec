import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { configureFakeProvider, connect, stream, tokenOf } from '../../../test/helpers/conversation'
import { type FakeOpenAi, startFakeOpenAi } from '../../../test/helpers/fake-openai'
import { startTestServer, type TestServer } from '../../../test/helpers/server'

let server: TestServer
let fake: FakeOpenAi
let base: string
beforeEach(async () => {
  server = await startTestServer()
  fake = await startFakeOpenAi()
  base = await server.listen()
  await configureFakeProvider(server, fake.baseUrl)
})
afterEach(async () => {
  await server?.close()
  await fake?.close()
})

const publicFrame = { type: 'error', code: 'MODEL_PROVIDER_FAILED', content: 'The model provider failed.' }

describe('a server fault in a stream', () => {
  it('reaches SSE and WebSocket clients as the same masked frame, and the log keeps its cause', async () => {
    fake.respond = () => ({ failStatus: 500 })
    const ann = await server.headersFor('ann')

    const sse = await stream(base, ann, { message: 'Hello?', model_provider: 'fake', model_name: 'model-a' })
    expect(sse.events.find((event) => event.type === 'error')).toEqual(publicFrame)
    const sessionId = sse.events.at(-1)?.session_id as string

    const socket = await connect(base, `/ws/${sessionId}`, tokenOf(ann))
    socket.send({ event: 'user_message', content: 'Still there?' })
    expect(await socket.next((message) => message.type === 'error')).toEqual(publicFrame)
    socket.ws.close()

    // Neither client read the provider's own words or address; the log has them, once per failed reply.
    const clientText = JSON.stringify([sse.events, socket.received])
    expect(clientText).not.toContain('fake failure')
    expect(clientText).not.toContain(fake.baseUrl)
    const faults = server
      .logs()
      .split('\n')
      .filter((line) => line.includes('fake failure 500'))
    expect(faults.length).toBeGreaterThanOrEqual(2)
  })
})
