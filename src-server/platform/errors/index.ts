/** Errors' public face: `AppError`, `defineErrors` with the common codes, and the one envelope renderer. */
export {
  AppError,
  asAppError,
  CommonErrors,
  defineErrors,
  type ErrorDefinition,
  type ErrorFactory,
  envelopeOf,
  errorFrame,
  errorFrameOf,
} from './app-error'
export { errorHandling } from './error-handler'
export { logFault } from './log-fault'
