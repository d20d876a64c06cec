import { AgentRunErrors } from './runs.errors'

/** A text field of an upload (fields precede the file, so this is read before the file is). */
export function requireField(fields: Record<string, string>, name: string): string {
  const value = fields[name]?.trim()
  if (!value) throw AgentRunErrors.MISSING_UPLOAD_FIELD({ field: name })
  return value
}
