import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { get } from 'node:https'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { TLSSocket } from 'node:tls'
import { afterEach, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../server'
import { httpsRedirect, pairingCodeOf } from './lan-tls'

let running: RunningServer | null = null
let dataDir = ''
afterEach(async () => {
  await running?.close()
  running = null
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
})

const start = () =>
  startServer({
    dataDir,
    host: '127.0.0.1',
    port: 0,
    lanTls: true,
    httpsPort: 0,
    adminPassword: 'lan-test-password',
    logLevel: 'silent',
  })

/** GET over HTTPS trusting nothing in advance (as a first contact would), with the certificate the server sent. */
function fetchTls(url: string): Promise<{ status: number; body: string; fingerprint256: string }> {
  return new Promise((resolve, reject) => {
    get(url, { rejectUnauthorized: false }, (response) => {
      const fingerprint256 = (response.socket as TLSSocket).getPeerCertificate().fingerprint256
      let body = ''
      response.on('data', (chunk) => {
        body += String(chunk)
      })
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body, fingerprint256 }))
    }).on('error', reject)
  })
}

describe('LAN over TLS', () => {
  it('serves the API over HTTPS with a certificate made on first start, whose fingerprint the API states', async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-lan-'))
    running = await start()
    expect(running.httpsUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/)
    const info = await fetchTls(`${running.httpsUrl}/api/lan`)
    expect(info.status).toBe(200)
    const body = JSON.parse(info.body)
    expect(body).toMatchObject({ tls: true, fingerprint_sha256: info.fingerprint256 })
    expect(body.pairing_code).toMatch(/^\d{3}-\d{3}$/)
    expect((await fetchTls(`${running.httpsUrl}/healthz`)).status).toBe(200)
    expect(statSync(path.join(dataDir, 'tls', 'key.pem')).mode & 0o777).toBe(0o600)

    // The certificate is kept: a restart presents the same one, so a client that trusted it keeps trusting it.
    await running.close()
    running = await start()
    expect((await fetchTls(`${running.httpsUrl}/api/lan`)).fingerprint256).toBe(info.fingerprint256)
  })

  it('says so when LAN traffic is not encrypted', async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-lan-'))
    running = await startServer({
      dataDir,
      host: '127.0.0.1',
      port: 0,
      adminPassword: 'x-password',
      logLevel: 'silent',
    })
    expect(running.httpsUrl).toBeNull()
    const info = await fetch(`${running.url}/api/lan`)
    expect(await info.json()).toEqual({
      tls: false,
      fingerprint_sha256: null,
      pairing_code: null,
      https_port: null,
    })
  })

  it('redirects plain HTTP from the network to HTTPS, but not loopback, TLS, or an explicit opt-out', () => {
    const request = {
      encrypted: false,
      host: '192.168.1.20:8787',
      url: '/console/review?x=1',
      httpsPort: 8788,
    }
    const lan = { ...request, localAddress: '192.168.1.20', allowPlainHttp: false }
    expect(httpsRedirect(lan)).toBe('https://192.168.1.20:8788/console/review?x=1')
    expect(httpsRedirect({ ...lan, localAddress: '127.0.0.1' })).toBeNull()
    expect(httpsRedirect({ ...lan, localAddress: '::ffff:127.0.0.1' })).toBeNull()
    expect(httpsRedirect({ ...lan, encrypted: true })).toBeNull()
    expect(httpsRedirect({ ...lan, allowPlainHttp: true })).toBeNull()
  })

  it('derives a six-digit pairing code from the fingerprint', () => {
    expect(pairingCodeOf('AB:CD:EF:01:23:45:67')).toMatch(/^\d{3}-\d{3}$/)
    expect(pairingCodeOf('AB:CD:EF:01:23:45:67')).toBe(pairingCodeOf('AB:CD:EF:01:23:45:67'))
    expect(pairingCodeOf('AB:CD:EF:01:23:45:67')).not.toBe(pairingCodeOf('AB:CD:EF:01:23:46:67'))
  })
})
