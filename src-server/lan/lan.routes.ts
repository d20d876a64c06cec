import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { Nullable } from '../http'
import { httpsRedirect, type LanCertificate } from './lan-tls'

/** The LAN listener as the running server knows it: the certificate, and the HTTPS port once listening. */
export interface LanListener {
  certificate: LanCertificate
  httpsPort: number | null
}

const LanInfo = Type.Object({
  tls: Type.Boolean(),
  fingerprint_sha256: Nullable(Type.String()),
  pairing_code: Nullable(Type.String()),
  https_port: Nullable(Type.Integer()),
})

/**
 * `GET /api/lan` (public): whether LAN traffic is encrypted, and the certificate's SHA-256 fingerprint and pairing
 * code, which a LAN browser or script compares with what the desktop shows before trusting the certificate. With
 * TLS on, plain-HTTP requests that reach the server over the network are redirected to HTTPS (308).
 */
export const lanRoutes: FastifyPluginAsyncTypebox<{
  lan: LanListener | null
  allowPlainHttp: boolean
}> = async (app, { lan, allowPlainHttp }) => {
  if (lan && !allowPlainHttp)
    app.addHook('onRequest', async (request, reply) => {
      if (lan.httpsPort === null) return
      const target = httpsRedirect({
        encrypted: Boolean((request.raw.socket as { encrypted?: boolean }).encrypted),
        localAddress: request.raw.socket.localAddress,
        host: request.headers.host,
        url: request.url,
        httpsPort: lan.httpsPort,
        allowPlainHttp,
      })
      if (target) return reply.redirect(target, 308)
    })

  app.get(
    '/api/lan',
    { config: { public: true }, schema: { tags: ['lan'], response: { 200: LanInfo } } },
    async () => ({
      tls: lan !== null,
      fingerprint_sha256: lan?.certificate.fingerprint256 ?? null,
      pairing_code: lan?.certificate.pairingCode ?? null,
      https_port: lan?.httpsPort ?? null,
    }),
  )
}
