import { request } from 'node:http'

/**
 * A multipart upload over a real socket whose file bytes are made as they are sent (the test never holds them),
 * for uploads too large to build in memory and for watching what the server answers before the body is done.
 */
export interface StreamedFile {
  name: string
  size: number
  /** The bytes, made chunk by chunk; default the letter `a` (a text file). */
  fill?: number
}

export interface StreamedUpload {
  /** The answer, whenever it comes (before or after the body was sent whole). */
  response: Promise<{ status: number; body: Record<string, unknown> }>
  /** Body bytes written so far. */
  sent(): number
  total: number
  /** Sends the body until it is whole, or until the server has answered (then stops sending). */
  send(): Promise<void>
  /** Sends `bytes` more of the body and waits until they are written. */
  sendSome(bytes: number): Promise<void>
  abort(): void
}

const CHUNK = 256 * 1024

export function streamUpload(
  url: string,
  path: string,
  headers: Record<string, string>,
  fields: Record<string, string>,
  files: StreamedFile[],
): StreamedUpload {
  const boundary = `----streamed-${Math.random().toString(16).slice(2)}`
  const pieces: (Buffer | StreamedFile)[] = []
  for (const [name, value] of Object.entries(fields))
    pieces.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    )
  for (const file of files) {
    pieces.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n',
      ),
      file,
      Buffer.from('\r\n'),
    )
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`))
  const total = pieces.reduce((sum, piece) => sum + (Buffer.isBuffer(piece) ? piece.length : piece.size), 0)

  const target = new URL(path, url)
  const req = request(target, {
    method: 'POST',
    agent: false,
    headers: {
      ...headers,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(total),
    },
  })
  let answered = false
  const response = new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
    req.on('response', (res) => {
      answered = true
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk) => (text += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : {} }))
      res.on('error', reject)
    })
    // A server that answered and closed may reset the socket under the rest of the body: the answer counts.
    req.on('error', (error) => {
      if (!answered) reject(error)
    })
  })

  // The body as a sequence of chunks, made lazily.
  function* chunks(): Generator<Buffer> {
    for (const piece of pieces) {
      if (Buffer.isBuffer(piece)) {
        yield piece
        continue
      }
      const block = Buffer.alloc(CHUNK, piece.fill ?? 0x61)
      for (let at = 0; at < piece.size; at += CHUNK) yield block.subarray(0, Math.min(CHUNK, piece.size - at))
    }
  }
  const body = chunks()
  let pending: Buffer | null = null
  let sent = 0

  async function write(limit: number): Promise<void> {
    let written = 0
    while (written < limit && !answered && !req.destroyed) {
      let chunk = pending ?? body.next().value
      pending = null
      if (!chunk) {
        req.end()
        return
      }
      if (chunk.length > limit - written) {
        pending = chunk.subarray(limit - written)
        chunk = chunk.subarray(0, limit - written)
      }
      written += chunk.length
      sent += chunk.length
      const flushed = req.write(chunk)
      if (!flushed)
        await new Promise<void>((resolve) => {
          const done = () => {
            req.off('drain', done).off('close', done)
            resolve()
          }
          req.on('drain', done).on('close', done)
        })
    }
  }

  return {
    response,
    total,
    sent: () => sent,
    send: () => write(Number.POSITIVE_INFINITY),
    sendSome: (bytes) => write(bytes),
    abort: () => req.destroy(),
  }
}
