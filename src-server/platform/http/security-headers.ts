import type { TLSSocket } from 'node:tls'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'

/**
 * The console's content policy: its own scripts only (no inline script, no eval), pdf.js's worker from the app,
 * pictures from the app and data URLs (stored avatars), connections to this server only ('self' covers its own
 * ws:/wss: too), never framed by another page. No picture from another host: its server would learn who looks.
 * Inline style attributes stay allowed: React's `style={...}` renders them.
 */
const CONSOLE_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "worker-src 'self' blob:",
  // A cited PDF is shown in a frame from a blob the console fetched with its token.
  "frame-src 'self' blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

/** The API's JSON answers are data, never a page: nothing may run or load from them. */
export const API_POLICY = "default-src 'none'; frame-ancestors 'none'"

/** The interactive API docs (Swagger UI) ship their own inline bootstrap script. */
const DOCS_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "frame-ancestors 'none'",
].join('; ')

/** The docs' own paths: `/docs` and what Swagger UI serves under `/docs/`, not every path starting with "/docs". */
export function isDocsPath(url: string): boolean {
  const path = url.split('?', 1)[0] ?? ''
  return path === '/docs' || path.startsWith('/docs/')
}

/**
 * JSON is API data; everything else (the console's page, its assets, a 304 revalidating the page, which carries
 * no content type) is the app and gets its policy, or a reload would block the console's own scripts.
 */
export function contentPolicyFor(url: string, contentType: string | undefined): string {
  if (isDocsPath(url)) return DOCS_POLICY
  return contentType?.startsWith('application/json') ? API_POLICY : CONSOLE_POLICY
}

/** An HTTPS answer tells the browser to use HTTPS for this host from now on (ignored while the certificate is not trusted). */
export const HSTS = 'max-age=31536000'

/** The headers every answer carries besides its content policy: no sniffing, no framing, no referrer leaving the app. */
export const FIXED_SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
} as const

export const isEncrypted = (socket: unknown) => Boolean((socket as TLSSocket | null)?.encrypted)

/** Every header a JSON answer written outside the hooks carries (the refusals Fastify's routing never reached). */
export function apiSecurityHeaders(socket: unknown): Record<string, string> {
  return {
    'content-security-policy': API_POLICY,
    ...FIXED_SECURITY_HEADERS,
    ...(isEncrypted(socket) ? { 'strict-transport-security': HSTS } : {}),
  }
}

/** Security headers on every response: the content policy, the fixed ones, and HSTS over HTTPS. */
export const securityHeaders = fp(async (app: FastifyInstance) => {
  // A callback hook: it is synchronous, and an async hook costs a promise on every response.
  app.addHook('onSend', (request, reply, payload, done) => {
    const type = reply.getHeader('content-type')
    reply.header(
      'content-security-policy',
      contentPolicyFor(request.url, type === undefined ? undefined : String(type)),
    )
    reply.headers(FIXED_SECURITY_HEADERS)
    if (isEncrypted(request.raw.socket)) reply.header('strict-transport-security', HSTS)
    done(null, payload)
  })
})
