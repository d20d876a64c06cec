/** Errors' public face: `AppError`, `defineErrors` with the common codes, and the one envelope renderer. */
export { AppError, CommonErrors, defineErrors, type ErrorDefinition, type ErrorFactory } from './app-error'
export { errorHandling } from './error-handler'
