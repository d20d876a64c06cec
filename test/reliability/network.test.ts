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
  })
})
