/**
 * Masking of tool traffic before it reaches a model, a message or the audit: credential values anywhere in a
 * string become "***", and values under secret-looking keys are replaced whole, at any depth.
 */
export const MASK = '***'
export const SECRET_KEY_PATTERN =
  /pass(word)?|secret|token|api[-_]?key|authorization|cookie|credential|private[-_]?key/i
export const MAX_AUDIT_PAYLOAD_BYTES = 64 * 1024

/** Replaces every occurrence of each secret value in `text` (longest first, so overlapping values mask fully). */
export function maskSecretValues(text: string, secretValues: readonly string[]): string {
  let masked = text
  for (const value of [...secretValues].filter(Boolean).sort((a, b) => b.length - a.length))
    masked = masked.split(value).join(MASK)
  return masked
}

/** Deep copy of `value` with secret-keyed fields and credential values masked. */
export function maskPayload(value: unknown, secretValues: readonly string[]): unknown {
  if (typeof value === 'string') return maskSecretValues(value, secretValues)
  if (Array.isArray(value)) return value.map((item) => maskPayload(item, secretValues))
  if (value && typeof value === 'object') {
    const copy: Record<string, unknown> = {}
    for (const [key, field] of Object.entries(value))
      copy[maskSecretValues(key, secretValues)] = SECRET_KEY_PATTERN.test(key)
        ? MASK
        : maskPayload(field, secretValues)
    return copy
  }
  return value
}

/** Cuts text to at most `maxBytes` of UTF-8 without splitting a character. */
export function truncateUtf8(text: string, maxBytes = MAX_AUDIT_PAYLOAD_BYTES): string {
  const bytes = Buffer.from(text, 'utf8')
  if (bytes.length <= maxBytes) return text
  let end = maxBytes
  // Step back over continuation bytes (10xxxxxx) to a character boundary.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--
  return bytes.subarray(0, end).toString('utf8')
}
