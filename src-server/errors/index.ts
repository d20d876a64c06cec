/** Errors' public face: `AppError`, `defineErrors` with the common codes, and the one envelope renderer. */
export {
  AppError,
  CommonErrors,
  defineErrors,
  type ErrorDefinition,
  type ErrorFactory,
  envelopeOf,
} from './app-error'
export { errorHandling } from './error-handler'
