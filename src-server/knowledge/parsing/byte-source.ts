import { createReadStream } from 'node:fs'
import { open } from 'node:fs/promises'
import { Readable } from 'node:stream'

/**
 * Bytes read by range, from memory or from a file: how an upload (a temporary file of up to 50 MB) is judged
 * without reading it whole, and how the worker's in-memory copy is judged by the same code.
 */
export interface ByteSource {
  size: number
  /** The bytes from `start` up to `end` (exclusive), clipped to the source. */
  read(start: number, end: number): Promise<Uint8Array>
  /** The same range as a stream, in chunks of at most 64 KB. */
  stream(start: number, end: number): Readable
}

export function bytesSource(bytes: Uint8Array): ByteSource {
  const slice = (start: number, end: number) => bytes.subarray(start, Math.min(end, bytes.length))
  return {
    size: bytes.length,
    read: async (start, end) => slice(start, end),
    stream(start, end) {
      const range = slice(start, end)
      const chunks: Uint8Array[] = []
      for (let at = 0; at < range.length; at += 65_536) chunks.push(range.subarray(at, at + 65_536))
      return Readable.from(chunks, { objectMode: false })
    },
  }
}

export function fileSource(file: string, size: number): ByteSource {
  return {
    size,
    async read(start, end) {
      const length = Math.max(0, Math.min(end, size) - start)
      const handle = await open(file, 'r')
      try {
        const buffer = Buffer.alloc(length)
        const { bytesRead } = await handle.read(buffer, 0, length, start)
        return buffer.subarray(0, bytesRead)
      } finally {
        await handle.close()
      }
    },
    stream: (start, end) =>
      end <= start ? Readable.from([]) : createReadStream(file, { start, end: Math.min(end, size) - 1 }),
  }
}
