import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'

/**
 * The console's content policy: its own scripts only (no inline script, no eval), pdf.js's worker from the app,
 * pictures from the app, data/blob URLs (rendered pages, avatars) and https (avatars), connections to this server
 * (HTTP and WebSocket), never framed by another page. Inline style attributes stay allowed: React's `style={...}`
 * renders them.
 */
const CONSOLE_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "font-src 'self' data:",
  "worker-src 'self' blob:",
  // A cited PDF is shown in a frame from a blob the console fetched with its token.
  "frame-src 'self' blob:",
  "connect-src 'self' ws: wss:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

/** The API's JSON answers are data, never a page: nothing may run or load from them. */
const API_POLICY = "default-src 'none'; frame-ancestors 'none'"

/** The interactive API docs (Swagger UI) ship their own inline bootstrap script. */
const DOCS_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "frame-ancestors 'none'",
].join('; ')

/**
 * JSON is API data; everything else (the console's page, its assets, a 304 revalidating the page, which carries
 * no content type) is the app and gets its policy, or a reload would block the console's own scripts.
 */
export function contentPolicyFor(url: string, contentType: string | undefined): string {
  if (url.startsWith('/docs')) return DOCS_POLICY
  return contentType?.startsWith('application/json') ? API_POLICY : CONSOLE_POLICY
}

/** Security headers on every response: content policy, no sniffing, no framing, no referrer leaving the app. */
export const securityHeaders = fp(async (app: FastifyInstance) => {
  // A callback hook: it is synchronous, and an async hook costs a promise on every response.
  app.addHook('onSend', (request, reply, payload, done) => {
    const type = reply.getHeader('content-type')
    reply.header(
      'content-security-policy',
      contentPolicyFor(request.url, type === undefined ? undefined : String(type)),
    )
    reply.header('x-content-type-options', 'nosniff')
    reply.header('x-frame-options', 'DENY')
    reply.header('referrer-policy', 'no-referrer')
    reply.header('cross-origin-opener-policy', 'same-origin')
    done(null, payload)
  })
})
