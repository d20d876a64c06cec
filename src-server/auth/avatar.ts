import { type SQL, sql } from 'drizzle-orm'
import { type EngineDb, isPostgres } from '../platform/db'
import { sniffMimeType } from '../platform/http'
import { AuthErrors } from './auth.errors'
import { user } from './auth.tables'

/** Bounds an avatar: a picture next to a name, not a storage service. */
export const MAX_AVATAR_BYTES = 256 * 1024

/** Raster formats only (SVG can carry script), each recognised by its leading bytes. */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp'])

const DATA_URL = /^data:(image\/[a-z]+);base64,([A-Za-z0-9+/]+={0,2})$/

/**
 * Checks an avatar: a base64 `data:` URL of a PNG, JPEG, GIF or WebP image whose bytes are what it declares and at
 * most 256 KiB, stored and served by this server. A remote URL is refused: the server works offline, so it cannot
 * copy the picture, and showing it would hot-link (every viewer's address reaching that host).
 */
export async function checkAvatarUrl(value: string): Promise<string> {
  const invalid = (reason: string) => AuthErrors.INVALID_AVATAR_URL({ avatar_url: reason })
  if (!value.startsWith('data:'))
    throw invalid('must be an uploaded image (a data URL); remote image URLs are not accepted')
  const match = DATA_URL.exec(value)
  if (!match) throw invalid('must be a base64 data URL of an image')
  const [, mime = '', payload = ''] = match
  if (!IMAGE_TYPES.has(mime)) throw invalid('must be a PNG, JPEG, GIF or WebP image')
  const bytes = Buffer.from(payload, 'base64')
  if (bytes.length > MAX_AVATAR_BYTES) throw invalid(`must not be larger than ${MAX_AVATAR_BYTES / 1024} KiB`)
  if ((await sniffMimeType(bytes)) !== mime)
    throw invalid(`is not a ${mime.slice('image/'.length).toUpperCase()} image`)
  return value
}

/**
 * The avatar address other people's payloads carry: the stored image's own small address
 * (`GET /api/users/{id}/avatar`, versioned so a new picture is fetched anew), so lists never carry image bytes.
 */
export const publicAvatarUrl = sql<string | null>`CASE WHEN ${user.avatarUrl} IS NOT NULL
  THEN '/api/users/' || ${user.id} || '/avatar?v=' || strftime('%s', ${user.updatedAt}) || '-' || length(${user.avatarUrl})
  END`

/** The bytes and type of a stored avatar image, or null when the user has none. */
export function decodeStoredAvatar(stored: string | null): { mimeType: string; bytes: Buffer } | null {
  const match = stored ? DATA_URL.exec(stored) : null
  if (!match) return null
  return { mimeType: match[1] ?? 'application/octet-stream', bytes: Buffer.from(match[2] ?? '', 'base64') }
}

/** `publicAvatarUrl` in the engine of `db`'s SQL (PostgreSQL has no `strftime`; the version is the same number). */
export function publicAvatarUrlOn(db: EngineDb): SQL<string | null> {
  if (!isPostgres(db)) return publicAvatarUrl
  return sql<string | null>`CASE WHEN ${user.avatarUrl} IS NOT NULL
    THEN '/api/users/' || ${user.id} || '/avatar?v=' || floor(extract(epoch FROM ${user.updatedAt}::timestamptz))::bigint
      || '-' || length(${user.avatarUrl})
    END`
}
