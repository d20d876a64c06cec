import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

vi.stubGlobal('window', { location: { origin: 'http://console.test' } })
const remembered = new Map<string, string>()
vi.stubGlobal('localStorage', {
  getItem: (key: string) => remembered.get(key) ?? null,
  setItem: (key: string, value: string) => remembered.set(key, value),
  removeItem: (key: string) => remembered.delete(key),
})

/** Each request the console sends, as `METHOD path?query`, answered by `answerFor`. */
const sent: string[] = []
function answerFor(method: string, url: URL): unknown {
  if (url.pathname === '/api/auth/login')
    return { token: 'token-of-someone', user: { id: 'u', username: 'u' } }
  if (url.pathname.endsWith('/words')) return { words: [] }
  if (url.pathname.startsWith('/document-recognition/runs/'))
    return { id: 'run-of-ann', status: 'completed', field_reviews: [] }
  if (method === 'GET') return { items: [], total: 0, page: 1, size: 20 }
  return {}
}
/** Chat sockets the console opened, with whether they were closed. */
const sockets: { url: string; closed: boolean }[] = []
vi.stubGlobal(
  'WebSocket',
  class {
    static OPEN = 1
    readyState = 1
    onopen: (() => void) | null = null
    onclose: (() => void) | null = null
    onmessage: ((event: { data: string }) => void) | null = null
    private readonly record: { url: string; closed: boolean }
    constructor(url: string) {
      this.record = { url, closed: false }
      sockets.push(this.record)
    }
    send() {}
    close() {
      this.record.closed = true
    }
  },
)

vi.stubGlobal('fetch', async (input: URL, init: RequestInit) => {
  const url = new URL(input)
  sent.push(`${init.method} ${url.pathname}${url.search}`)
  return new Response(JSON.stringify(answerFor(init.method ?? 'GET', url)), {
    headers: { 'content-type': 'application/json' },
  })
})

const { useSession } = await import('./session-store')
const { useNotifications } = await import('../components/ui/notifications')
const { useKnowledge } = await import('../features/knowledge/stores/knowledge-store')
const { useAdmin } = await import('../features/admin/stores/admin-store')
const { useReviewRun } = await import('../features/review/stores/review-run-store')
const { useChatSession } = await import('../features/chat/stores/chat-session-store')

const signIn = (username: string) => useSession.getState().signIn(username, 'password')

beforeEach(() => {
  vi.useFakeTimers()
  sent.length = 0
})
afterEach(() => vi.useRealTimers())

describe('signing out', () => {
  it('forgets what the last user searched for in the knowledge playground', async () => {
    await signIn('ann')
    useKnowledge.setState({ playground: { query: 'ann’s secret', hits: [] } })
    await useSession.getState().signOut()
    expect(useKnowledge.getState().playground).toBeNull()
  })

  it('drops the toasts that carried the last user’s messages', async () => {
    await signIn('ann')
    useNotifications
      .getState()
      .push({ kind: 'error', text: 'Listing “Ann’s secret agent” is not published.' })
    await useSession.getState().signOut()
    expect(useNotifications.getState().items).toEqual([])
  })

  it('forgets the moderation page the last admin read: a moderation re-reads the first page of pending', async () => {
    await signIn('ann')
    await useAdmin.getState().loadListings('rejected', 3)
    await useSession.getState().signOut()
    await signIn('ben')
    sent.length = 0
    await useAdmin.getState().moderate('listing-1', 'published', '')
    expect(sent.filter((request) => request.startsWith('GET /api/admin/listings'))).toEqual([
      'GET /api/admin/listings?status=pending_review&page=1&size=20',
    ])
  })

  it('forgets the run the last reviewer had open, so no page of it is read for the next one', async () => {
    await signIn('ann')
    await useReviewRun.getState().open('run-of-ann')
    await useReviewRun.getState().loadWords(1)
    await useSession.getState().signOut()
    await signIn('ben')
    sent.length = 0
    await useReviewRun.getState().loadWords(2)
    expect(sent).toEqual([])
  })

  it('closes the chat socket the last user had open, so none of their session reaches the next one', async () => {
    await signIn('ann')
    useChatSession.getState().connect('session-of-ann')
    expect(sockets.at(-1)?.closed).toBe(false)
    await useSession.getState().signOut()
    expect(sockets.at(-1)?.closed).toBe(true)
    expect(useChatSession.getState().sessionId).toBeNull()
  })
})
