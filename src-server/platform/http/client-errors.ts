import { STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { CommonErrors, envelopeOf } from '../errors'
import { apiSecurityHeaders } from './security-headers'

/** Node's client errors that have a code of their own; any other is a request that could not be parsed. */
const CLIENT_ERRORS: Record<string, () => ReturnType<typeof CommonErrors.BAD_REQUEST>> = {
  ERR_HTTP_REQUEST_TIMEOUT: () => CommonErrors.REQUEST_TIMEOUT(),
  HPE_HEADER_OVERFLOW: () => CommonErrors.HEADERS_TOO_LARGE(),
}

/**
 * Node's `clientError` (for both listeners): a request Fastify never saw, because it arrived too slowly, its
 * headers were too large or it was not HTTP. Answered as every other refusal is, in the envelope with the API's
 * security headers, then the connection is closed. Nothing is written once an answer has begun on the socket.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage
  if (socket.writable && !inFlight?.headersSent) {
    const refusal = (CLIENT_ERRORS[error.code ?? ''] ?? (() => CommonErrors.BAD_REQUEST()))()
    const body = JSON.stringify(envelopeOf(refusal))
    const headers: Record<string, string | number> = {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      connection: 'close',
      ...apiSecurityHeaders(socket),
    }
    const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`)
    socket.write(
      `HTTP/1.1 ${refusal.statusCode} ${STATUS_CODES[refusal.statusCode]}\r\n${head.join('')}\r\n${body}`,
    )
  }
  socket.destroy(error)
}

/**
 * Fastify's `frameworkErrors`: a malformed URL or an over-long path parameter, refused before routing, so before
 * the hooks that add the security headers; they are set here.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const refusal = CommonErrors.BAD_REQUEST({ reason: error.code }, 'The request URL is not valid.')
  reply.headers(apiSecurityHeaders(request.raw.socket)).status(400).send(envelopeOf(refusal))
}
