/**
 * Masking of tool traffic before it reaches a model, a message or the audit: credential values anywhere in a
 * string become "***", and values under secret-looking keys are replaced whole, at any depth.
 */
export const MASK = '***'
export const SECRET_KEY_PATTERN =
  /pass(word)?|secret|token|api[-_]?key|authorization|cookie|credential|private[-_]?key/i
export const MAX_AUDIT_PAYLOAD_BYTES = 64 * 1024

/** Base64 fragments shorter than this are not masked on their own: they would match ordinary text. */
const MIN_FRAGMENT = 8

/**
 * The base64 text a value shows as, wherever it sits in a longer encoded string (`user:<secret>` in a Basic
 * header): for each of the three byte offsets, the characters that depend on the value's bytes alone.
 */
function base64Forms(bytes: Buffer): string[] {
  const whole = bytes.toString('base64')
  const forms = [whole, whole.replace(/=+$/, '')]
  for (const offset of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64')
    const fragment = encoded.slice(offset ? 4 : 0, Math.floor((offset + bytes.length) / 3) * 4)
    if (fragment.length >= MIN_FRAGMENT) forms.push(fragment)
  }
  return forms.flatMap((form) => [form, form.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')])
}

/**
 * Every common way a value is written: as it is, JSON-escaped (also with non-ASCII as \uXXXX), URL- and
 * form-encoded (either hex case), hex, base64 and base64url. Longest first, so overlapping values mask fully.
 */
export function secretForms(secretValues: readonly string[]): string[] {
  const forms = new Set<string>()
  for (const value of secretValues) {
    if (!value) continue
    const bytes = Buffer.from(value, 'utf8')
    const json = JSON.stringify(value).slice(1, -1)
    const url = encodeURIComponent(value)
    for (const form of [
      value,
      json,
      json.replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`),
      url,
      url.replace(/%[0-9A-F]{2}/g, (percent) => percent.toLowerCase()),
      new URLSearchParams({ v: value }).toString().slice(2),
      bytes.toString('hex'),
      bytes.toString('hex').toUpperCase(),
      ...base64Forms(bytes),
    ])
      if (form) forms.add(form)
  }
  return [...forms].sort((a, b) => b.length - a.length)
}

function replaceForms(text: string, forms: readonly string[]): string {
  let masked = text
  for (const form of forms) masked = masked.split(form).join(MASK)
  return masked
}

/** Replaces every occurrence of each secret value, in any of its common encodings, in `text`. */
export function maskSecretValues(text: string, secretValues: readonly string[]): string {
  return replaceForms(text, secretForms(secretValues))
}

function maskDeep(value: unknown, forms: readonly string[], secretKeys: boolean): unknown {
  if (typeof value === 'string') return replaceForms(value, forms)
  if (Array.isArray(value)) return value.map((item) => maskDeep(item, forms, secretKeys))
  if (value && typeof value === 'object') {
    const copy: Record<string, unknown> = {}
    for (const [key, field] of Object.entries(value))
      copy[replaceForms(key, forms)] =
        secretKeys && SECRET_KEY_PATTERN.test(key) ? MASK : maskDeep(field, forms, secretKeys)
    return copy
  }
  return value
}

/** Deep copy of `value` with secret-keyed fields and credential values masked (what the call audit stores). */
export function maskPayload(value: unknown, secretValues: readonly string[]): unknown {
  return maskDeep(value, secretForms(secretValues), true)
}

/**
 * Deep copy of `value` with credential values masked in every key and string, keys otherwise kept: for what a
 * tool server describes itself with (an input schema's `api_key` property is a name, not a secret).
 */
export function maskSecretsIn<T>(value: T, secretValues: readonly string[]): T {
  return maskDeep(value, secretForms(secretValues), false) as T
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
