import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createLanNamespace,
  type LanAnswer,
  type LanNamespace,
  lanNamespaceUnavailable,
} from '../../test/helpers/lan-namespace'
import { sqliteOf } from '../../test/helpers/server'
import { type RunningServer, startServer } from '../server'

const unavailable = lanNamespaceUnavailable()
if (unavailable) console.warn(`LAN exposure tests skipped: ${unavailable}`)

const PASSWORD = 'lan-exposure-password'
let lan: LanNamespace
let running: RunningServer
let dataDir: string
let http: string
let https: string

beforeAll(async () => {
  if (unavailable) return
  lan = createLanNamespace()
  dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-lan-exposure-'))
  running = await startServer({
    dataDir,
    host: '0.0.0.0',
    port: 0,
    lanTls: true,
    httpsPort: 0,
    adminPassword: PASSWORD,
    logLevel: 'silent',
  })
  const port = new URL(running.url).port
  http = `http://${lan.serverAddress}:${port}`
  https = `https://${lan.serverAddress}:${running.app.lan?.httpsPort}`
})

afterAll(async () => {
  // The namespace goes whatever happens to the server: a leftover one would outlive the test run.
  try {
    await running?.close()
  } finally {
    lan?.remove()
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  }
})

const tokenCount = () =>
  (sqliteOf(running.app).$client.prepare('SELECT count(*) AS n FROM auth_token').get() as { n: number }).n
const login = JSON.stringify({ username: 'admin', password: PASSWORD })
const json = { 'content-type': 'application/json' }
const envelope = (answer: LanAnswer) => JSON.parse(answer.body).error as { code: string }

describe.skipIf(unavailable !== null)('LAN exposure from another machine', () => {
  it('refuses or redirects plain HTTP from the network: login, the API, the console and WebSockets', async () => {
    // The desktop window (loopback) keeps plain HTTP; its token is what a LAN attacker would want to replay.
    const local = await fetch(`${running.url}/api/auth/login`, { method: 'POST', headers: json, body: login })
    expect(local.status).toBe(200)
    const token = ((await local.json()) as { token: string }).token
    const tokensBefore = tokenCount()

    const [page, api, head, signIn, put, socket] = await lan.run([
      { kind: 'http', method: 'GET', url: `${http}/console/review?x=1` },
      {
        kind: 'http',
        method: 'GET',
        url: `${http}/api/auth/me`,
        headers: { authorization: `Bearer ${token}` },
      },
      { kind: 'http', method: 'HEAD', url: `${http}/healthz` },
      { kind: 'http', method: 'POST', url: `${http}/api/auth/login`, headers: json, body: login },
      { kind: 'http', method: 'PUT', url: `${http}/api/admin/config`, headers: json, body: '{}' },
      { kind: 'ws', url: `${http.replace('http', 'ws')}/ws-operator?access_token=${token}` },
    ])
    expect(page?.status).toBe(308)
    expect(page?.headers.location).toBe(`${https}/console/review?x=1`)
    expect(api?.status).toBe(308)
    expect(api?.headers.location).toBe(`${https}/api/auth/me`)
    expect(api?.body).not.toContain('admin')
    expect(head?.status).toBe(308)
    for (const refused of [signIn, put, socket]) {
      expect(refused?.status).toBe(426)
      expect(envelope(refused as LanAnswer).code).toBe('HTTPS_REQUIRED')
      expect(refused?.headers['x-content-type-options']).toBe('nosniff')
    }
    expect(socket?.firstMessage).toBeUndefined()
    // The password sent in clear was never checked: no session was issued for it.
    expect(tokenCount()).toBe(tokensBefore)
  })

  it('serves the same requests over HTTPS with HSTS, behind the certificate whose full fingerprint pairing shows', async () => {
    const [info, signIn] = await lan.run([
      { kind: 'https', method: 'GET', url: `${https}/api/lan` },
      { kind: 'https', method: 'POST', url: `${https}/api/auth/login`, headers: json, body: login },
    ])
    const pairing = JSON.parse(info?.body ?? '{}')
    expect(pairing.fingerprint_sha256).toBe(info?.fingerprint256)
    // Pairing compares all 256 bits, never a short code a forged certificate can be ground to match.
    expect(pairing.pairing_fingerprint).toMatch(/^[0-9A-F]{4}( [0-9A-F]{4}){15}$/)
    expect(pairing.pairing_fingerprint.replaceAll(' ', '')).toBe(info?.fingerprint256?.replaceAll(':', ''))
    expect(pairing).not.toHaveProperty('pairing_code')

    expect(signIn?.status).toBe(200)
    expect(signIn?.headers['strict-transport-security']).toBe('max-age=31536000')
    const token = JSON.parse(signIn?.body ?? '{}').token as string
    const tokensBefore = tokenCount()
    const [me, socket] = await lan.run([
      {
        kind: 'https',
        method: 'GET',
        url: `${https}/api/auth/me`,
        headers: { authorization: `Bearer ${token}` },
      },
      { kind: 'wss', url: `${https.replace('https', 'wss')}/ws-operator?access_token=${token}` },
    ])
    expect(me?.status).toBe(200)
    expect(JSON.parse(me?.body ?? '{}').username).toBe('admin')
    expect(me?.headers['strict-transport-security']).toBe('max-age=31536000')
    expect(socket?.status).toBe(101)
    expect(socket?.fingerprint256).toBe(pairing.fingerprint_sha256)
    expect(JSON.parse(socket?.firstMessage ?? '{}')).toEqual({ type: 'ready' })
    expect(tokenCount()).toBe(tokensBefore)

    // Loopback (the desktop window) answers without HSTS: its plain HTTP is not the LAN's.
    const local = await fetch(`${running.url}/healthz`)
    expect(local.status).toBe(200)
    expect(local.headers.get('strict-transport-security')).toBeNull()
  })
})
