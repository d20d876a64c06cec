import type { ErrorEnvelope } from '@server/platform/http/common.schemas'
import { useNotifications } from '../components/ui/notifications'

/** An API failure as the server described it; screens switch on `code`, never on the message text. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message)
  }
}

let token: string | null = null
let onUnauthorized: () => void = () => {}

export function setApiToken(value: string | null) {
  token = value
}

export function setUnauthorizedHandler(handler: () => void) {
  onUnauthorized = handler
}

/** Bearer header for the one reader that fetches by itself (pdf.js). */
export const authHeaders = (): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {})

/** The signed-in token, for WebSocket URLs (`access_token`). */
export const currentToken = () => token

/** The server's base URL: same origin in a browser; the preload names it in the desktop app. */
export const apiBase = () => window.switchboard?.serverUrl ?? ''

interface RequestOptions {
  body?: unknown
  query?: Record<string, string | number | boolean | undefined>
  headers?: Record<string, string>
  /** Ends the request, and a body still being read, when aborted. */
  signal?: AbortSignal
}

const isJson = (response: Response) =>
  Boolean(response.headers.get('content-type')?.includes('application/json'))

/** Sends a request; no answer, or an error status, is an ApiError in the server's words. */
async function send(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
  const url = new URL(apiBase() + path, window.location.origin)
  for (const [key, value] of Object.entries(options.query ?? {}))
    if (value !== undefined && value !== '') url.searchParams.set(key, String(value))
  const headers: Record<string, string> = { ...options.headers }
  if (token) headers.authorization = `Bearer ${token}`
  let body: BodyInit | undefined
  if (options.body instanceof FormData) body = options.body
  else if (options.body !== undefined) {
    headers['content-type'] = 'application/json'
    body = JSON.stringify(options.body)
  }
  let response: Response
  try {
    response = await fetch(url, { method, headers, body, signal: options.signal })
  } catch (caught) {
    // Aborted by the caller: not the server's failure.
    if (options.signal?.aborted) throw caught
    throw new ApiError(0, 'NETWORK_ERROR', 'The server cannot be reached. Is Switchboard running?')
  }
  if (response.ok) return response
  const envelope = isJson(response)
    ? ((await response.json().catch(() => null)) as ErrorEnvelope | null)
    : null
  if (response.status === 401 && token) onUnauthorized()
  throw new ApiError(
    response.status,
    envelope?.error.code ?? 'HTTP_ERROR',
    envelope?.error.message ?? `The server answered ${response.status}.`,
    envelope?.error.details ?? {},
  )
}

async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const sentAs = token
  const response = await send(method, path, options)
  const answer = (response.status === 204 ? undefined : isJson(response) ? await response.json() : null) as T
  refuseIfSignedOut(sentAs)
  return answer
}

/**
 * An answer for a user who signed out meanwhile never reaches the stores, which are emptied for the next user.
 * A request sent before anyone signed in (the login itself, the network card) belongs to nobody and is kept.
 */
function refuseIfSignedOut(sentAs: string | null) {
  if (sentAs !== null && token !== sentAs)
    throw new ApiError(401, 'SIGNED_OUT', 'You signed out before the server answered.')
}

/** The answer itself, refused like any other when its user signed out before it arrived. */
async function sendRaw(method: string, path: string, options?: RequestOptions): Promise<Response> {
  const sentAs = token
  const response = await send(method, path, options)
  refuseIfSignedOut(sentAs)
  return response
}

/**
 * A failure the user should hear about from a toast: a 401 has already signed them out, and the sign-in page
 * says why.
 */
export function notifyFailure(caught: unknown) {
  if (caught instanceof ApiError && caught.status !== 401)
    useNotifications.getState().push({ kind: 'error', text: caught.message })
}

/**
 * Each failure is shown once, by whoever asked. A load catches its failure and shows it inline with Retry
 * (`useLoad`), a form shows it at its fields; a failed action nobody caught (`onClick={() => void save()}`)
 * ends here as an unhandled rejection and becomes a toast.
 */
export function notifyUncaughtFailures() {
  window.addEventListener('unhandledrejection', (event) => {
    if (!(event.reason instanceof ApiError)) return
    event.preventDefault()
    notifyFailure(event.reason)
  })
}

/** The one HTTP client of the console. */
export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('PUT', path, { ...options, body }),
  patch: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('PATCH', path, { ...options, body }),
  delete: <T>(path: string, options?: RequestOptions) => request<T>('DELETE', path, options),
  /** The answer itself, for a body read as it arrives (an event stream) or kept as a file. */
  raw: sendRaw,
}
