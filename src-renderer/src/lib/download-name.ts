import { parse } from 'content-disposition'

/**
 * The file name a download's Content-Disposition gives, or null. content-disposition prefers the UTF-8
 * `filename*` over the ASCII fallback the server also sends, so accented and non-Latin names survive.
 */
export function downloadName(response: Response): string | null {
  const header = response.headers.get('content-disposition')
  if (!header) return null
  try {
    return parse(header).parameters.filename ?? null
  } catch {
    return null // A malformed header names nothing; the caller's fallback applies.
  }
}
