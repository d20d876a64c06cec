import { once } from 'node:events'
import net from 'node:net'
import { describe, expect, it } from 'vitest'
import { startTestServer } from '../../../test/helpers/server'

/**
 * A server closing with a request still running (a client's upload, a slow answer) answers it and then lets its
 * connection go: a kept-alive socket would otherwise hold the close open for the whole keep-alive timeout (72 s),
 * and with it an instance's restart behind a load balancer.
 */
describe('a request in flight when the server closes', () => {
  it('is answered, its connection is closed after the answer, and the close completes', async () => {
    const server = await startTestServer({ runJobs: false })
    const base = new URL(await server.listen())
    const socket = net.connect(Number(base.port), base.hostname)
    await once(socket, 'connect')
    const received: Buffer[] = []
    socket.on('data', (chunk: Buffer) => received.push(chunk))
    const ended = once(socket, 'close')

    // Headers and half of the body: the server has the request and waits for the rest.
    const body = JSON.stringify({ username: 'nobody-here', password: 'not-the-password' })
    const started = once(server.app.server, 'request')
    socket.write(
      `POST /api/auth/login HTTP/1.1\r\nHost: ${base.host}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
    )
    await started
    const closing = server.close()
    socket.write(body.slice(10))

    await ended
    await closing
    const answer = Buffer.concat(received).toString('latin1')
    expect(answer).toMatch(/^HTTP\/1\.1 401 /)
    expect(answer).toMatch(/\r\nconnection: close\r\n/i)
    expect(answer).toContain('"code":"INVALID_CREDENTIALS"')
  })
})
