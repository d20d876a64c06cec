import { mkdtempSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PassThrough } from 'node:stream'
import { afterEach, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src-server/server'
import { startTestServer, type TestServer } from '../helpers/server'

let server: TestServer | null = null
let running: RunningServer | null = null
let dataDir: string | null = null
afterEach(async () => {
  await server?.close()
  await running?.close()
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  server = running = dataDir = null
})

describe('network exposure', () => {
  it('binds to loopback unless told otherwise', async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-bind-'))
    running = await startServer({
      dataDir,
      port: 0,
      adminPassword: 'bind-test-password',
      logStream: new PassThrough(),
    })
    const address = running.app.server.address()
    expect(typeof address === 'object' && address?.address).toBe('127.0.0.1')
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
  })

  it('cuts off a client that sends its body too slowly (slowloris)', async () => {
    server = await startTestServer({ requestTimeoutMs: 1_000 })
    const url = new URL(await server.listen())
    const started = Date.now()
    const outcome = await new Promise<{ response: string; closedAfterMs: number }>((resolve) => {
      const socket = connect(Number(url.port), url.hostname)
      let response = ''
      socket.on('data', (chunk) => (response += chunk.toString()))
      socket.on('close', () => resolve({ response, closedAfterMs: Date.now() - started }))
      socket.write(
        'POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
      )
      // One byte every 300 ms: a body that would take five minutes to arrive.
      const drip = setInterval(() => socket.writable && socket.write(' '), 300)
      socket.on('close', () => clearInterval(drip))
      setTimeout(() => socket.destroy(), 15_000)
    })
    expect(outcome.closedAfterMs).toBeLessThan(10_000)
    expect(outcome.response).toMatch(/^HTTP\/1\.1 408/)
    expectEnvelopeWithSecurityHeaders(outcome.response, 'REQUEST_TIMEOUT')
  })

  it('answers every refusal before routing in the envelope with the security headers: 431, 400 unparsable or bad URL, 413', async () => {
    server = await startTestServer()
    const url = new URL(await server.listen())
    const oversized = await rawExchange(
      Number(url.port),
      `GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Filler: ${'a'.repeat(20_000)}\r\n\r\n`,
    )
    expect(oversized).toMatch(/^HTTP\/1\.1 431/)
    expectEnvelopeWithSecurityHeaders(oversized, 'HEADERS_TOO_LARGE')
    const garbled = await rawExchange(Number(url.port), 'GET /healthz HTTP/1.1\r\nHost localhost\r\n\r\n')
    expect(garbled).toMatch(/^HTTP\/1\.1 400/)
    expectEnvelopeWithSecurityHeaders(garbled, 'BAD_REQUEST')
    // Refused by Fastify before routing (a URL that does not decode), and a body over the limit.
    const badUrl = await rawExchange(
      Number(url.port),
      'GET /api/%E0%A4%A HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
    )
    expect(badUrl).toMatch(/^HTTP\/1\.1 400/)
    expectEnvelopeWithSecurityHeaders(badUrl, 'BAD_REQUEST')
    const body = JSON.stringify({ username: 'x'.repeat(2 * 1024 * 1024), password: 'y' })
    const tooLarge = await rawExchange(
      Number(url.port),
      `POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    )
    expect(tooLarge).toMatch(/^HTTP\/1\.1 413/)
    expectEnvelopeWithSecurityHeaders(tooLarge, 'PAYLOAD_TOO_LARGE')
  })
})

/** Writes bytes as they are on one connection and reads everything until the server closes it. */
function rawExchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    let response = ''
    socket.on('data', (chunk) => (response += chunk.toString()))
    socket.on('error', () => resolve(response))
    socket.on('close', () => resolve(response))
    socket.write(bytes)
  })
}

function expectEnvelopeWithSecurityHeaders(response: string, code: string) {
  const [head = '', body = ''] = response.split('\r\n\r\n')
  const headers = head.toLowerCase()
  expect(headers).toContain('content-type: application/json')
  expect(headers).toContain("content-security-policy: default-src 'none'; frame-ancestors 'none'")
  expect(headers).toContain('x-content-type-options: nosniff')
  expect(headers).toContain('x-frame-options: deny')
  expect(headers).toContain('connection: close')
  expect(JSON.parse(body).error).toMatchObject({ code, message: expect.any(String) })
}
