import { fileTypeFromBuffer } from 'file-type'

/**
 * The MIME type of a file judged by its leading bytes with file-type's signatures, never by its name or the
 * client's claim; null when no known format matches.
 */
export async function sniffMimeType(bytes: Uint8Array): Promise<string | null> {
  return (await fileTypeFromBuffer(bytes))?.mime ?? null
}
