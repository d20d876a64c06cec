import { createInflateRaw } from 'node:zlib'
import type { ByteSource } from './byte-source'

/**
 * Guards a ZIP (a docx) before a library decompresses it. The central directory is read first: too many
 * entries, too much declared data, or a ratio no office document has are refused without inflating anything.
 * A directory can lie, so every entry is then inflated as a stream and its bytes counted and dropped: an entry
 * that holds more than it declares, or an archive past the budget, is refused as soon as the count says so.
 * After the guard, a reader that trusts the directory (mammoth's jszip) inflates no more than was counted.
 */
export interface ZipEntry {
  name: string
  /** 0 stored, 8 deflate; nothing else appears in an office document. */
  method: number
  compressedSize: number
  uncompressedSize: number
  localHeaderOffset: number
}

export const ZIP_LIMITS = { maxEntries: 2_000, maxTotalBytes: 200 * 1024 * 1024, maxRatio: 200 }

const EOCD_SIGNATURE = 0x06054b50
const CENTRAL_SIGNATURE = 0x02014b50
const LOCAL_SIGNATURE = 0x04034b50

export async function isZip(source: ByteSource): Promise<boolean> {
  const head = await source.read(0, 4)
  return head.length === 4 && head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04
}

const viewOf = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)

/** The central directory's entries, or null when the source is not a readable ZIP (or uses ZIP64). */
export async function readZipEntries(source: ByteSource): Promise<ZipEntry[] | null> {
  const tailStart = Math.max(0, source.size - 22 - 0xffff)
  const tail = await source.read(tailStart, source.size)
  const tailView = viewOf(tail)
  let eocd = -1
  for (let at = tail.length - 22; at >= 0; at--) {
    if (tailView.getUint32(at, true) === EOCD_SIGNATURE) {
      eocd = at
      break
    }
  }
  if (eocd < 0) return null
  const count = tailView.getUint16(eocd + 10, true)
  const directorySize = tailView.getUint32(eocd + 12, true)
  const offset = tailView.getUint32(eocd + 16, true)
  if (count === 0xffff || offset === 0xffffffff || offset + directorySize > source.size) return null
  const directory = await source.read(offset, offset + directorySize)
  const view = viewOf(directory)
  const entries: ZipEntry[] = []
  let at = 0
  for (let i = 0; i < count; i++) {
    if (at + 46 > directory.length || view.getUint32(at, true) !== CENTRAL_SIGNATURE) return null
    const nameLength = view.getUint16(at + 28, true)
    const extraLength = view.getUint16(at + 30, true)
    const commentLength = view.getUint16(at + 32, true)
    if (at + 46 + nameLength > directory.length) return null
    entries.push({
      name: new TextDecoder().decode(directory.subarray(at + 46, at + 46 + nameLength)),
      method: view.getUint16(at + 10, true),
      compressedSize: view.getUint32(at + 20, true),
      uncompressedSize: view.getUint32(at + 24, true),
      localHeaderOffset: view.getUint32(at + 42, true),
    })
    at += 46 + nameLength + extraLength + commentLength
  }
  return entries
}

/** A reason to refuse the archive judged by its directory alone, or null when the declared sizes are ordinary. */
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

/**
 * The directory's judgement, then every entry inflated and counted: a reason to refuse, or null. No more than
 * one chunk past an entry's declared size, and never past `maxTotalBytes` in all, is ever inflated.
 */
export async function zipGuardReason(
  source: ByteSource,
  entries: ZipEntry[],
  limits = ZIP_LIMITS,
): Promise<string | null> {
  const declared = zipBombReason(entries, limits)
  if (declared) return declared
  let budget = limits.maxTotalBytes
  for (const entry of entries) {
    const counted = await inflatedSize(source, entry, Math.min(entry.uncompressedSize, budget))
    if (typeof counted === 'string') return counted
    budget -= counted
  }
  return null
}

/** The entry's inflated size, or a reason once it passes `allowed` or cannot be inflated. */
async function inflatedSize(source: ByteSource, entry: ZipEntry, allowed: number): Promise<number | string> {
  const header = await source.read(entry.localHeaderOffset, entry.localHeaderOffset + 30)
  if (header.length < 30 || viewOf(header).getUint32(0, true) !== LOCAL_SIGNATURE)
    return `${entry.name} has no readable local header`
  const dataStart =
    entry.localHeaderOffset + 30 + viewOf(header).getUint16(26, true) + viewOf(header).getUint16(28, true)
  const tooLarge = `${entry.name} holds more than the ${entry.uncompressedSize} bytes it declares`
  if (entry.method === 0) return entry.compressedSize > allowed ? tooLarge : entry.compressedSize
  if (entry.method !== 8) return `${entry.name} uses an unknown compression method`
  const compressed = source.stream(dataStart, dataStart + entry.compressedSize)
  const inflater = createInflateRaw()
  compressed.on('error', (error) => inflater.destroy(error))
  compressed.pipe(inflater)
  let size = 0
  try {
    for await (const chunk of inflater) {
      size += (chunk as Buffer).length
      if (size > allowed) return tooLarge
    }
  } catch {
    return `${entry.name} is not valid compressed data`
  } finally {
    compressed.destroy()
    inflater.destroy()
  }
  return size
}
