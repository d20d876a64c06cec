import { randomUUID } from 'node:crypto'

/** The id text of the last millisecond asked for: ids made in the same millisecond share it. */
let prefixTime = -1
let prefix = ''
/** Ids made in the same millisecond count up in the 12 bits after the version (RFC 9562's fixed counter). */
let counter = 0

/**
 * A UUID of version 7 (RFC 9562): 48 bits of Unix time in ms, then random bits. Rows keyed by it are appended at
 * the end of their primary-key index instead of at a random page, so a commit writes a few tail pages instead of
 * one random leaf page per row and index. Its random part is a version 4 UUID's (node fills those from a cached
 * pool of random bytes; asking `randomBytes` for 16 bytes per id was a sixth of a purchase's database work):
 * the time replaces the first 48 bits, the version digit becomes 7, a counter within the millisecond the next 12,
 * the variant bits stay as they are. The time's
 * text is made once per millisecond (a purchase makes five ids, and a number's hex text is slow to make).
 */
export function timeOrderedUuid(now = Date.now()): string {
  if (now !== prefixTime) {
    const time = now.toString(16).padStart(12, '0')
    prefix = `${time.slice(0, 8)}-${time.slice(8, 12)}-7`
    prefixTime = now
    counter = 0
  }
  // So two orders of one millisecond still list in the order they were made (newest first by id).
  const sequence = (counter++ & 0xfff).toString(16).padStart(3, '0')
  return prefix + sequence + randomUUID().slice(18)
}
