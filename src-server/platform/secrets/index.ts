/** Secrets' public face: sealing of secrets at rest. */
export { SecretBox } from './secret-box'
