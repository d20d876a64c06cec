import { hash, randomBytes } from 'node:crypto'

/** Opaque bearer tokens: 32 random bytes with a readable prefix; only their SHA-256 is stored. */
export function newToken(): string {
  return `sbt_${randomBytes(32).toString('base64url')}`
}

/** Runs when a token is issued and when the caller cache misses: the one-shot `hash` costs half a `createHash`. */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex')
}
