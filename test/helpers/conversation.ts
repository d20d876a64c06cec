import http from 'node:http'
import { sql } from 'drizzle-orm'
import { createParser } from 'eventsource-parser'
import { afterEach, beforeEach } from 'vitest'
import WebSocket from 'ws'
import { startTestServer, type TestServer } from './server'

export type SseEvent = { type: string; [key: string]: unknown }

/** Parses the JSON `data` of every event in an SSE body; comment lines (`: ping`) are skipped. */
export function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = []
  sseParser((event) => events.push(event)).feed(text)
  return events
}

function sseParser(onEvent: (event: SseEvent) => void) {
  return createParser({ onEvent: (message) => onEvent(JSON.parse(message.data) as SseEvent) })
}

/** POST /stream over real HTTP and read the whole event stream. */
export async function stream(
  base: string,
  headers: Record<string, string>,
  body: Record<string, unknown>,
): Promise<{ status: number; contentType: string | null; events: SseEvent[] }> {
  const response = await fetch(`${base}/stream`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    events: parseSse(await response.text()),
  }
}

/**
 * POST /stream and hand each event to `onEvent` as it arrives; returning true stops reading and destroys the
 * connection (the client leaves). Plain `node:http`, so the test controls the one socket exactly.
 */
export function streamUntil(
  base: string,
  headers: Record<string, string>,
  body: Record<string, unknown>,
  onEvent: (event: SseEvent) => boolean,
): Promise<SseEvent[]> {
  return new Promise((resolve, reject) => {
    const events: SseEvent[] = []
    const request = http.request(`${base}/stream`, {
      method: 'POST',
      agent: false,
      headers: { ...headers, 'content-type': 'application/json' },
    })
    request.on('error', reject)
    request.on('response', (response) => {
      let left = false
      const parser = sseParser((event) => {
        if (left) return
        events.push(event)
        if (onEvent(event)) {
          left = true
          request.destroy()
          resolve(events)
        }
      })
      response.setEncoding('utf8')
      response.on('data', (text: string) => parser.feed(text))
      response.on('end', () => resolve(events))
    })
    request.end(JSON.stringify(body))
  })
}

/**
 * GET a long-lived event stream (a feed) over real HTTP: the events as they arrive, and `ended` once the server ends
 * it (or it fails). `close` leaves it from the client's side.
 */
export async function openEventStream(
  base: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; events: SseEvent[]; ended: Promise<void>; close(): void }> {
  const leave = new AbortController()
  const response = await fetch(`${base}${path}`, { headers, signal: leave.signal })
  const events: SseEvent[] = []
  const parser = sseParser((event) => events.push(event))
  const ended = (async () => {
    if (!response.body) return
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
    for (;;) {
      const { value, done } = await reader.read()
      if (done) return
      parser.feed(value)
    }
  })().catch(() => undefined)
  return { status: response.status, events, ended, close: () => leave.abort() }
}

export interface TestSocket {
  ws: WebSocket
  received: Record<string, unknown>[]
  /** Waits for the first message (from the start) that matches and was not consumed before. */
  next(
    match: (message: Record<string, unknown>) => boolean,
    timeoutMs?: number,
  ): Promise<Record<string, unknown>>
  send(payload: unknown): void
  closed: Promise<{ code: number; reason: string }>
}

export async function connect(base: string, path: string, token: string): Promise<TestSocket> {
  const separator = path.includes('?') ? '&' : '?'
  const ws = new WebSocket(
    `${base.replace('http', 'ws')}${path}${separator}access_token=${encodeURIComponent(token)}`,
  )
  const received: Record<string, unknown>[] = []
  const consumed = new Set<number>()
  const waiters: (() => void)[] = []
  ws.on('message', (data) => {
    received.push(JSON.parse(String(data)))
    for (const wake of waiters.splice(0)) wake()
  })
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
  )
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve())
    ws.once('error', reject)
  })
  return {
    ws,
    received,
    closed,
    send: (payload) => ws.send(typeof payload === 'string' ? payload : JSON.stringify(payload)),
    next(match, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no matching message; got ${JSON.stringify(received)}`)),
          timeoutMs,
        )
        const look = () => {
          const index = received.findIndex((message, i) => !consumed.has(i) && match(message))
          if (index === -1) return waiters.push(look)
          consumed.add(index)
          clearTimeout(timer)
          resolve(received[index] as Record<string, unknown>)
        }
        look()
      })
    },
  }
}

/**
 * A real server listening on loopback for each test of the file; `onStart` hands the file its server and base URL.
 * Returns `open(path, token)`: a WebSocket to that server, terminated after the test with the server.
 */
export function listeningServerEachTest(onStart: (server: TestServer, base: string) => void) {
  let server: TestServer | undefined
  let base = ''
  const sockets: TestSocket[] = []
  beforeEach(async () => {
    server = await startTestServer()
    base = await server.listen()
    onStart(server, base)
  })
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.ws.terminate()
    await server?.close()
  })
  return async function open(path: string, token: string): Promise<TestSocket> {
    const socket = await connect(base, path, token)
    sockets.push(socket)
    return socket
  }
}

export function tokenOf(headers: Record<string, string>): string {
  return (headers.authorization ?? '').replace('Bearer ', '')
}

export async function configureFakeProvider(
  server: TestServer,
  baseUrl: string,
  models = ['model-a', 'model-b'],
) {
  const response = await server.app.inject({
    method: 'PUT',
    url: '/api/admin/model-providers',
    headers: await server.adminHeaders(),
    payload: { providers: [{ id: 'fake', base_url: baseUrl, api_key: 'sk-test-secret-key', models }] },
  })
  if (response.statusCode !== 200) throw new Error(`configure provider failed: ${response.body}`)
  return response
}

/**
 * Rows of a raw query with `?` parameters on the converted domains' engine (SQLite, or PostgreSQL in the
 * `postgres` project): write SQL both read (`"user"` quoted; PostgreSQL gives bigint columns as text, jsonb parsed).
 */
export function storedRows<T>(server: TestServer, text: string, ...params: unknown[]): Promise<T[]> {
  const [first = '', ...rest] = text.split('?')
  const query = sql.join(
    [sql.raw(first), ...rest.flatMap((part, i) => [sql`${params[i]}`, sql.raw(part)])],
    sql``,
  )
  return server.rows<T>(query)
}

export async function storedRow<T>(
  server: TestServer,
  text: string,
  ...params: unknown[]
): Promise<T | undefined> {
  return (await storedRows<T>(server, text, ...params))[0]
}

/** The `n` of a query like `SELECT count(*) n FROM ...` (a number on either engine). */
export async function count(server: TestServer, text: string, ...params: unknown[]): Promise<number> {
  return Number((await storedRow<{ n: unknown }>(server, text, ...params))?.n ?? 0)
}

/** How many messages of `role` the session has stored. */
export const storedMessageCount = (server: TestServer, sessionId: string, role: string): Promise<number> =>
  count(server, 'SELECT count(*) n FROM chat_message WHERE session_id = ? AND role = ?', sessionId, role)

/** A JSON column as stored: text on SQLite, already parsed from jsonb on PostgreSQL. */
export const storedJson = (value: unknown): unknown => (typeof value === 'string' ? JSON.parse(value) : value)

/** A JSON request over real HTTP: its status and parsed body (loosely typed, as `inject`'s is). */
export async function request(
  base: string,
  headers: Record<string, string>,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: ReturnType<typeof JSON.parse> }> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  })
  const text = await response.text()
  return { status: response.status, body: text ? JSON.parse(text) : {} }
}
