import { createHash, randomUUID } from 'node:crypto'
import { createWriteStream, mkdirSync, rmSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import path from 'node:path'
import { Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import multipart, { type MultipartFile } from '@fastify/multipart'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { CommonErrors } from '../errors'
import { multipartFileName } from './multipart'

declare module 'fastify' {
  interface FastifyRequest {
    /** Reads the multipart body of an upload route, its files streamed to temporary files (`http/uploads.ts`). */
    receiveUpload<T = undefined>(options?: ReceiveOptions<T>): Promise<ReceivedUpload<T>>
  }
}

export interface UploadLimits {
  /** The largest file one part may carry. */
  maxFileBytes: number
  /** The most file bytes one request may carry, all its parts together. */
  maxRequestBytes: number
  /** Uploads one user may have in flight at once; one more answers 429 before its body is read. */
  maxInFlightPerUser: number
}

/** One file of an upload, already on disk, hashed and counted while it arrived. */
export interface ReceivedFile {
  fieldName: string
  fileName: string
  /** A temporary file, deleted when the answer is sent unless the blob store adopted it. */
  path: string
  size: number
  sha256: string
}

export interface ReceivedUpload<T = undefined> {
  fields: Record<string, string>
  files: ReceivedFile[]
  /** What `authorize` returned. */
  authorized: T
}

export interface ReceiveOptions<T> {
  /**
   * Runs once with the fields sent ahead of the first file, before a byte of that file is read (or at the end
   * when no file came): checks that depend on a field (which agent) refuse there, so a refused caller's file is
   * never read. It may answer asynchronously (a read of a converted repository).
   */
  authorize?(fields: Record<string, string>): T | PromiseLike<T>
}

/**
 * Bounded memory for uploads: a part's bytes go to a temporary file under `tempDir` (beside the blob store, so
 * adopting one is a rename) while they are hashed and counted; a request stops at `maxRequestBytes`, a user at
 * `maxInFlightPerUser` uploads at once. One gate serves every upload route, so the per-user count is shared.
 */
export class UploadGate {
  private readonly inFlight = new Map<string, number>()

  constructor(
    readonly limits: UploadLimits,
    readonly tempDir: string,
    /** The caller's id; throws 401 for a request without one (every upload route is private). */
    readonly userOf: (request: FastifyRequest) => string,
  ) {
    // Whatever a crash left behind is garbage: no upload survives a restart.
    rmSync(tempDir, { recursive: true, force: true })
    mkdirSync(tempDir, { recursive: true, mode: 0o700 })
  }

  /** Takes a slot for the user, or refuses; the returned function gives it back (once). */
  enter(userId: string): () => void {
    const count = this.inFlight.get(userId) ?? 0
    if (count >= this.limits.maxInFlightPerUser)
      throw CommonErrors.TOO_MANY_UPLOADS({ max_in_flight: this.limits.maxInFlightPerUser })
    this.inFlight.set(userId, count + 1)
    let released = false
    return () => {
      if (released) return
      released = true
      const left = (this.inFlight.get(userId) ?? 1) - 1
      if (left > 0) this.inFlight.set(userId, left)
      else this.inFlight.delete(userId)
    }
  }

  async receive<T>(
    request: FastifyRequest,
    temps: string[],
    options: ReceiveOptions<T>,
  ): Promise<ReceivedUpload<T>> {
    if (!request.isMultipart()) throw CommonErrors.UNSUPPORTED_MEDIA_TYPE({ expected: 'multipart/form-data' })
    const fields: Record<string, string> = {}
    const files: ReceivedFile[] = []
    let authorized: { value: T } | null = null
    const authorize = async () => ({
      value: options.authorize ? await options.authorize(fields) : (undefined as T),
    })
    const budget = { left: this.limits.maxRequestBytes }
    for await (const part of request.parts()) {
      if (part.type !== 'file') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value
        continue
      }
      authorized ??= await authorize()
      const target = path.join(this.tempDir, `${randomUUID()}.part`)
      temps.push(target)
      files.push(await this.store(part, target, budget))
    }
    authorized ??= await authorize()
    return { fields, files, authorized: authorized.value }
  }

  private async store(part: MultipartFile, target: string, budget: { left: number }): Promise<ReceivedFile> {
    const fileName = multipartFileName(part.filename) || 'upload'
    const hash = createHash('sha256')
    let size = 0
    const { maxFileBytes, maxRequestBytes } = this.limits
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length
        budget.left -= chunk.length
        if (size > maxFileBytes) return callback(tooLarge(fileName, maxFileBytes))
        if (budget.left < 0)
          return callback(
            CommonErrors.PAYLOAD_TOO_LARGE(
              { max_bytes: maxRequestBytes },
              `The upload is larger than the ${Math.round(maxRequestBytes / 1024 / 1024)} MB one request may carry.`,
            ),
          )
        hash.update(chunk)
        callback(null, chunk)
      },
    })
    await pipeline(part.file, counter, createWriteStream(target, { mode: 0o600 }))
    // Busboy's own per-file limit truncates the part rather than failing the stream.
    if (part.file.truncated) throw tooLarge(fileName, maxFileBytes)
    return { fieldName: part.fieldname, fileName, path: target, size, sha256: hash.digest('hex') }
  }
}

const tooLarge = (fileName: string, maxBytes: number) =>
  CommonErrors.FILE_TOO_LARGE(
    { file_name: fileName, max_bytes: maxBytes },
    `${fileName} is larger than the ${Math.round(maxBytes / 1024 / 1024)} MB one file may have.`,
  )

/**
 * Multipart bodies for the routes of the scope it is registered in: register it inside a plugin that holds only
 * upload routes (@fastify/multipart adds hooks to every route of its scope). Before a body is read (preHandler,
 * after authentication and the route's permission), the caller takes one of their upload slots; when the answer
 * is sent the slot is given back and the request's temporary files are deleted. An answer sent before the body
 * was read whole closes the connection, so the rest of a refused upload is never read. Any other route answers a
 * multipart body 415, as it answers any content type it does not read.
 */
export const multipartBodies = fp(async (app: FastifyInstance, { gate }: { gate: UploadGate }) => {
  const { maxFileBytes } = gate.limits
  await app.register(multipart, { limits: { fileSize: maxFileBytes, files: 20, fields: 50, parts: 70 } })
  const temps = new WeakMap<FastifyRequest, string[]>()
  const releases = new WeakMap<FastifyRequest, () => void>()

  app.decorateRequest('receiveUpload', function <T>(this: FastifyRequest, options: ReceiveOptions<T> = {}) {
    const files = temps.get(this) ?? []
    temps.set(this, files)
    return gate.receive(this, files, options)
  })

  const finish = (request: FastifyRequest) => {
    releases.get(request)?.()
    releases.delete(request)
    for (const file of temps.get(request) ?? []) void rm(file, { force: true })
    temps.delete(request)
  }
  app.addHook('preHandler', (request, reply, done) => {
    try {
      releases.set(request, gate.enter(gate.userOf(request)))
    } catch (error) {
      return done(error as Error)
    }
    // 'close' comes for every answer and for a client that went away; onResponse covers injected requests.
    reply.raw.once('close', () => finish(request))
    done()
  })
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.raw.complete === false) reply.header('connection', 'close')
    done(null, payload)
  })
  app.addHook('onResponse', (request, _reply, done) => {
    finish(request)
    done()
  })
})
