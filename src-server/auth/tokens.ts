import { hash, randomBytes } from 'node:crypto'

/** Opaque bearer tokens: 32 random bytes with a readable prefix; only their SHA-256 is stored. */
export function newToken(): string {
  return `sbt_${randomBytes(32).toString('base64url')}`
}

/** Runs on every authenticated request: the one-shot `hash` costs about half of a `createHash` object. */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex')
}
