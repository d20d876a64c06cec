import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { get } from 'node:https'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { connect, type TLSSocket } from 'node:tls'
import { afterEach, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../server'
import { pairingFingerprintOf } from './lan-tls'

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
    expect(body.pairing_fingerprint.replaceAll(' ', '')).toBe(info.fingerprint256.replaceAll(':', ''))
    expect((await fetchTls(`${running.httpsUrl}/healthz`)).status).toBe(200)
    expect(statSync(path.join(dataDir, 'tls', 'key.pem')).mode & 0o777).toBe(0o600)

    // The certificate is kept: a restart presents the same one, so a client that trusted it keeps trusting it.
    await running.close()
    running = await start()
    expect((await fetchTls(`${running.httpsUrl}/api/lan`)).fingerprint256).toBe(info.fingerprint256)
  })

  it('answers what it cannot take over HTTPS (431) as the HTTP listener does: in the envelope, with HSTS', async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-lan-'))
    running = await start()
    const port = Number(new URL(running.httpsUrl ?? '').port)
    const response = await new Promise<string>((resolve) => {
      let text = ''
      const socket = connect({ port, host: '127.0.0.1', rejectUnauthorized: false }, () =>
        socket.write(`GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Filler: ${'a'.repeat(20_000)}\r\n\r\n`),
      )
      socket.on('data', (chunk) => {
        text += String(chunk)
      })
      socket.on('error', () => resolve(text))
      socket.on('close', () => resolve(text))
    })
    expect(response).toMatch(/^HTTP\/1\.1 431 /)
    expect(response.toLowerCase()).toContain('strict-transport-security: max-age=31536000')
    expect(response.toLowerCase()).toContain('x-content-type-options: nosniff')
    expect(JSON.parse(response.split('\r\n\r\n')[1] ?? '').error.code).toBe('HEADERS_TOO_LARGE')
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
      pairing_fingerprint: null,
      https_port: null,
    })
  })

  it('shows the whole fingerprint for pairing, in groups of four hex digits', () => {
    const fingerprint = Array.from({ length: 32 }, (_, i) => (i * 7).toString(16).padStart(2, '0')).join(':')
    const grouped = pairingFingerprintOf(fingerprint)
    expect(grouped).toMatch(/^[0-9A-F]{4}( [0-9A-F]{4}){15}$/)
    expect(grouped.replaceAll(' ', '')).toBe(fingerprint.replaceAll(':', '').toUpperCase())
  })
})
