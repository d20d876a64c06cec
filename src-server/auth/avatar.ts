import { sql } from 'drizzle-orm'
import { sniffMimeType } from '../http'
import { AuthErrors } from './auth.errors'
import { user } from './auth.tables'

/** Bounds an avatar: a picture next to a name, not a storage service. */
export const MAX_AVATAR_BYTES = 256 * 1024
const MAX_HTTPS_URL_LENGTH = 2048

/** Raster formats only (SVG can carry script), each recognised by its leading bytes. */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp'])

const DATA_URL = /^data:(image\/[a-z]+);base64,([A-Za-z0-9+/]+={0,2})$/

/**
 * Checks an avatar URL: an https URL, or a base64 `data:` URL of a PNG, JPEG, GIF or WebP image whose bytes
 * are what it declares and at most 256 KiB. Anything else is refused with the reason.
 */
export async function checkAvatarUrl(value: string): Promise<string> {
  const invalid = (reason: string) => AuthErrors.INVALID_AVATAR_URL({ avatar_url: reason })
  if (value.startsWith('data:')) {
    const match = DATA_URL.exec(value)
    if (!match) throw invalid('must be a base64 data URL of an image')
    const [, mime = '', payload = ''] = match
    if (!IMAGE_TYPES.has(mime)) throw invalid('must be a PNG, JPEG, GIF or WebP image')
    const bytes = Buffer.from(payload, 'base64')
    if (bytes.length > MAX_AVATAR_BYTES)
      throw invalid(`must not be larger than ${MAX_AVATAR_BYTES / 1024} KiB`)
    if ((await sniffMimeType(bytes)) !== mime)
      throw invalid(`is not a ${mime.slice('image/'.length).toUpperCase()} image`)
    return value
  }
  if (value.length > MAX_HTTPS_URL_LENGTH)
    throw invalid(`must not be longer than ${MAX_HTTPS_URL_LENGTH} characters`)
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw invalid('must be an https URL or a data URL of an image')
  }
  if (url.protocol !== 'https:') throw invalid('must be an https URL or a data URL of an image')
  if (url.username || url.password) throw invalid('must not carry credentials')
  return url.href
}

/**
 * The avatar address other people's payloads carry: an https URL as stored; a stored image as its own small
 * address (`GET /api/users/{id}/avatar`, versioned so a new picture is fetched anew), so lists never carry
 * image bytes.
 */
export const publicAvatarUrl = sql<string | null>`CASE WHEN ${user.avatarUrl} LIKE 'data:%'
  THEN '/api/users/' || ${user.id} || '/avatar?v=' || strftime('%s', ${user.updatedAt}) || '-' || length(${user.avatarUrl})
  ELSE ${user.avatarUrl} END`

/** The bytes and type of a stored avatar image, or null when the user has none stored (or an https one). */
export function decodeStoredAvatar(stored: string | null): { mimeType: string; bytes: Buffer } | null {
  const match = stored ? DATA_URL.exec(stored) : null
  if (!match) return null
  return { mimeType: match[1] ?? 'application/octet-stream', bytes: Buffer.from(match[2] ?? '', 'base64') }
}
