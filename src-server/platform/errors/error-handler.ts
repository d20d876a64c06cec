import type { FastifyError, FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { AppError, CommonErrors, envelopeOf } from './app-error'
import { logFault } from './log-fault'

interface ValidationIssue {
  instancePath?: string
  message?: string
  keyword?: string
  params?: Record<string, unknown>
}

/** Turns Ajv issues into `[{field, message}]`, naming the request part: `body.username`, `query.size`. */
export function describeValidation(context: string | undefined, issues: ValidationIssue[]) {
  const part = context === 'querystring' ? 'query' : (context ?? 'body')
  return issues.map((issue) => {
    const pointer = (issue.instancePath ?? '').split('/').filter(Boolean)
    const missing = issue.params?.missingProperty
    if (typeof missing === 'string') pointer.push(missing)
    const extra = issue.params?.additionalProperty
    if (typeof extra === 'string') pointer.push(extra)
    return { field: [part, ...pointer].join('.'), message: issue.message ?? 'is invalid' }
  })
}

/** File-system failures of the server's own storage: not the client's fault, and not a crash either. */
const STORAGE_ERRNOS = new Set([
  'ENOSPC',
  'EDQUOT',
  'EROFS',
  'EACCES',
  'EPERM',
  'ENOTDIR',
  'EIO',
  'SQLITE_FULL',
  'SQLITE_IOERR',
  'SQLITE_READONLY',
])

/** Maps Fastify's own errors (bad JSON, oversize body, wrong content type) to contract codes. */
function fromFastifyError(error: FastifyError): AppError {
  if (STORAGE_ERRNOS.has(error.code)) return CommonErrors.STORAGE_FAILED({ reason: error.code })
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return CommonErrors.INVALID_JSON()
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return CommonErrors.PAYLOAD_TOO_LARGE()
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return CommonErrors.UNSUPPORTED_MEDIA_TYPE()
    default:
      break
  }
  const status = error.statusCode ?? 500
  if (status === 413) return CommonErrors.PAYLOAD_TOO_LARGE()
  if (status === 415) return CommonErrors.UNSUPPORTED_MEDIA_TYPE()
  if (status >= 400 && status < 500) return CommonErrors.BAD_REQUEST({}, 'The request cannot be processed.')
  return CommonErrors.INTERNAL_ERROR()
}

/**
 * One mechanism for every route: AppErrors render as themselves, schema violations as 422 with the failing
 * fields, unknown routes as 404, anything unexpected as a 500; every 5xx's cause and stack stay in the log.
 */
export const errorHandling = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    let appError: AppError
    if (error instanceof AppError) appError = error
    else if (error.validation)
      appError = CommonErrors.VALIDATION_ERROR({
        fields: describeValidation(error.validationContext, error.validation as ValidationIssue[]),
      })
    else appError = fromFastifyError(error)

    // Every server fault is logged with its request and cause; the client gets the code's public message.
    logFault(request.log, appError, error, { method: request.method, url: request.url }, appError.message)
    reply.status(appError.statusCode).send(envelopeOf(appError))
  })

  app.setNotFoundHandler((request, reply) => {
    const unknownRoute = CommonErrors.NOT_FOUND(
      {},
      `No route for ${request.method} ${request.url.split('?')[0]}.`,
    )
    reply.status(404).send(envelopeOf(unknownRoute))
  })
})
