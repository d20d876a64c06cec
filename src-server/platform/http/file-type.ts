import { fileTypeFromBuffer, fileTypeFromFile } from 'file-type'

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
  return sameFormat((await fileTypeFromBuffer(bytes))?.mime)
}

/** `sniffMimeType` of a file on disk, reading only the bytes its signatures need. */
export async function sniffFileMimeType(file: string): Promise<string | null> {
  return sameFormat((await fileTypeFromFile(file))?.mime)
}

const sameFormat = (mime: string | undefined) => (mime ? (SAME_FORMAT[mime] ?? mime) : null)
