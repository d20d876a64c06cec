import { create } from 'zustand'
import { keepSocketOpen } from '../../../lib/reconnect'
import { forgetOnSignOut } from '../../../stores/session-store'
import { chatApi, type InboxFilter } from '../api/chat-api'
import type { Agent, ChatSession, ViewCounts } from '../api/chat-types'

interface SessionsState {
  sessions: ChatSession[]
  /** Sessions the server has under the filter; more than `sessions` holds until older pages are loaded. */
  total: number
  /** Operators: sessions per inbox view (null for users). */
  counts: ViewCounts | null
  filter: InboxFilter
  /** The signed-in operator, to place live updates in the Mine view. */
  me: string | null
  /** The session open on screen: it stays read while updates arrive. */
  openId: string | null
  live: boolean
  /** The newest page under the filter, replacing whatever was listed. */
  load(): Promise<void>
  /** The newest page merged in: older pages already loaded stay. */
  refresh(): Promise<void>
  /** Appends the next page of older sessions (live updates may have moved some: duplicates are merged). */
  loadOlder(): Promise<void>
  /** A new filter; the screen loads the list again for it (its loading and failure are shown there). */
  setFilter(change: Partial<InboxFilter>): void
  /** Operators: follow every live session through the operator feed. Returns a stop function. */
  follow(me: string): () => void
  /**
   * Users: their own list re-read while the screen is open. There is no feed for it: the operator feed needs
   * chat.operate, and a conversation's socket speaks for that conversation only. Returns a stop function.
   */
  poll(): () => void
  upsert(session: ChatSession): void
  setOpen(sessionId: string | null): void
  /** The open session is read: its unread count is 0 on the server and here. */
  markRead(sessionId: string): void
  /** The agents a new conversation or a test can be started with. */
  agents: Agent[]
  loadAgents(): Promise<void>
}

/** The server's order: sessions waiting for a human first, then the most recently updated. */
function inboxOrder(a: ChatSession, b: ChatSession): number {
  if (a.waiting_for_human !== b.waiting_for_human) return a.waiting_for_human ? -1 : 1
  return b.updated_at.localeCompare(a.updated_at)
}

/** One entry per session, the most recently updated copy of each, in inbox order. */
function merge(current: ChatSession[], incoming: ChatSession[]): ChatSession[] {
  const byId = new Map(current.map((session) => [session.id, session]))
  for (const session of incoming) {
    const known = byId.get(session.id)
    if (!known || known.updated_at <= session.updated_at) byId.set(session.id, session)
  }
  return [...byId.values()].sort(inboxOrder)
}

/** Whether a session pushed by the feed belongs in the list as filtered (text search is the server's call). */
function matches(session: ChatSession, filter: InboxFilter, me: string | null): boolean {
  if (filter.view === 'mine' && session.assigned_operator?.id !== me) return false
  if (filter.view === 'unassigned' && session.assigned_operator) return false
  if (filter.state === 'resolved') return session.resolved_at !== null
  if (session.resolved_at) return false
  return !filter.state || session.state === filter.state
}

let countsTimer: ReturnType<typeof setTimeout> | undefined

/** How often a user's own list is re-read (see `poll`). */
const OWN_LIST_MS = 5000

export const useChatSessions = create<SessionsState>((set, get) => {
  const fetchPage = (offset = 0) => chatApi.sessions(get().me ? get().filter : null, offset)
  /** Counts move with every update: asked again once a burst of updates has settled. */
  const scheduleCounts = () => {
    clearTimeout(countsTimer)
    countsTimer = setTimeout(() => {
      void chatApi
        .sessions(get().filter, 0, 1)
        .then((page) => set({ counts: page.counts, total: page.total }))
    }, 400)
  }
  return {
    sessions: [],
    total: 0,
    counts: null,
    filter: { view: 'all', state: '', q: '' },
    me: null,
    openId: null,
    live: false,
    agents: [],
    async loadAgents() {
      set({ agents: (await chatApi.agents()).items })
    },
    async load() {
      const page = await fetchPage()
      set({ sessions: [...page.items].sort(inboxOrder), total: page.total, counts: page.counts })
    },
    async refresh() {
      const page = await fetchPage()
      set({ sessions: merge(get().sessions, page.items), total: page.total, counts: page.counts })
    },
    async loadOlder() {
      // Offsets follow the server's order, where every update moved its session up, as it did here.
      const page = await fetchPage(get().sessions.length)
      set({ sessions: merge(get().sessions, page.items), total: page.total, counts: page.counts })
    },
    setFilter(change) {
      set({ filter: { ...get().filter, ...change } })
    },
    follow(me) {
      set({ me })
      // Opened again after a drop, so the list stays live across server restarts.
      return keepSocketOpen(chatApi.operatorFeed, {
        onOpen() {
          set({ live: true })
          // Updates sent while the feed was down are not replayed: catch up from the list itself.
          void get()
            .refresh()
            .catch(() => undefined)
        },
        onMessage(text) {
          const data = JSON.parse(text) as { type: string; session?: ChatSession }
          if (data.type === 'session_updated' && data.session) get().upsert(data.session)
        },
        onClose: () => set({ live: false }),
      })
    },
    poll() {
      set({ me: null })
      // A failed re-read keeps the list as it was; the next one tries again.
      const timer = setInterval(
        () =>
          void get()
            .refresh()
            .catch(() => undefined),
        OWN_LIST_MS,
      )
      return () => clearInterval(timer)
    },
    upsert(session) {
      const { filter, me, sessions } = get()
      const listed = sessions.some((known) => known.id === session.id)
      if (matches(session, filter, me)) {
        // A search is the server's to answer: only sessions already found are updated in place.
        if (listed || !filter.q.trim()) set({ sessions: merge(sessions, [session]) })
      } else if (listed) set({ sessions: sessions.filter((known) => known.id !== session.id) })
      if (me) scheduleCounts()
      if (session.id === get().openId) get().markRead(session.id)
    },
    setOpen(sessionId) {
      set({ openId: sessionId })
      if (sessionId) get().markRead(sessionId)
    },
    markRead(sessionId) {
      const session = get().sessions.find((known) => known.id === sessionId)
      if (!session?.unread_count) return
      set({
        sessions: get().sessions.map((known) =>
          known.id === sessionId ? { ...known, unread_count: 0 } : known,
        ),
      })
      void chatApi.markRead(sessionId).catch(() => {})
    },
  }
})

forgetOnSignOut(useChatSessions)
