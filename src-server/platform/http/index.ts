/**
 * HTTP's public face: shared schema atoms, pagination, the validator, the host allowlist, origin policy, security
 * headers, connections let go of on shutdown, the answer to requests Fastify never saw, answers written once per turn of the event loop, and the
 * readers of what a client uploads (file type, multipart file name), and CSV a spreadsheet opens as data.
 */

export { answerClientError, answerFrameworkError } from './client-errors'
export { closingConnections } from './closing-connections'
export {
  ErrorEnvelope,
  IdParams,
  NoContent,
  Nullable,
  Page,
  PageQuery,
  Timestamp,
  UserRef,
  Uuid,
} from './common.schemas'
export { csvCell, toCsv } from './csv'
export { sniffFileMimeType, sniffMimeType } from './file-type'
export { allowedHosts, type HostAllowlist, hostAllowlist, hostNameOf } from './hosts'
export { batchedStdout } from './log-destination'
export { multipartFileName } from './multipart'
export { originPolicy } from './origins'
export { type PageResult, pageOf, pageWindow, toPage } from './pagination'
export { replyBatching } from './reply-batching'
export { type RequestLineFields, requestLineWriter } from './request-line'
export { lazyRequestLogger } from './request-logger'
export { contentPolicyFor, isDocsPath, securityHeaders } from './security-headers'
export { buildCachedSerializer } from './serializers'
export {
  multipartBodies,
  type ReceivedFile,
  type ReceivedUpload,
  UploadGate,
  type UploadLimits,
} from './uploads'
export { eagerValidatorCompiler, validatorCompiler } from './validation'
