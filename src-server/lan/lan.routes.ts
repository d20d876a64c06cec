import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { Nullable } from '../platform/http'
import type { LanCertificate } from './lan-tls'

/** The LAN listener as the running server knows it: the certificate, and the HTTPS port once listening. */
export interface LanListener {
  certificate: LanCertificate
  httpsPort: number | null
}

const LanInfo = Type.Object({
  tls: Type.Boolean(),
  fingerprint_sha256: Nullable(Type.String()),
  pairing_fingerprint: Nullable(Type.String()),
  https_port: Nullable(Type.Integer()),
})

/**
 * `GET /api/lan` (public): whether LAN traffic is encrypted, and the certificate's whole SHA-256 fingerprint (as
 * browsers show it, and grouped for pairing), which a LAN browser or script compares with what the desktop shows
 * before trusting the certificate. Plain HTTP from the network is handled by `lanTransport`, on the root.
 */
export const lanRoutes: FastifyPluginAsyncTypebox<{ lan: LanListener | null }> = async (app, { lan }) => {
  app.get(
    '/api/lan',
    { config: { public: true }, schema: { tags: ['lan'], response: { 200: LanInfo } } },
    async () => ({
      tls: lan !== null,
      fingerprint_sha256: lan?.certificate.fingerprint256 ?? null,
      pairing_fingerprint: lan?.certificate.pairingFingerprint ?? null,
      https_port: lan?.httpsPort ?? null,
    }),
  )
}
