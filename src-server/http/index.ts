/**
 * HTTP's public face: shared schema atoms, pagination, the validator, origin policy, security headers, answers
 * written once per turn of the event loop, and the readers of what a client uploads (file type, multipart file name).
 */
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
export { sniffFileMimeType, sniffMimeType } from './file-type'
export { batchedStdout } from './log-destination'
export { multipartFileName } from './multipart'
export { originPolicy } from './origins'
export { type PageResult, pageOf, pageWindow, toPage } from './pagination'
export { replyBatching } from './reply-batching'
export { type RequestLineFields, requestLineWriter } from './request-line'
export { lazyRequestLogger } from './request-logger'
export { contentPolicyFor, securityHeaders } from './security-headers'
export {
  multipartBodies,
  type ReceivedFile,
  type ReceivedUpload,
  UploadGate,
  type UploadLimits,
} from './uploads'
export { validatorCompiler } from './validation'
