import type { FastifyBaseLogger } from 'fastify'
import type { AppError } from './app-error'

/**
 * Logs a server fault (a 5xx) with its cause. The client is only told the error's public message, so the cause
 * (an upstream's words, a path, a stack) lives here alone; HTTP, SSE and WebSocket paths all report through this.
 */
export function logFault(
  log: FastifyBaseLogger,
  error: AppError,
  cause: unknown,
  context: Record<string, unknown>,
  message: string,
): void {
  if (error.statusCode < 500) return
  log.error({ err: cause, code: error.code, details: error.details, ...context }, message)
}
