import type { FastifyRequest } from 'fastify'
import { CommonErrors } from '../errors'
import { multipartFileName } from '../http'
import { AgentRunErrors } from './agent-runs.errors'

export interface Upload {
  fields: Record<string, string>
  file: { fieldName: string; fileName: string; bytes: Buffer } | null
}

/** Reads a multipart body: its text fields and its one file, whole (the upload scope's multipart limits cap the size: `http/uploads.ts`). */
export async function readUpload(request: FastifyRequest): Promise<Upload> {
  if (!request.isMultipart()) throw CommonErrors.UNSUPPORTED_MEDIA_TYPE({ expected: 'multipart/form-data' })
  const upload: Upload = { fields: {}, file: null }
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      const bytes = await part.toBuffer().catch((error: { code?: string }) => {
        throw error.code === 'FST_REQ_FILE_TOO_LARGE' ? CommonErrors.FILE_TOO_LARGE() : error
      })
      if (!upload.file)
        upload.file = {
          fieldName: part.fieldname,
          fileName: multipartFileName(part.filename) || 'upload',
          bytes,
        }
    } else if (typeof part.value === 'string') {
      upload.fields[part.fieldname] = part.value
    }
  }
  return upload
}

export function requireField(upload: Upload, name: string): string {
  const value = upload.fields[name]?.trim()
  if (!value) throw AgentRunErrors.MISSING_UPLOAD_FIELD({ field: name })
  return value
}
