import { X509Certificate } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { hostname, networkInterfaces } from 'node:os'
import path from 'node:path'
import { generate } from 'selfsigned'

/** The LAN listener's identity: its certificate and key, and what a person compares to trust it. */
export interface LanCertificate {
  key: string
  cert: string
  /** SHA-256 of the certificate, colon-separated hex, as browsers show it. */
  fingerprint256: string
  /** Six digits derived from the fingerprint, read aloud or compared at a glance ("482-913"). */
  pairingCode: string
}

const CERT_DAYS = 3650

export function pairingCodeOf(fingerprint256: string): string {
  const digits = String(
    Number.parseInt(fingerprint256.replace(/:/g, '').slice(0, 12), 16) % 1_000_000,
  ).padStart(6, '0')
  return `${digits.slice(0, 3)}-${digits.slice(3)}`
}

/** The names a LAN client may reach this machine by: its host name, localhost and every local address. */
function altNames() {
  const addresses = Object.values(networkInterfaces())
    .flat()
    .flatMap((entry) => (entry ? [entry.address] : []))
  // SubjectAltName types: 2 = DNS name, 7 = IP address.
  return [
    { type: 2 as const, value: 'localhost' },
    { type: 2 as const, value: hostname() },
    ...[...new Set(['127.0.0.1', ...addresses])].map((ip) => ({ type: 7 as const, ip })),
  ]
}

/**
 * The certificate of the HTTPS listener, generated on first start and kept in `<data>/tls` (the key 0600), so
 * its fingerprint stays the same across restarts and a client that trusted it once keeps trusting it.
 */
export async function lanCertificate(dataDir: string): Promise<LanCertificate> {
  const dir = path.join(dataDir, 'tls')
  const keyFile = path.join(dir, 'key.pem')
  const certFile = path.join(dir, 'cert.pem')
  if (!existsSync(keyFile) || !existsSync(certFile)) {
    mkdirSync(dir, { recursive: true })
    const made = await generate([{ name: 'commonName', value: `Switchboard on ${hostname()}` }], {
      notAfterDate: new Date(Date.now() + CERT_DAYS * 86_400_000),
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
      extensions: [{ name: 'subjectAltName', altNames: altNames() }],
    })
    writeFileSync(keyFile, made.private, { mode: 0o600 })
    chmodSync(keyFile, 0o600)
    writeFileSync(certFile, made.cert)
  }
  const key = readFileSync(keyFile, 'utf8')
  const cert = readFileSync(certFile, 'utf8')
  const fingerprint256 = new X509Certificate(cert).fingerprint256
  return { key, cert, fingerprint256, pairingCode: pairingCodeOf(fingerprint256) }
}

const LOOPBACK = /^(?:127\.|::1$|::ffff:127\.)/

/**
 * Where a plain-HTTP request from the LAN goes instead: the same path on the HTTPS listener. Loopback (the desktop
 * window, local scripts) and already-encrypted requests stay; `SWITCHBOARD_LAN_HTTP=1` keeps plain HTTP on purpose.
 */
export function httpsRedirect(input: {
  encrypted: boolean
  localAddress: string | undefined
  host: string | undefined
  url: string
  httpsPort: number
  allowPlainHttp: boolean
}): string | null {
  if (input.encrypted || input.allowPlainHttp || !input.localAddress || LOOPBACK.test(input.localAddress))
    return null
  const hostname = (input.host ?? input.localAddress).replace(/:\d+$/, '')
  return `https://${hostname}:${input.httpsPort}${input.url}`
}
