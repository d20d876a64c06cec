/**
 * Reads a ZIP's central directory (without inflating anything) so a docx can be refused before a library
 * decompresses it: too many entries, too much declared uncompressed data, or a compression ratio no office
 * document has are the marks of a zip bomb.
 */
export interface ZipEntry {
  name: string
  compressedSize: number
  uncompressedSize: number
}

export const ZIP_LIMITS = { maxEntries: 2_000, maxTotalBytes: 200 * 1024 * 1024, maxRatio: 200 }

const EOCD_SIGNATURE = 0x06054b50
const CENTRAL_SIGNATURE = 0x02014b50

export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04
}

/** The central directory's entries, or null when the bytes are not a readable ZIP (or use ZIP64). */
export function readZipEntries(bytes: Uint8Array): ZipEntry[] | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const lowest = Math.max(0, bytes.length - 22 - 0xffff)
  let eocd = -1
  for (let at = bytes.length - 22; at >= lowest; at--) {
    if (view.getUint32(at, true) === EOCD_SIGNATURE) {
      eocd = at
      break
    }
  }
  if (eocd < 0) return null
  const count = view.getUint16(eocd + 10, true)
  const offset = view.getUint32(eocd + 16, true)
  if (count === 0xffff || offset === 0xffffffff) return null
  const entries: ZipEntry[] = []
  let at = offset
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== CENTRAL_SIGNATURE) return null
    const compressedSize = view.getUint32(at + 20, true)
    const uncompressedSize = view.getUint32(at + 24, true)
    const nameLength = view.getUint16(at + 28, true)
    const extraLength = view.getUint16(at + 30, true)
    const commentLength = view.getUint16(at + 32, true)
    if (at + 46 + nameLength > bytes.length) return null
    const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength))
    entries.push({ name, compressedSize, uncompressedSize })
    at += 46 + nameLength + extraLength + commentLength
  }
  return entries
}

/** A reason to refuse the archive, or null when its declared sizes are those of an ordinary document. */
export function zipBombReason(entries: ZipEntry[], limits = ZIP_LIMITS): string | null {
  if (entries.length > limits.maxEntries) return `it has ${entries.length} entries`
  let total = 0
  for (const entry of entries) {
    if (entry.uncompressedSize === 0xffffffff) return 'it uses ZIP64 sizes'
    total += entry.uncompressedSize
    if (
      entry.uncompressedSize > 1024 * 1024 &&
      entry.uncompressedSize > entry.compressedSize * limits.maxRatio
    )
      return `${entry.name} expands more than ${limits.maxRatio} times`
  }
  if (total > limits.maxTotalBytes) return `it expands to ${Math.round(total / 1024 ** 2)} MB`
  return null
}
