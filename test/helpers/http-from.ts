import http from 'node:http'

export interface JsonAnswer {
  status: number
  body: { error?: { code: string; details: Record<string, unknown> } } & Record<string, unknown>
}

/**
 * A JSON POST over a real connection whose client end is bound to `from` (a loopback address such as
 * 127.0.0.41): the server sees each address as a distinct client, as it would see hosts on a LAN. `headers`
 * carry a caller's bearer token where the route needs one.
 */
export function postFrom(
  base: string,
  from: string,
  path: string,
  payload: unknown,
  headers: Record<string, string> = {},
): Promise<JsonAnswer> {
  const url = new URL(path, base)
  const body = JSON.stringify(payload)
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress: from,
        agent: false,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          resolve({ status: response.statusCode ?? 0, body: text ? JSON.parse(text) : {} })
        })
        response.on('error', reject)
      },
    )
    request.on('error', reject)
    request.end(body)
  })
}
