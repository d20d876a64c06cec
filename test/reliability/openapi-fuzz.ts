import type { InjectOptions } from 'fastify'

/** One operation of the published OpenAPI document. */
export interface Operation {
  method: string
  path: string
  public: boolean
  /** The permission the route demands beyond a valid token (`x-permission`), if any. */
  permission: string | null
  multipart: boolean
  parameters: { name: string; in: string; schema?: Record<string, unknown> }[]
  body: Record<string, unknown> | null
}

type OpenApi = {
  paths: Record<
    string,
    Record<
      string,
      {
        'x-permission'?: string
        security?: unknown[]
        parameters?: Operation['parameters']
        requestBody?: { content?: Record<string, { schema?: Record<string, unknown> }> }
      }
    >
  >
}

export function operationsOf(spec: OpenApi): Operation[] {
  const operations: Operation[] = []
  for (const [path, methods] of Object.entries(spec.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue
      const content = operation.requestBody?.content ?? {}
      operations.push({
        method: method.toUpperCase(),
        path,
        public: !operation.security,
        permission: operation['x-permission'] ?? null,
        multipart: Boolean(content['multipart/form-data']),
        parameters: operation.parameters ?? [],
        body: content['application/json']?.schema ?? null,
      })
    }
  }
  return operations
}

/** Hostile values: wrong types, huge and odd strings, traversal, SQL and FTS syntax, unicode edge cases. */
export const HOSTILE_STRINGS = [
  '',
  '../../../../etc/passwd',
  '..%2F..%2Fsecret.key',
  "' OR 1=1 --",
  '"; DROP TABLE user; --',
  'NEAR("a" "b") AND (* OR "',
  '"unterminated',
  'title:* ^ -',
  '\u0000\u0001\u202e\ud800',
  '𝒳🙂👩‍👩‍👧‍👦\uFEFF',
  'x'.repeat(100_000),
]

const HOSTILE_VALUES: unknown[] = [
  null,
  true,
  -1,
  1.5,
  1e308,
  [],
  {},
  ...HOSTILE_STRINGS.slice(0, 6),
  'x'.repeat(20_000),
]

/** Percent-encodes a value; a lone surrogate (which has no UTF-8 form) goes out as invalid UTF-8 bytes. */
const encode = (value: string) => {
  try {
    return encodeURIComponent(value)
  } catch {
    return '%ED%A0%80'
  }
}

export const fillPath = (path: string, value: string) => path.replace(/\{[^}]+\}/g, encode(value))

function deepJson(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`
}

/** A bounded set of hostile requests for one operation (same set every run). */
export function hostileRequests(
  operation: Operation,
  validId: string,
  headers: Record<string, string>,
): InjectOptions[] {
  const requests: InjectOptions[] = []
  const method = operation.method as InjectOptions['method']
  const url = fillPath(operation.path, validId)
  for (const id of ['not-a-uuid', '../../etc/passwd', "1' OR '1'='1", 'x'.repeat(5000)])
    if (operation.path.includes('{')) requests.push({ method, url: fillPath(operation.path, id), headers })
  for (const parameter of operation.parameters.filter((p) => p.in === 'query'))
    for (const value of [...HOSTILE_STRINGS.slice(1, 9), '-5', '1e9', 'true'])
      requests.push({ method, url: `${url}?${parameter.name}=${encode(value)}`, headers })
  if (method !== 'GET' && method !== 'DELETE') {
    const json = { ...headers, 'content-type': 'application/json' }
    requests.push({ method, url, headers: json, payload: '{"broken": ' })
    requests.push({ method, url, headers: json, payload: deepJson(5000) })
    requests.push({ method, url, headers: json, payload: '[]' })
    requests.push({ method, url, headers: json, payload: 'null' })
    requests.push({
      method,
      url,
      headers: { ...headers, 'content-type': 'text/plain' },
      payload: 'plain text',
    })
    const properties = Object.keys((operation.body?.properties as Record<string, unknown> | undefined) ?? {})
    for (const property of properties)
      for (const value of HOSTILE_VALUES)
        requests.push({ method, url, headers: json, payload: JSON.stringify({ [property]: value }) })
    requests.push({
      method,
      url,
      headers: json,
      payload: JSON.stringify({ unexpected_field: 'x', __proto__: { polluted: true } }),
    })
    if (operation.multipart) {
      const boundary = '----switchboard-fuzz'
      const part = (name: string, filename: string, content: string) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n${content}\r\n`
      for (const filename of ['../../../etc/passwd', 'a\u0000b.pdf', 'x'.repeat(1000), 'evil.pdf'])
        requests.push({
          method,
          url,
          headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
          payload: `${part('file', filename, '%PDF-1.7 not really')}--${boundary}--\r\n`,
        })
      requests.push({
        method,
        url,
        headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: `--${boundary}\r\nbroken`,
      })
    }
  }
  return requests
}
