/** HTTP's public face: shared schema atoms, pagination, the validator, origin policy and security headers. */
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
export { originPolicy } from './origins'
export { type PageResult, pageOf, pageWindow, toPage } from './pagination'
export { contentPolicyFor, securityHeaders } from './security-headers'
export { validatorCompiler } from './validation'
