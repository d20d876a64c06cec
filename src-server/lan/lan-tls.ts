import { X509Certificate } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { hostname, networkInterfaces } from 'node:os'
import path from 'node:path'

/** The LAN listener's identity: its certificate and key, and what a person compares to trust it. */
export interface LanCertificate {
  key: string
  cert: string
  /** SHA-256 of the certificate, colon-separated hex, as browsers show it. */
  fingerprint256: string
  /** The same 256 bits in 16 groups of four hex digits, compared group by group when pairing. */
  pairingFingerprint: string
}

const CERT_DAYS = 3650

/**
 * The whole fingerprint, grouped to be read aloud or compared line by line. Never a shortened code: a man in the
 * middle can mint certificates until one matches a few digits (20 bits took 95 s on one core), never all 256.
 */
export function pairingFingerprintOf(fingerprint256: string): string {
  return (
    fingerprint256
      .replaceAll(':', '')
      .toUpperCase()
      .match(/.{1,4}/g)
      ?.join(' ') ?? ''
  )
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
    // Loaded only to make the certificate, once per data directory: every later start reads it from disk.
    const { generate } = await import('selfsigned')
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
  return { key, cert, fingerprint256, pairingFingerprint: pairingFingerprintOf(fingerprint256) }
}
