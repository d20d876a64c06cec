import { request } from 'node:http'
import { connect } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { startTestServer, type TestServer } from '../../../test/helpers/server'

let server: TestServer
afterEach(async () => server?.close())

interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/** A real request to the listening server whose `Host` says what a rebound DNS name would make a browser say. */
function send(base: string, method: string, url: string, headers: Record<string, string>, body?: string) {
  return new Promise<Answer>((resolve, reject) => {
    const req = request(`${base}${url}`, { method, headers }, (response) => {
      let text = ''
      response.on('data', (chunk) => {
        text += String(chunk)
      })
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }),
      )
    })
    req.on('error', reject)
    req.end(body)
  })
}

/** Opens a WebSocket with the given headers: `opened` with its first message, or the refusal's status and body. */
function openSocket(url: string, headers: Record<string, string>) {
  return new Promise<{ opened: boolean; status: number; body: string }>((resolve, reject) => {
    const socket = new WebSocket(url, { headers })
    socket.on('unexpected-response', (_req, response) => {
      let body = ''
      response.on('data', (chunk) => {
        body += String(chunk)
      })
      response.on('end', () => resolve({ opened: false, status: response.statusCode ?? 0, body }))
    })
    socket.on('message', (data) => {
      resolve({ opened: true, status: 101, body: String(data) })
      socket.close()
    })
    socket.on('error', reject)
  })
}

const userCount = (name: string) =>
  (
    server.sqlite().$client.prepare('SELECT count(*) AS n FROM user WHERE username = ?').get(name) as {
      n: number
    }
  ).n

describe('Host allowlist (DNS rebinding)', () => {
  it('answers 421 in the envelope to a Host that is not this server, before any route runs', async () => {
    server = await startTestServer()
    const base = await server.listen()
    const port = new URL(base).port
    const rebound = { host: `rebound.example:${port}` }
    const token = (await server.adminHeaders()).authorization ?? ''

    const api = await send(base, 'GET', '/api/auth/me', { ...rebound, authorization: token })
    const page = await send(base, 'GET', '/console/review', rebound)
    const register = await send(
      base,
      'POST',
      '/api/auth/register',
      { ...rebound, 'content-type': 'application/json' },
      JSON.stringify({ username: 'rebound-user', password: 'rebound-password-1' }),
    )
    for (const refused of [api, page, register]) {
      expect(refused.status).toBe(421)
      expect(JSON.parse(refused.body).error.code).toBe('HOST_NOT_ALLOWED')
      expect(refused.headers['x-content-type-options']).toBe('nosniff')
      expect(refused.headers['content-security-policy']).toBeTruthy()
    }
    expect(userCount('rebound-user')).toBe(0)

    // The rebound page's own socket: its Origin matches its Host, and neither is this server.
    const socket = await openSocket(`ws://127.0.0.1:${port}/ws-operator?access_token=${token.slice(7)}`, {
      ...rebound,
      origin: `http://rebound.example:${port}`,
    })
    expect(socket.opened).toBe(false)
    expect(socket.status).toBe(421)
    expect(JSON.parse(socket.body).error.code).toBe('HOST_NOT_ALLOWED')

    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, 'LOCALHOST'])
      expect((await send(base, 'GET', '/healthz', { host })).status).toBe(200)
    // HTTP/1.0 may leave `Host` out: no name is not an allowed name.
    const missing = await new Promise<string>((resolve) => {
      let answer = ''
      const socket = connect(Number(port), '127.0.0.1', () => socket.write('GET /healthz HTTP/1.0\r\n\r\n'))
      socket.on('data', (chunk) => {
        answer += String(chunk)
      })
      socket.on('close', () => resolve(answer))
    })
    expect(missing).toMatch(/^HTTP\/1\.1 421 /)
  })

  it('takes the configured LAN names, and the address a client actually connected to', async () => {
    server = await startTestServer({ lanHosts: ['switchboard.office.lan'] })
    const base = await server.listen()
    const port = new URL(base).port
    expect((await send(base, 'GET', '/healthz', { host: `switchboard.office.lan:${port}` })).status).toBe(200)
    expect((await send(base, 'GET', '/healthz', { host: `switchboard.office.lan.` })).status).toBe(200)
    expect((await send(base, 'GET', '/healthz', { host: `office.lan:${port}` })).status).toBe(421)
    expect((await send(base, 'GET', '/healthz', { host: `127.0.0.2:${port}` })).status).toBe(421)
  })

  it('opens a WebSocket only for an Origin on the allowlist and this port, whatever Host says', async () => {
    server = await startTestServer()
    const base = await server.listen()
    const port = new URL(base).port
    const token = (await server.adminHeaders()).authorization?.slice(7)
    const url = `ws://127.0.0.1:${port}/ws-operator?access_token=${token}`
    const host = `127.0.0.1:${port}`

    // The console opened as http://localhost:<port> talks to the same server: same allowlist, same port.
    const sameServer = await openSocket(url, { host, origin: `http://localhost:${port}` })
    expect(sameServer).toMatchObject({ opened: true, body: JSON.stringify({ type: 'ready' }) })
    for (const origin of [`http://rebound.example:${port}`, 'http://localhost:1', 'null']) {
      const refused = await openSocket(url, { host, origin })
      expect(refused.opened).toBe(false)
      expect(refused.status).toBe(403)
      expect(JSON.parse(refused.body).error.code).toBe('FORBIDDEN')
    }
  })
})
