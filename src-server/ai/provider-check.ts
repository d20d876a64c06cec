/** What trying a provider found; `ok` false with `reachable` false is a URL nothing answers at. */
export interface ProviderCheck {
  ok: boolean
  reachable: boolean
  /** The HTTP status of the answer that decided, null when there was none (or for the built-in provider). */
  status: number | null
  message: string
  /** The models the provider lists at `/models`, when it has that endpoint. */
  listed_models: string[] | null
  /** Configured models the provider's list does not hold: a likely typo, reported but not refused. */
  missing_models: string[]
}

/** Long enough for a model server on another machine of the network, short enough to answer a save promptly. */
export const PROVIDER_CHECK_TIMEOUT_MS = 5000

interface Target {
  baseUrl: string
  apiKey: string | null
  models: string[]
}

const refused = (status: number): ProviderCheck => ({
  ok: false,
  reachable: true,
  status,
  message: `The provider refused the API key (HTTP ${status}).`,
  listed_models: null,
  missing_models: [],
})

function listedIds(body: unknown): string[] | null {
  const data = (body as { data?: unknown } | null)?.data
  if (!Array.isArray(data)) return null
  return data.flatMap((entry) => (typeof (entry as { id?: unknown })?.id === 'string' ? [entry.id] : []))
}

/**
 * Tries an OpenAI-compatible provider the way its clients will use it: `GET /models`, and when a server has no
 * such endpoint (some local servers), a one-token chat completion with the first configured model. Never throws.
 */
export async function checkProvider(
  target: Target,
  timeoutMs = PROVIDER_CHECK_TIMEOUT_MS,
): Promise<ProviderCheck> {
  const base = target.baseUrl.replace(/\/+$/u, '')
  const headers: Record<string, string> = { accept: 'application/json' }
  if (target.apiKey) headers.authorization = `Bearer ${target.apiKey}`
  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${base}${path}`, {
      ...init,
      headers: { ...headers, ...init.headers },
      signal: AbortSignal.timeout(timeoutMs),
    })
  try {
    const listing = await call('/models')
    if (listing.status === 401 || listing.status === 403) return refused(listing.status)
    const listed = listing.ok ? listedIds(await listing.json().catch(() => null)) : null
    if (listed) {
      const missing = target.models.filter((model) => !listed.includes(model))
      return {
        ok: true,
        reachable: true,
        status: listing.status,
        message:
          missing.length > 0
            ? `The provider answers; it does not list ${missing.join(', ')}.`
            : 'The provider answers and lists every configured model.',
        listed_models: listed,
        missing_models: missing,
      }
    }
    const completion = await call('/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: target.models[0],
        messages: [{ role: 'user', content: 'ping' }],
        max_tokens: 1,
        stream: false,
      }),
    })
    await completion.body?.cancel()
    if (completion.status === 401 || completion.status === 403) return refused(completion.status)
    return {
      ok: completion.ok,
      reachable: true,
      status: completion.status,
      message: completion.ok
        ? `The provider answers a chat completion with ${target.models[0]}.`
        : `The provider answers, but with HTTP ${listing.status} at /models and HTTP ${completion.status} for a chat completion with ${target.models[0]}: check the base URL (it usually ends in /v1) and the model names.`,
      listed_models: null,
      missing_models: [],
    }
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code
    const timedOut = (error as Error).name === 'TimeoutError'
    return {
      ok: false,
      reachable: false,
      status: null,
      message: timedOut
        ? `No answer from ${base} within ${timeoutMs / 1000} s.`
        : `Nothing answers at ${base}${cause ? ` (${cause})` : ''}.`,
      listed_models: null,
      missing_models: [],
    }
  }
}
