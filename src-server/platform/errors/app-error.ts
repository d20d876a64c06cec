/**
 * The one error type services throw. The error handler renders it as the contract's envelope:
 * `{"error": {"code", "message", "details"}}` with `statusCode` as the HTTP status.
 */
export class AppError extends Error {
  constructor(
    readonly code: string,
    readonly statusCode: number,
    message: string,
    readonly details: Record<string, unknown> = {},
    /** What a client is told: the message, except for a server fault whose cause stays in the log. */
    readonly publicMessage: string = message,
  ) {
    super(message)
    this.name = 'AppError'
  }
}

/** The contract's error envelope for an error: what every refusal's body is, however it was raised. */
export function envelopeOf(error: AppError) {
  return { error: { code: error.code, message: error.publicMessage, details: error.details } }
}

/** A stream's error frame (an SSE event or a WebSocket message): `{"type": "error", "code", "content"}`. */
export function errorFrame(code: string, content: string) {
  return { type: 'error', code, content } as const
}

/** The stream error frame for an error: the same public message the envelope would carry. */
export function errorFrameOf(error: AppError) {
  return errorFrame(error.code, error.publicMessage)
}

export interface ErrorDefinition {
  status: number
  message: string
  /** A 5xx whose specific messages are safe to show (they name no upstream, path or internal detail). */
  expose?: boolean
}

export type ErrorFactory = (details?: Record<string, unknown>, message?: string) => AppError

const definedCodes = new Set<string>()

/**
 * Each domain declares its codes once:
 * `export const MarketErrors = defineErrors({ LISTING_NOT_FOUND: { status: 404, message: 'Listing not found.' } })`
 * and throws `MarketErrors.LISTING_NOT_FOUND()`.
 */
export function defineErrors<const T extends Record<string, ErrorDefinition>>(
  definitions: T,
): { [K in keyof T]: ErrorFactory } {
  const factories = {} as { [K in keyof T]: ErrorFactory }
  for (const code of Object.keys(definitions) as (keyof T & string)[]) {
    // A code means one thing everywhere: a second definition is a programming error, refused at load.
    if (definedCodes.has(code)) throw new Error(`The error code ${code} is defined twice.`)
    definedCodes.add(code)
    const definition = definitions[code] as ErrorDefinition
    const masked = definition.status >= 500 && !definition.expose
    factories[code] = (details = {}, message = definition.message) =>
      new AppError(code, definition.status, message, details, masked ? definition.message : message)
  }
  return factories
}

/** Codes every domain may use. */
export const CommonErrors = defineErrors({
  VALIDATION_ERROR: { status: 422, message: 'The request is not valid.' },
  NOT_FOUND: { status: 404, message: 'Not found.' },
  UNAUTHORIZED: { status: 401, message: 'Authentication is required.' },
  FORBIDDEN: { status: 403, message: 'You do not have permission to do this.' },
  RATE_LIMITED: { status: 429, message: 'Too many attempts. Try again later.' },
  INVALID_JSON: { status: 400, message: 'The request body is not valid JSON.' },
  BAD_REQUEST: { status: 400, message: 'The request cannot be processed.' },
  FILE_TOO_LARGE: { status: 413, message: 'The upload is larger than allowed.' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is larger than allowed.' },
  TOO_MANY_UPLOADS: {
    status: 429,
    message: 'You have as many uploads in progress as allowed. Send this one when one of them has finished.',
  },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'This content type is not accepted here.' },
  UNSUPPORTED_FILE_TYPE: { status: 415, message: 'This file type is not accepted.' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'This method is not allowed here.' },
  REQUEST_TIMEOUT: { status: 408, message: 'The request took too long to arrive.' },
  HOST_NOT_ALLOWED: { status: 421, message: 'This server does not answer to that host name.' },
  HEADERS_TOO_LARGE: { status: 431, message: 'The request headers are larger than allowed.' },
  GUARD_FAILED: { status: 503, message: 'The server refuses writes until its health guard passes.' },
  STORAGE_FAILED: {
    status: 507,
    message: 'The server could not write to its storage (disk full or not writable). Nothing was saved.',
  },
  INTERNAL_ERROR: { status: 500, message: 'Something went wrong on the server.' },
  // Things several domains answer about: defined here once, so each code has one meaning.
  USER_NOT_FOUND: { status: 404, message: 'User not found.' },
  AGENT_NOT_FOUND: { status: 404, message: 'Agent not found.' },
  SESSION_NOT_FOUND: { status: 404, message: 'Session not found.' },
  RUNTIME_AGENT_NOT_FOUND: { status: 404, message: 'No such runtime agent.' },
  RUN_NOT_FOUND: { status: 404, message: 'No such run.' },
  EMPTY_FILE: { status: 422, message: 'The uploaded file is empty.' },
})

/** Anything thrown, as what a client may be told: an AppError as itself, anything else an internal error. */
export function asAppError(error: unknown): AppError {
  return error instanceof AppError ? error : CommonErrors.INTERNAL_ERROR()
}
