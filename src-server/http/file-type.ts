import { fileTypeFromBuffer } from 'file-type'

/**
 * Formats file-type names apart that are, byte for byte, a format we accept: an animated PNG is a PNG whose
 * first frame every PNG reader shows, so it is accepted wherever PNG is.
 */
const SAME_FORMAT: Readonly<Record<string, string>> = { 'image/apng': 'image/png' }

/**
 * The MIME type of a file judged by its leading bytes with file-type's signatures, never by its name or the
 * client's claim; null when no known format matches.
 */
export async function sniffMimeType(bytes: Uint8Array): Promise<string | null> {
  const mime = (await fileTypeFromBuffer(bytes))?.mime
  return mime ? (SAME_FORMAT[mime] ?? mime) : null
}
