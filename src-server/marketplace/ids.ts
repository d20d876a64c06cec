import { randomBytes } from 'node:crypto'

/**
 * A UUID of version 7 (RFC 9562): 48 bits of Unix time in ms, then random bits. Rows keyed by it are appended at
 * the end of their primary-key index instead of at a random page, so a commit writes a few tail pages instead of
 * one random leaf page per row and index.
 */
export function timeOrderedUuid(now = Date.now()): string {
  const bytes = randomBytes(16)
  bytes.writeUIntBE(now, 0, 6)
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x70
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80
  const hex = bytes.toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
